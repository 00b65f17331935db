package import ServiceKit

/// What every provider that hands content to a vendor's app on the device
/// (WeChat, QQ) does the same way: availability from the bridge's
/// ``AppStatus``, the refusals before the app opens, the unknown
/// destination, and the wait for the app's answer through one
/// ``HandOffLedger``. A provider keeps one and adds only its messages.
package struct AppHandOff<Answer: HandOffAnswer>: Sendable {
    /// The provider the outcomes are for.
    package let provider: ProviderID
    /// The app's name in reasons ("WeChat").
    package let appName: String
    /// What a share says when the host gave no bridge.
    package let missingBridge: String
    /// How long to wait for the app's answer after the hand-off.
    package let responseTimeout: Duration
    private let clock: any ServiceClock
    private let ledger: HandOffLedger<Answer>

    /// The hand-offs of `provider` to the app `appName`; `missingBridge`
    /// says what a host without a bridge must add; `log` hears of answers
    /// dropped because their hand-off stopped waiting.
    package init(
        provider: ProviderID, appName: String, missingBridge: String, responseTimeout: Duration, clock: any ServiceClock, log: any ServiceLogHandler
    ) {
        self.provider = provider
        self.appName = appName
        self.missingBridge = missingBridge
        self.responseTimeout = responseTimeout
        self.clock = clock
        ledger = HandOffLedger(appName: appName.lowercased(), log: log)
    }

    /// What a share sheet shows, from the bridge's status (`nil`: there
    /// is no bridge, so the provider is not configured).
    package func availability(_ status: AppStatus?) -> ProviderAvailability {
        switch status {
        case nil: ProviderAvailability(isConfigured: false, isAuthorized: true, isReachable: false)
        case .available: ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: true)
        case .notInstalled: ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: false)
        case .notRegistered: ProviderAvailability(isConfigured: false, isAuthorized: true, isReachable: true)
        }
    }

    /// The error for a destination the provider does not have.
    package func unknownTarget(_ destination: ShareDestination, displayName: String) -> ShareError {
        .unknownTarget(ShareTarget(provider: provider, destination: destination, displayName: displayName))
    }

    /// The host's bridge, or the refusal that says what a host without one must add.
    package func required<Bridge>(_ bridge: Bridge?) throws(ShareError) -> Bridge {
        guard let bridge else { throw .unavailable(reason: missingBridge) }
        return bridge
    }

    /// Hands a request over and waits for the app's answer. Refused before
    /// anything happens when the bridge's `status` says the app cannot take
    /// it; then `send` hands it over (throwing when the app did not take
    /// it), and the answer (from `subscribe`, the bridge's
    /// ``AppBridge/responses()``), an answer that cannot be tied to this
    /// hand-off, or silence after ``responseTimeout`` is the outcome.
    package func handOff(
        transaction: String, status: AppStatus, subscribe: () -> AsyncStream<Answer>, send: () async throws(ShareError) -> Void
    ) async throws(ShareError) -> ShareOutcome {
        switch status {
        case .available: break
        case .notInstalled: throw .unavailable(reason: "\(appName) is not installed on this device")
        case .notRegistered(let reason): throw .unavailable(reason: "the app is not registered with \(appName): \(reason)")
        }
        return try await ledger.handOff(
            transaction: transaction, to: appName, provider: provider, subscribe: subscribe, timeout: responseTimeout, clock: clock,
            send: send)
    }
}

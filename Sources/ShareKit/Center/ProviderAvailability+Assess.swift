public import ServiceKit

extension ProviderAvailability {
    /// The usual assessment for an HTTP provider: configured as given;
    /// authorised when no credential is needed or `credential` has not
    /// expired at `clock`'s time; reachable unless `network` reports no path
    /// (assumed reachable without a monitor).
    ///
    /// ```swift
    /// func availability(credential: Credential?) async -> ProviderAvailability {
    ///     await .assess(isConfigured: !appKey.isEmpty, credential: credential, clock: client.clock, network: monitor)
    /// }
    /// ```
    public static func assess(
        isConfigured: Bool, credential: Credential?, needsCredential: Bool = true, clock: any ServiceClock, network: (any NetworkMonitor)?
    ) async -> ProviderAvailability {
        let reachable = await network?.currentPath() != .unreachable
        let authorized = !needsCredential || credential.map { !$0.isExpired(at: clock.now) } ?? false
        return ProviderAvailability(isConfigured: isConfigured, isAuthorized: authorized, isReachable: reachable)
    }
}

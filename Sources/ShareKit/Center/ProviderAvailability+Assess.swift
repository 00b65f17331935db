public import ServiceKit

extension ProviderAvailability {
    /// The usual assessment for an HTTP provider: configured as given;
    /// authorised when no credential is needed or `credential` has not
    /// expired at `clock`'s time; reachable unless `network` reports no path
    /// (assumed reachable without a monitor).
    ///
    /// Providers that talk through a ``ServiceKit/ServiceClient`` use
    /// ``assess(isConfigured:credential:needsCredential:client:)``.
    public static func assess(
        isConfigured: Bool, credential: Credential?, needsCredential: Bool = true, clock: any ServiceClock, network: (any NetworkMonitor)?
    ) async -> ProviderAvailability {
        let reachable = await network?.currentPath() != .unreachable
        let authorized = !needsCredential || credential.map { !$0.isExpired(at: clock.now) } ?? false
        return ProviderAvailability(isConfigured: isConfigured, isAuthorized: authorized, isReachable: reachable)
    }

    /// The usual assessment for an HTTP provider that talks through
    /// `client`: its clock decides whether `credential` has expired, its
    /// network monitor (when it has one) whether the service is reachable.
    ///
    /// ```swift
    /// func availability(credential: Credential?) async -> ProviderAvailability {
    ///     await .assess(isConfigured: !appKey.isEmpty, credential: credential, client: client)
    /// }
    /// ```
    public static func assess(isConfigured: Bool, credential: Credential?, needsCredential: Bool = true, client: ServiceClient) async -> ProviderAvailability {
        await assess(isConfigured: isConfigured, credential: credential, needsCredential: needsCredential, clock: client.clock, network: client.networkMonitor)
    }
}

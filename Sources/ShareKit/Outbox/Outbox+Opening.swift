import Execution

extension Outbox {
    /// The same as `init` with these arguments, run away from Swift's
    /// cooperative pool: opens (or creates) the outbox at `path`, and marks
    /// entries a previous process left `sending` as
    /// ``State/outcomeUnknown``. Opening reads and writes the disk and may
    /// wait up to SQLite's busy timeout (5 s) for another process's lock,
    /// so async code opens an outbox this way; the synchronous `init` is
    /// for threads of the caller's own.
    ///
    /// ```swift
    /// let outbox = try await Outbox.open(path: "outbox.sqlite", center: center)
    /// ```
    public static func open(
        path: String, center: ShareCenter, network: any NetworkMonitor = NetworkMonitors.system,
        policy: UploadPolicy = UploadPolicy(), maxAttempts: Int = 5, clock: any ServiceClock = SystemClock()
    ) async throws(ShareError) -> Outbox {
        try await BlockingWork.run { () throws(ShareError) -> Outbox in
            try Outbox(path: path, center: center, network: network, policy: policy, maxAttempts: maxAttempts, clock: clock)
        }
    }
}

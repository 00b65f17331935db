/// The condition of ``waitUntil(_:timeout:pollingEvery:_:)`` did not come
/// true in time.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was awaited.
    public let description: String
}

/// Waits until `condition` holds, checking it again after each short pause;
/// throws ``WaitTimedOut`` after `timeout`.
///
/// For events a test cannot subscribe to (a file system watcher that has
/// not reported yet, a server that has not seen a request): the test waits
/// for the event itself, and the generous timeout only bounds a failure.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(120), pollingEvery interval: Duration = .milliseconds(5),
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while try await !condition() {
        guard clock.now < deadline else { throw WaitTimedOut(description: "timed out after \(timeout) waiting for \(what())") }
        try await Task.sleep(for: interval)
    }
}

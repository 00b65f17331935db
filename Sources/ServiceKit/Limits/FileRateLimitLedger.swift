import Execution
public import Foundation

/// A ``RateLimitLedger`` in a JSON file (mode 0600), shared by every
/// process that opens the same path: each check reads the file, and each
/// reservation reads, records and writes it back atomically under an
/// exclusive lock (`PATH.lock`), so two processes posting at once cannot
/// both take the last room in a window.
///
/// For a tool that runs once per post (`weibo-client post`): with an
/// in-memory ledger every run would start with an empty log and no limit
/// would hold across runs. A file that cannot be read as a ledger (damaged,
/// or written by something else) is an error, never silently emptied,
/// since an empty log would admit sends the service then refuses.
///
/// ```swift
/// let center = ShareCenter(credentials: store, rateLimitLedger: FileRateLimitLedger(path: "\(dataHome)/sent.json"))
/// ```
public actor FileRateLimitLedger: RateLimitLedger {
    /// Where the store's SQLite, file and `fsync` calls run: a serial queue of
    /// its own, so a wait for a lock another process holds never stalls a
    /// thread of Swift's cooperative pool.
    private let executor = DiskExecutor(label: "photodeck.rate-ledger")

    /// The store's jobs run on its own serial queue, not
    /// on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The file.
    public nonisolated let path: String

    /// Uses the file at `path` (created on the first reservation).
    public init(path: String) {
        self.path = path
    }

    public func wait(for checks: [RateLimitCheck], at now: Date) throws(UnderlyingError) -> Duration? {
        Self.wait(for: checks, in: try load(), at: now)
    }

    public func reserve(_ checks: [RateLimitCheck], at now: Date) throws(UnderlyingError) -> Duration? {
        do {
            return try OwnerOnlyFile.whileLocked(path) { () throws -> Duration? in
                var logs = try load()
                if let wait = Self.reserve(checks, in: &logs, at: now) { return wait }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                try OwnerOnlyFile.write(try encoder.encode(logs), to: path)
                return nil
            }
        } catch let error as UnderlyingError {
            throw error
        } catch {
            throw UnderlyingError(error, context: "recording a send in \(path)")
        }
    }

    private func load() throws(UnderlyingError) -> [String: SendLog] {
        let data: Data?
        do {
            data = try OwnerOnlyFile.read(path, limit: 4 << 20)
        } catch {
            throw UnderlyingError(error, context: "reading the rate-limit log \(path)")
        }
        guard let data, !data.isEmpty else { return [:] }
        do {
            return try JSONDecoder().decode([String: SendLog].self, from: data)
        } catch {
            throw UnderlyingError(message: "the rate-limit log \(path) cannot be read (\(error)); move it aside to start a new one")
        }
    }
}

import Execution
import Foundation
import ServiceKit

/// Each account's ``WeiboFilters``, in one JSON file only the user can read
/// (mode 0600), changed under the file's lock so that two processes
/// muting at once both keep their change. The file is read with a size
/// bound; one that cannot be read is an error, never silently empty
/// filters (which would show everything the user muted). Like every
/// PhotoDeck store, an actor whose reads and writes run on a serial queue
/// of its own, never on Swift's cooperative pool; making one reads nothing.
///
/// ```swift
/// let store = WeiboFilterStore(path: "\(support)/filters.json")
/// try await store.update(account: uid) { $0.mute(word: "剧透") }
/// let filters = try await store.filters(account: uid)
/// ```
public actor WeiboFilterStore {
    /// The file.
    public nonisolated let path: String
    private let disk = DiskExecutor(label: "photodeck.weibo-filters")

    /// The store's reads and writes run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    /// A store at `path` (created on the first change).
    public init(path: String) { self.path = path }

    private struct Contents: Codable {
        var accounts: [String: WeiboFilters] = [:]
    }

    /// The filters of `account` (none when it has none).
    public func filters(account: String) throws(WeiboError) -> WeiboFilters {
        do {
            return try OwnerOnlyFile.readJSON(Contents.self, at: path)?.accounts[account] ?? WeiboFilters()
        } catch {
            throw .storage(UnderlyingError(error, context: "reading the filters at \(path)"))
        }
    }

    /// Changes the filters of `account` and returns them as saved.
    @discardableResult
    public func update(account: String, _ change: (inout WeiboFilters) -> Void) throws(WeiboError) -> WeiboFilters {
        do {
            let saved = try OwnerOnlyFile.updateJSON(at: path, empty: Contents()) { (contents: inout Contents) throws(Never) in
                var filters = contents.accounts[account] ?? WeiboFilters()
                change(&filters)
                contents.accounts[account] = filters.isEmpty ? nil : filters
            }
            return saved.get().accounts[account] ?? WeiboFilters()
        } catch {
            throw .storage(UnderlyingError(error, context: "saving the filters at \(path)"))
        }
    }
}

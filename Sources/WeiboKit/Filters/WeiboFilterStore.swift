import Execution
import Foundation
import ServiceKit

/// Each account's ``WeiboFilters``, in one JSON file only the user can read
/// (mode 0600), changed under the file's lock so that two processes
/// muting at once both keep their change. The file is read with a size
/// bound; one that cannot be read is an error, never silently empty
/// filters (which would show everything the user muted).
///
/// ```swift
/// let store = WeiboFilterStore(path: "\(support)/filters.json")
/// try await store.update(account: uid) { $0.mute(word: "剧透") }
/// let filters = try await store.filters(account: uid)
/// ```
public struct WeiboFilterStore: Sendable {
    /// The file.
    public let path: String

    /// A store at `path` (created on the first change).
    public init(path: String) { self.path = path }

    private struct Contents: Codable {
        var accounts: [String: WeiboFilters] = [:]
    }

    /// The filters of `account` (none when it has none).
    public func filters(account: String) async throws(WeiboError) -> WeiboFilters {
        let path = self.path
        return try await BlockingWork.run { () throws(WeiboError) -> WeiboFilters in
            do {
                return try OwnerOnlyFile.readJSON(Contents.self, at: path)?.accounts[account] ?? WeiboFilters()
            } catch {
                throw .storage(UnderlyingError(error, context: "reading the filters at \(path)"))
            }
        }
    }

    /// Changes the filters of `account` and returns them as saved.
    @discardableResult
    public func update(account: String, _ change: @escaping @Sendable (inout WeiboFilters) -> Void) async throws(WeiboError) -> WeiboFilters {
        let path = self.path
        return try await BlockingWork.run { () throws(WeiboError) -> WeiboFilters in
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
}

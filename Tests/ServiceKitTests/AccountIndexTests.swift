import Foundation
import ServiceKit
import TestSupport
import Testing

/// The one account index under Weibo's and WeChat's account stores.
@Suite("Account index")
struct AccountIndexTests {
    struct Account: IndexedAccount, Equatable {
        var accountID: String
        var displayName: String
        var needsSignIn = false
        var provider: ProviderID { "test" }
        var signInExpiresAt: Date? { nil }
    }

    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString).json").path
    }

    @Test("added, replaced, marked and removed; the current one moves to the first left; a refused change writes nothing")
    func changes() throws {
        for path in [Self.path(), nil] {
            defer { path.map { try? FileManager.default.removeItem(atPath: $0) } }
            var index = try AccountIndex<Account>(path: path)
            try index.upsert(Account(accountID: "a", displayName: "A"), makeCurrent: true)
            try index.upsert(Account(accountID: "b", displayName: "B"), makeCurrent: false)
            try index.upsert(Account(accountID: "a", displayName: "A2"), makeCurrent: false)
            try index.markNeedsSignIn("b")
            #expect(index.contents.accounts == [Account(accountID: "a", displayName: "A2"), Account(accountID: "b", displayName: "B", needsSignIn: true)])
            #expect(index.contents.current == "a")
            struct Refused: Error {}
            let refused = try index.change { (contents: inout AccountIndex<Account>.Contents) throws(Refused) in
                contents.accounts.removeAll()
                throw Refused()
            }
            #expect(throws: Refused.self) { try refused.get() }
            #expect(index.contents.accounts.count == 2)
            try index.remove("a")
            #expect(index.contents.accounts.map(\.accountID) == ["b"] && index.contents.current == "b")
            if let path {
                // Another process's view: the file holds what this one wrote.
                #expect(try AccountIndex<Account>(path: path).contents.accounts.map(\.accountID) == ["b"])
            }
        }
    }

    @Test("a bare array (WeChat's index before it was shared) is read, and written back as the object form")
    func arrayForm() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let old = #"[{"accountID":"o1","displayName":"微信用户","needsSignIn":false}]"#
        #expect(FileManager.default.createFile(atPath: path, contents: Data(old.utf8), attributes: [.posixPermissions: 0o600]))
        var index = try AccountIndex<Account>(path: path)
        #expect(index.contents.accounts.map(\.accountID) == ["o1"] && index.contents.current == nil)
        try index.markNeedsSignIn("o1")
        let written = try JSONSerialization.jsonObject(with: Data(fileBytes(URL(fileURLWithPath: path), limit: 1 << 20))) as? [String: Any]
        let accounts = try #require(written?["accounts"] as? [[String: Any]])
        #expect(accounts.first?["needsSignIn"] as? Bool == true)
    }

    @Test("a file that is not an index is an error, never an empty index")
    func unreadable() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{\"accounts\": 7}".utf8), attributes: [.posixPermissions: 0o600]))
        #expect(throws: (any Error).self) { try AccountIndex<Account>(path: path) }
    }
}

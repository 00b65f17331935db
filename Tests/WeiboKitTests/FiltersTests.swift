import Foundation
import ServiceKit
import Testing

@testable import WeiboKit

@Suite("Weibo filters")
struct FiltersTests {
    static func post(_ id: String, _ text: String, by uid: String = "1", repostOf original: WeiboPost? = nil) -> WeiboPost {
        WeiboPost(
            id: id, text: text, createdAt: Date(timeIntervalSince1970: 0), user: WeiboUser(id: uid, screenName: "u\(uid)"), repost: original)
    }

    @Test(
        "muted words: plain matches anywhere; whole words respect word boundaries, and Chinese, which has none, matches anywhere",
        arguments: [
            ("剧透", false, "今天的剧透太多了", true),
            ("剧透", true, "今天的剧透太多了", true),
            ("cat", true, "a cat!", true),
            ("cat", true, "concatenate", false),
            ("cat", false, "concatenate", true),
            ("cat", true, "猫cat猫", true),
            ("cat", true, "cats", false),
            ("CAT", true, "Cat videos", true),
            ("weibo", false, "ＷＥＩＢＯ新闻", true),
            ("猫", true, "我的猫咪", true),
            ("spoiler", true, "no spoilers_here", false),
            ("ネタバレ", true, "これはネタバレです", true),
            ("  ", false, "anything", false),
        ])
    func words(_ word: String, _ wholeWord: Bool, _ text: String, _ hidden: Bool) {
        var filters = WeiboFilters()
        filters.mute(word: word, wholeWord: wholeWord)
        #expect((filters.match(Self.post("1", text)) != nil) == hidden, "\(word) in \(text)")
    }

    @Test("muted people, reposts of them, muted reposts (everyone's or one person's), words in the reposted text")
    func peopleAndReposts() {
        var filters = WeiboFilters(mutedUsers: ["9"])
        let muted = Self.post("10", "hi", by: "9")
        #expect(filters.match(muted) == .user("9"))
        #expect(filters.match(Self.post("11", "look", by: "2", repostOf: muted)) == .user("9"), "a repost of a muted person's post")
        let plain = Self.post("12", "hello", by: "3")
        let repost = Self.post("13", "转发微博", by: "2", repostOf: plain)
        #expect(filters.match(repost) == nil)
        filters.mutedReposters = ["2"]
        #expect(filters.match(repost) == .repost(by: "2") && filters.match(Self.post("14", "own post", by: "2")) == nil)
        filters.mutedReposters = []
        filters.mutesAllReposts = true
        #expect(filters.match(repost) == .repost(by: "2"))
        filters.mutesAllReposts = false
        filters.mute(word: "hello")
        #expect(filters.match(repost) == .word("hello"), "the reposted text counts")
        let unmuted = filters.unmute(word: " HELLO ")
        #expect(unmuted && filters.match(repost) == nil)
        let unknown = filters.unmute(word: "never muted")
        #expect(!unknown)
    }

    @Test("a filtered post leaves a marker with its id and reason: the list keeps its shape, gaps stay where they were")
    func markers() {
        var filters = WeiboFilters()
        filters.mute(word: "剧透")
        let gap = WeiboTimelineGap(newerThan: "30", olderThan: "20", fillFrom: "30")
        let timeline = CachedWeiboTimeline(
            items: [.entry(Self.post("40", "好看")), .entry(Self.post("30", "剧透警告")), .gap(gap), .entry(Self.post("20", "ok"))], refreshedAt: nil)
        let shown = timeline.filtered(by: filters)
        #expect(shown.items.count == 4)
        #expect(shown.items[1] == .filtered(WeiboFilteredItem(id: "30", match: .word("剧透"))))
        #expect(shown.items[2] == .gap(gap) && shown.posts.map(\.id) == ["40", "20"])
        #expect(WeiboFilterMatch.word("剧透").description == "filtered: word “剧透”")
        let comments = CachedWeiboComments(
            items: [.entry(WeiboComment(id: "5", text: "别剧透", createdAt: Date(timeIntervalSince1970: 0), user: WeiboUser(id: "1", screenName: "a")))],
            refreshedAt: nil)
        #expect(comments.filtered(by: filters).items == [.filtered(WeiboFilteredItem(id: "5", match: .word("剧透")))])
    }

    @Test("the filter store keeps each account's filters, in a file only the user can read; two processes' changes both stay")
    func store() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filters-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = WeiboFilterStore(path: folder + "/filters.json")
        #expect(try await store.filters(account: "1").isEmpty)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask { _ = try? await WeiboFilterStore(path: folder + "/filters.json").update(account: "1") { $0.mute(word: "w\(index)") } }
            }
        }
        try await store.update(account: "2") { $0.mutedUsers.insert("9") }
        #expect(try await store.filters(account: "1").mutedWords.count == 8)
        #expect(try await store.filters(account: "2").mutedUsers == ["9"])
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/filters.json")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try Data("{\"accounts\": 7}".utf8).write(to: URL(fileURLWithPath: folder + "/filters.json"))
        await #expect(throws: WeiboError.self) { try await store.filters(account: "1") }
    }
}

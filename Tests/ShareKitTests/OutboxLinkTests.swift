import Foundation
import ShareKit
import ShareKitTesting
import TestSupport
import Testing

/// The outbox's folders and database are its own: a link planted in
/// their place is refused with an error that names it, and nothing is
/// created, read or removed through it.
@Suite("Outbox: links planted in the store")
struct OutboxLinkTests {
    /// A scratch folder with `outside`, the folder a planted link points to.
    static func scratch() throws -> (folder: String, outside: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-links-\(UUID().uuidString)").path
        let outside = folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        return (folder, outside)
    }

    static func names(in folder: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test("a linked .live folder: the outbox is refused, naming it; no lock file is made there, and another's old lock file stays")
    func linkedLiveFolder() async throws {
        let (folder, outside) = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // An older lock file of another outbox, which the sweep would remove in the store's own folder.
        let victim = "\(UUID().uuidString).lock"
        try Data().write(to: URL(fileURLWithPath: "\(outside)/\(victim)"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7_200)], ofItemAtPath: "\(outside)/\(victim)")
        let path = folder + "/outbox.sqlite"
        try FileManager.default.createSymbolicLink(atPath: path + ".live", withDestinationPath: outside)
        let (center, _) = await OutboxTests.center(MockShareProvider(id: "chat"))
        let error = #expect(throws: ShareError.self) { try Outbox(path: path, center: center, network: FakeNetworkMonitor(.wifi)) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("outbox.sqlite.live"), "the error names the link")
        #expect("\(error.map { "\($0)" } ?? "")".contains("symbolic link"))
        #expect(try Self.names(in: outside) == [victim], "nothing made there, nothing removed there")
    }

    @Test("a linked .videos folder: a video is not copied through it, and a queued video is never read through it")
    func linkedVideoFolder() async throws {
        let (folder, outside) = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let video = folder + "/clip.mp4"
        try Data(repeating: 7, count: 4_096).write(to: URL(fileURLWithPath: video))
        let provider = MockShareProvider(id: "chat")
        let (center, target) = await OutboxTests.center(provider)
        let network = FakeNetworkMonitor(.unreachable)

        // Planted before the copy: refused, naming the folder.
        let planted = folder + "/planted.sqlite"
        try FileManager.default.createSymbolicLink(atPath: planted + ".videos", withDestinationPath: outside)
        let refusing = try await Outbox.open(path: planted, center: center, network: network)
        let error = await #expect(throws: ShareError.self) { try await refusing.enqueue(ShareContent(video: ShareVideo(path: video)), to: target) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("planted.sqlite.videos"))
        #expect(try Self.names(in: outside).isEmpty)

        // Planted after the copy: the folder swapped for a link to one holding the same bytes under the same name.
        let path = folder + "/outbox.sqlite"
        let outbox = try await Outbox.open(path: path, center: center, network: network)
        try await outbox.enqueue(ShareContent(video: ShareVideo(path: video)), to: target)
        let kept = try Self.names(in: path + ".videos")
        #expect(kept.count == 1)
        for name in kept { try FileManager.default.copyItem(atPath: "\(path).videos/\(name)", toPath: "\(outside)/\(name)") }
        try FileManager.default.removeItem(atPath: path + ".videos")
        try FileManager.default.createSymbolicLink(atPath: path + ".videos", withDestinationPath: outside)
        network.set(.wifi)
        let entries = await outbox.process()
        #expect(entries.map(\.state) == [.failed])
        #expect(entries.first?.lastError?.contains("missing or damaged") == true)
        #expect(provider.recordedShares.isEmpty, "nothing read through the link was sent")
    }

    @Test("a database file that is a link is refused, not followed")
    func linkedDatabase() async throws {
        let (folder, outside) = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/outbox.sqlite"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside + "/elsewhere.sqlite")
        let (center, _) = await OutboxTests.center(MockShareProvider(id: "chat"))
        let error = #expect(throws: ShareError.self) { try Outbox(path: path, center: center, network: FakeNetworkMonitor(.wifi)) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("symbolic link"))
        #expect(try Self.names(in: outside).isEmpty, "no database made where the link points")
    }
}

import Foundation
import Testing

@testable import WeiboKit

/// The draft store's picture folder is its own: a link planted in its
/// place is refused with an error that names it, never written or read through.
@Suite("Drafts: a link planted for the picture folder")
struct DraftStoreLinkTests {
    @Test("a linked .pictures folder: no picture written through it, none read through it; the error names it")
    func linkedPictureFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drafts-links-\(UUID().uuidString)").path
        let outside = folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/drafts.sqlite"
        let drafts = try await WeiboDraftStore.open(path: path)
        let draft = try await drafts.create(account: "1750000001", text: "夕阳")
        let picture: [UInt8] = Array("a picture's bytes".utf8)

        // Kept in the store's own folder, then the folder swapped for a link to one with the same file.
        let kept = try await drafts.addPicture(picture, to: draft.id)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: path + ".pictures").first)
        try FileManager.default.copyItem(atPath: "\(path).pictures/\(name)", toPath: "\(outside)/\(name)")
        try FileManager.default.removeItem(atPath: path + ".pictures")
        try FileManager.default.createSymbolicLink(atPath: path + ".pictures", withDestinationPath: outside)
        let readError = await #expect(throws: WeiboError.self) { try await drafts.bytes(of: kept.pictures[0]) }
        #expect("\(readError.map { "\($0)" } ?? "")".contains("drafts.sqlite.pictures"))

        // Adding through the link is refused too, and nothing new appears outside.
        let writeError = await #expect(throws: WeiboError.self) { try await drafts.addPicture(Array("another".utf8), to: draft.id) }
        #expect("\(writeError.map { "\($0)" } ?? "")".contains("symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == [name])
        #expect(try await drafts.draft(draft.id).pictures.count == 1, "the refused picture is not named by the draft")
    }
}

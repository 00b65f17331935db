import Foundation
import ServiceKit
import Testing

@Suite("photo-share: QQ targets, dry run as QQ's bridge would be handed them")
struct PhotoShareQQTests {
    static let sample = ExampleProcess.packageRoot.appendingPathComponent("Examples/Samples/waterfall.jpg").path

    func handOff(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let result = try await ExampleProcess.run("photo-share", arguments + ["--dry-run", "--json"])
        #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
        return try #require(try JSONValue(parsing: Array(result.standardOutput.utf8))["handoff"], sourceLocation: sourceLocation)
    }

    @Test("text to Qzone is a mood object; two photos to Favorites one entry; a link to a chat a news card; a mini program with its AppId")
    func kinds() async throws {
        let mood = try await handOff(["share", "--to", "qq/timeline", "--text", "你好"])
        #expect(mood["object"] == "QQApiImageArrayForQZoneObject" && mood["cflag"] == 1 && mood["textCharacters"] == 2)
        #expect(mood["limitsChecked"] == ["QQApiImageArrayForQZoneObject.title: at most 128 characters"])
        let entry = try await handOff(["share", "--to", "qq/favorites", Self.sample, Self.sample])
        #expect(entry["object"] == "QQApiImageObject.imageDataArray" && entry["cflag"] == 8 && entry["imageBytes"]?.arrayValue?.count == 2)
        let card = try await handOff(["share", "--to", "qq/session", "--link", "https://example.com/p", "--title", "日落"])
        #expect(card["object"] == "QQApiNewsObject" && card["url"] == "https://example.com/p" && card["title"] == "日落" && card["cflag"] == 4)
        let program = try await handOff([
            "share", "--to", "qq/session", "--mini-program", "1110429485:pages/index", "--link", "https://example.com/", "--build", "test",
        ])
        #expect(program["miniAppID"] == "1110429485" && program["miniPath"] == "pages/index" && program["miniprogramType"] == 1)
        let file = try await handOff(["share", "--to", "qq/dataline", "--file", Self.sample])
        #expect(file["object"] == "QQApiFileObject" && file["fileName"] == "waterfall.jpg" && file["cflag"] == 16)
    }

    @Test("refusals name the kind and where it goes; without a bridge QQ is unavailable and says why")
    func refusals() async throws {
        let chat = try await ExampleProcess.run("photo-share", ["share", "--to", "qq/session", "--file", Self.sample, "--dry-run"])
        #expect(chat.status == 1)
        #expect(
            chat.standardError
                == "error: the content cannot be shared here: a file message cannot be shared to session: QQ takes a file message only in My Computer (the dataline)\n"
        )
        let noPath = try await ExampleProcess.run(
            "photo-share", ["share", "--to", "qq/session", "--mini-program", "1110429485", "--link", "https://example.com/", "--dry-run"])
        #expect(noPath.status == 1 && noPath.standardError.contains("APPID:PATH"))
        let real = try await ExampleProcess.run("photo-share", ["share", "--to", "qq/timeline", "--text", "hi"])
        #expect(real.status == 1 && real.standardError.hasPrefix("error: the provider is unavailable: no QQ bridge"), "\(real.standardError)")
    }
}

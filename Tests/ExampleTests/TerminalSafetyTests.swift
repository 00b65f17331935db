import FakeWeibo
import Foundation
import TestSupport
import Testing

/// Text from outside (file names, posts, names, server messages) never
/// reaches the terminal raw from any example: every control a terminal
/// would obey is shown as `\u{XX}`.
@Suite("Examples print outside text terminal-safe")
struct TerminalSafetyTests {
    /// A file name that, printed raw, writes the terminal's clipboard (OSC 52),
    /// sets its title (OSC 0) and clears the screen (CSI 2J).
    static let hostileName = "x\u{1B}]52;c;aGFja2Vk\u{07}\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}8m.jpg"

    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-safety-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// What is wrong with `output` as text for a terminal: any raw
    /// clipboard, title or clear sequence, and any C1 control.
    static func hazards(in output: String) -> [String] {
        var found: [String] = []
        for sequence in ["\u{1B}]52", "\u{1B}]0;", "\u{1B}[2J", "\u{07}"] where output.contains(sequence) {
            found.append(sequence.debugDescription)
        }
        if output.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) { found.append("a C1 control") }
        return found
    }

    @Test("photo-browser --once, photo-album (text and JSON) and photo-fit escape a hostile file name")
    func hostileFileName() async throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let folder = "\(work)/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let photo = "\(folder)/\(Self.hostileName)"
        try Data(try noiseJPEG(width: 48, height: 32, seed: 5_202)).write(to: URL(fileURLWithPath: photo))

        // The ANSI screen is the viewer's own escapes plus the status line with the name.
        let browser = try await ExampleProcess.run("photo-browser", ["--display", "ansi", "--once", folder], environment: ["COLUMNS": "200", "LINES": "12"])
        #expect(browser.status == 0, "\(browser.standardError)")
        #expect(Self.hazards(in: browser.standardOutput).isEmpty, "\(Self.hazards(in: browser.standardOutput))")
        #expect(browser.standardOutput.contains("x\\u{1B}]52;c;aGFja2Vk\\u{07}"))

        let store = "\(work)/store"
        let imported = try await ExampleProcess.run("photo-album", ["--store", store, "import", folder])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(Self.hazards(in: imported.standardOutput).isEmpty, "\(Self.hazards(in: imported.standardOutput))")
        let listed = try await ExampleProcess.run("photo-album", ["--store", store, "list"])
        #expect(Self.hazards(in: listed.standardOutput).isEmpty)
        #expect(listed.standardOutput.contains("\\u{1B}[2J\\u{9B}8m.jpg"))
        let json = try await ExampleProcess.run("photo-album", ["--store", store, "list", "--json"])
        #expect(Self.hazards(in: json.standardOutput).isEmpty, "JSON escapes C1 too")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: String]])
        #expect(rows.first?["name"] == Self.hostileName, "the JSON still carries the exact name")

        // An error line quoting the path.
        let fit = try await ExampleProcess.run("photo-fit", ["\(folder)/missing\u{1B}]52;c;AA\u{07}.jpg", "\(work)/out.jpg"])
        #expect(fit.status == 1)
        #expect(fit.standardError.hasPrefix("error: "))
        #expect(Self.hazards(in: fit.standardError).isEmpty, "\(fit.standardError.debugDescription)")
    }

    @Test("weibo-client escapes post texts, screen names, comments and server messages")
    func hostilePosts() async throws {
        let fake = try FakeWeiboServer()
        defer { fake.stop() }
        let store = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let environment = [
            "PHOTODECK_WEIBO_APP_KEY": FakeWeiboServer.appKey, "PHOTODECK_WEIBO_APP_SECRET": FakeWeiboServer.appSecret,
            "PHOTODECK_WEIBO_REDIRECT_URI": FakeWeiboServer.redirectURI,
        ]
        func client(_ arguments: [String]) async throws -> ExampleProcess.Result {
            try await ExampleProcess.run(
                "weibo-client", ["--api-base", fake.base.absoluteString, "--store", store] + arguments, environment: environment)
        }
        fake.addUser(uid: "1750000009", screenName: "evil\u{1B}]0;owned\u{07}\u{202E}name")
        let login = try await client(["login", "--code", fake.issueCode(for: "1750000009")])
        #expect(login.status == 0, "\(login.standardError)")
        #expect(Self.hazards(in: login.standardOutput).isEmpty, "\(login.standardOutput.debugDescription)")
        #expect(login.standardOutput.contains("evil\\u{1B}]0;owned\\u{07}\\u{202E}name"))

        let post = fake.addPosts(1, by: "1750000009", text: "line one\nclip\u{1B}]52;c;aGk=\u{07} \u{9D}0;x\u{9C} clear\u{1B}[2J")[0]
        for arguments in [["timeline"], ["timeline", "--json"], ["user", "1750000009"]] {
            let result = try await client(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(Self.hazards(in: result.standardOutput).isEmpty, "\(arguments): \(result.standardOutput.debugDescription)")
        }
        let timeline = try await client(["timeline"])
        #expect(timeline.standardOutput.contains("line one\n"), "a post's own line breaks are kept")
        #expect(timeline.standardOutput.contains("clip\\u{1B}]52;c;aGk=\\u{07}"))

        #expect(try await client(["comment", post, "bad\u{1B}[2Jcomment"]).status == 0)
        let comments = try await client(["comments", post])
        #expect(Self.hazards(in: comments.standardOutput).isEmpty, "\(comments.standardOutput.debugDescription)")
        #expect(comments.standardOutput.contains("bad\\u{1B}[2Jcomment"))

        // A server's error message, quoted on the error line.
        let missing = try await client(["comments", "4900000000999999\u{1B}]52;c;AA\u{07}"])
        #expect(missing.status == 1)
        #expect(Self.hazards(in: missing.standardError).isEmpty, "\(missing.standardError.debugDescription)")
    }
}

import Foundation
import ProviderTestSupport
import ShareKit
import Testing
import WeChatShare
import WeChatShareTesting

/// WeChat's iOS and Android SDKs take different messages and cap them
/// differently: each rule is checked against the platform the bridge says.
@Suite("WeChat: the rules of each platform's SDK")
struct WeChatPlatformRulesTests {
    static let page = URL(string: "https://example.com/p/42")!

    /// The violations of `message` on `platform` (the kinds tests' helper).
    static func violations(_ message: WeChatSendRequest.Message, _ platform: AppPlatform, scene: WeChatScene = .session) -> [ConstraintViolation] {
        WeChatMessageKindsTests.violations(message, scene: scene, platform: platform)
    }

    @Test("a mini program: Android needs its picture as thumbData (128 KB), iOS takes it as hdImageData or none; iOS caps the fallback URL at 1 KB")
    func miniProgram() {
        let bare = WeChatMiniProgram(userName: "gh_d43f693ca31f", webpageURL: Self.page)
        #expect(Self.violations(.miniProgram(bare), .iOS).isEmpty)
        #expect(Self.violations(.miniProgram(bare), .android) == [.fieldRequired(field: "WXMediaMessage.thumbData")])
        var pictured = bare
        pictured.hdImage = [UInt8](repeating: 1, count: 128 * 1_024)
        #expect(Self.violations(.miniProgram(pictured), .android).isEmpty && Self.violations(.miniProgram(pictured), .iOS).isEmpty)
        pictured.hdImage = [UInt8](repeating: 1, count: 128 * 1_024 + 1)
        #expect(
            Self.violations(.miniProgram(pictured), .android) == [
                .fieldTooLarge(field: "WXMediaMessage.thumbData", size: 128 * 1_024 + 1, limit: 128 * 1_024, unit: .bytes)
            ])
        // The old card's thumbnail stands in on Android when there is no HD picture.
        let carded = WeChatMiniProgram(userName: "gh_1", webpageURL: Self.page, card: WeChatCard(thumbnail: [1, 2, 3]))
        #expect(Self.violations(.miniProgram(carded), .android).isEmpty)
        let long = WeChatMiniProgram(userName: "gh_1", webpageURL: URL(string: "https://example.com/" + String(repeating: "a", count: 1_005))!)
        #expect(Self.violations(.miniProgram(long), .iOS) == [.fieldTooLarge(field: "WXMiniProgramObject.webpageUrl", size: 1_025, limit: 1_024, unit: .bytes)])
        #expect(Self.violations(.miniProgram(WeChatMiniProgram(userName: "gh_1", webpageURL: long.webpageURL, hdImage: [1])), .android).isEmpty)
    }

    @Test("a music video: iOS takes a 1 MB album picture and a 1 KB album name; Android needs the title and takes a 10 MB picture file")
    func musicVideo() {
        var song = WeChatMusicVideo(musicURL: Self.page, musicDataURL: Self.page, singerName: "歌手", card: WeChatCard(title: "歌"))
        song.hdAlbumThumbnail = [UInt8](repeating: 1, count: 1_048_577)
        #expect(
            Self.violations(.musicVideo(song), .iOS) == [
                .fieldTooLarge(field: "WXMusicVideoObject.hdAlbumThumbData", size: 1_048_577, limit: 1_048_576, unit: .bytes)
            ])
        #expect(Self.violations(.musicVideo(song), .android).isEmpty)
        song.hdAlbumThumbnail = nil
        song.albumName = String(repeating: "专", count: 342)  // 1,026 bytes, 342 UTF-16 units
        #expect(
            Self.violations(.musicVideo(song), .iOS) == [.fieldTooLarge(field: "WXMusicVideoObject.albumName", size: 1_026, limit: 1_024, unit: .bytes)])
        #expect(Self.violations(.musicVideo(song), .android).isEmpty)
        song.albumName = nil
        song.card.title = nil
        #expect(Self.violations(.musicVideo(song), .iOS).isEmpty)
        #expect(Self.violations(.musicVideo(song), .android) == [.fieldRequired(field: "WXMediaMessage.title")])
    }

    @Test("a video file goes to a chat from Android only: iOS's SDK has no WXVideoFileObject")
    func videoFile() {
        let message = WeChatSendRequest.Message.videoFile(path: "/tmp/share.mp4", thumbnail: nil)
        #expect(Self.violations(message, .android).isEmpty)
        let refused = Self.violations(message, .iOS)
        guard case .kindNotAccepted(_, _, let reason)? = refused.first, refused.count == 1 else {
            Issue.record("\(refused)")
            return
        }
        #expect(reason.contains("iOS SDK has no WXVideoFileObject"), "\(reason)")
        #expect(WeChatMessageKind.videoFile.acceptingScenes(on: .iOS).isEmpty && WeChatMessageKind.videoFile.limits(on: .iOS).isEmpty)
        #expect(WeChatSendRequest.constraints(for: .session, on: .iOS).videos == nil)
        #expect(WeChatSendRequest.constraints(for: .session, on: .android).videos?.maxBytes == 100 << 20)
    }

    @Test("text is counted as each SDK counts it: UTF-8 bytes on iOS, UTF-16 units on Android")
    func textUnits() {
        let chinese = String(repeating: "图", count: 10_240)  // 30,720 bytes, 10,240 units
        #expect(Self.violations(.text(chinese), .android).isEmpty)
        #expect(Self.violations(.text(chinese), .iOS) == [.fieldTooLarge(field: "SendMessageToWXReq.text", size: 30_720, limit: 10_240, unit: .bytes)])
        #expect(
            Self.violations(.text(chinese + "图"), .android) == [
                .fieldTooLarge(field: "WXTextObject.text", size: 10_241, limit: 10_240, unit: .characters)
            ])
        #expect(WeChatSendRequest.constraints(for: .session, on: .android).text?.counting == .utf16)
        #expect(WeChatSendRequest.constraints(for: .session, on: .iOS).text?.counting == .utf8Bytes)
    }

    @Test("Android hands a picture over 1 MB as a file (FileProvider), up to 25 MB; iOS takes 10 MB inline")
    func dataAsFile() throws {
        let small = try WeChatSendRequest(.image(data: [UInt8](repeating: 1, count: 1_048_576), thumbnail: nil), scene: .session, platform: .android)
        #expect(!small.dataGoesAsFile)
        let large = try WeChatSendRequest(.image(data: [UInt8](repeating: 1, count: 2 << 20), thumbnail: nil), scene: .session, platform: .android)
        #expect(large.dataGoesAsFile && large.platform == .android)
        let onIOS = try WeChatSendRequest(.image(data: [UInt8](repeating: 1, count: 2 << 20), thumbnail: nil), scene: .session, platform: .iOS)
        #expect(!onIOS.dataGoesAsFile)
        let huge = WeChatSendRequest.Message.image(data: [UInt8](repeating: 1, count: 11 << 20), thumbnail: nil)
        #expect(Self.violations(huge, .android).isEmpty)
        #expect(Self.violations(huge, .iOS) == [.fieldTooLarge(field: "WXImageObject.imageData", size: 11 << 20, limit: 10 << 20, unit: .bytes)])
    }

    @Test("the provider checks against the bridge's platform; Android's -6 (ERR_BAN) is the app's registration, said in words")
    func providerAndBan() async throws {
        let card = WeChatMiniProgram(userName: "gh_d43f693ca31f", webpageURL: Self.page)
        let android = FakeWeChatBridge(platform: .android)
        await #expect(throws: ShareError.self) { try await WeChatAppProvider(bridge: android).send(.miniProgram(card), to: .session) }
        #expect(android.requests.isEmpty, "refused before WeChat opens")
        let iOS = FakeWeChatBridge(platform: .iOS)
        _ = try await WeChatAppProvider(bridge: iOS).send(.miniProgram(card), to: .session)
        #expect(iOS.requests.first?.platform == .iOS)
        let banned = FakeWeChatBridge(answer: .errCode(-6, "signature mismatch"), platform: .android)
        do {
            _ = try await WeChatAppProvider(bridge: banned).send(.text("hi"), to: .session)
            Issue.record("-6 was not a failure")
        } catch {
            guard case .unavailable(let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.contains("ERR_BAN") && reason.contains("registered"), "\(reason)")
        }
    }

    @Test("every cap of both platforms says where it comes from")
    func sources() {
        for platform in AppPlatform.allCases {
            for kind in WeChatMessageKind.allCases {
                for limit in kind.limits(on: platform) where limit.limit != nil || limit.isRequired {
                    #expect(!limit.source.isEmpty, "\(platform) \(kind) \(limit.field)")
                }
            }
        }
        #expect(WeChatRules.iOS.thumbnail.source.contains("64 KB") && WeChatRules.iOS.image.source.contains("25 MB"))
    }
}

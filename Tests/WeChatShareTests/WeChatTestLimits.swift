import ProviderTestSupport
import WeChatShare

/// The iOS caps the WeChat tests were written against (``WeChatRules/iOS``),
/// and Android's video file, by the names the tests use.
enum WeChatTestLimits {
    static let rules = WeChatRules.iOS
    static let textBytes = rules.text.limit!
    static let titleBytes = rules.title.limit!
    static let descriptionBytes = rules.description.limit!
    static let thumbnailBytes = rules.thumbnail.limit!
    static let imageBytes = rules.image.limit!
    static let urlBytes = rules.webpageURL.limit!
    static let miniProgramURLBytes = rules.miniProgram[0].limit!
    static let videoFileBytes = WeChatRules.android.videoFile!.limit!
    static let miniProgramImageBytes = rules.miniProgram[3].limit!
    static let fileBytes = rules.file[0].limit!
    static let fileExtensionBytes = rules.file[1].limit!
    static let emoticonBytes = rules.emoticon.limit!
    static let musicVideoNameBytes = rules.musicVideo[2].limit!
    static let lyricBytes = rules.musicVideo[3].limit!
    static let albumImageBytes = rules.musicVideo[4].limit!
    static let messageExtBytes = rules.messageExt.limit!
}

/// The platform an app bridge hands off on. A vendor SDK's iOS and Android
/// builds take different messages and cap them differently (counting text
/// in UTF-8 bytes on iOS, UTF-16 code units on Android), so every rule of
/// an app provider is stated for one platform, and a bridge says which it is.
///
/// ```swift
/// let rules = WeChatRules.on(.android)   // imageData 1 MB inline, thumbData required for a mini program…
/// ```
public enum AppPlatform: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// iOS and iPadOS: the vendor's Objective-C SDK.
    case iOS = "ios"
    /// Android: the vendor's Java SDK.
    case android

    /// `iOS` or `Android`.
    public var description: String { self == .iOS ? "iOS" : "Android" }
}

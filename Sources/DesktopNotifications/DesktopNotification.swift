import SafeText
import SystemSupport

/// A desktop notification: a one-line summary and a body, as the
/// freedesktop.org notification specification shows them.
///
/// Text from outside (a post, a name) is made safe here, once: controls
/// and bidirectional overrides are written out as the terminal-safe rule
/// writes them (`\u{1B}`), the summary is one line, and the body's markup
/// characters (`&`, `<`, `>`, quotes) are escaped, so a post cannot bold,
/// link or hide text in a notification server that reads markup; both are
/// capped in length.
///
/// ```swift
/// let note = DesktopNotification(summary: "@Alice mentioned you", body: post.text)
/// try await DesktopNotifier().post(note)
/// ```
public struct DesktopNotification: Hashable, Sendable {
    /// The longest summary kept, in characters.
    public static let maxSummaryLength = 120
    /// The longest body kept, in characters.
    public static let maxBodyLength = 600

    /// How urgent: low, normal, critical (the `urgency` hint).
    public enum Urgency: UInt8, Hashable, Sendable {
        /// Low.
        case low = 0
        /// Normal.
        case normal = 1
        /// Critical: stays until dismissed on most servers.
        case critical = 2
    }

    /// The summary, one line of plain text (made safe).
    public let summary: String
    /// The body, with markup characters escaped (made safe).
    public let body: String
    /// The application's name the server shows.
    public var appName: String
    /// An icon name or `file://` URI (empty: none).
    public var icon: String
    /// How long it stays, in milliseconds; `-1` the server's default, `0` until dismissed.
    public var expireTimeout: Int32
    /// How urgent it is.
    public var urgency: Urgency

    /// Creates a notification from untrusted text, made safe.
    public init(summary: String, body: String, appName: String = "PhotoDeck", icon: String = "", expireTimeout: Int32 = -1, urgency: Urgency = .normal) {
        self.summary = CappedText.cut(TerminalText.safeLine(summary), to: Self.maxSummaryLength)
        self.body = MarkupText.escaped(CappedText.cut(TerminalText.safe(body), to: Self.maxBodyLength))
        self.appName = CappedText.cut(TerminalText.safeLine(appName), to: 64)
        self.icon = icon.unicodeScalars.allSatisfy({ !TerminalText.isUnsafe($0, keepingLineBreaks: false) }) ? String(icon.prefix(512)) : ""
        self.expireTimeout = max(expireTimeout, -1)
        self.urgency = urgency
    }
}

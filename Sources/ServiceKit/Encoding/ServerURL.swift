package import Foundation

/// URLs that a server's answer names (a picture, an avatar, a published
/// article): `http` or `https` with a host, nothing else. A `file:` URL in
/// a timeline would make a client read the user's own files; `javascript:`
/// or `data:` in a link would be worse. URLs the app itself passes (a
/// `file:` photo for the image loader) do not come through here.
///
/// ```swift
/// guard let picture = ServerURL.parse(text) else { throw mismatch("an http or https URL") }
/// ```
package enum ServerURL {
    /// `text` as a URL when it is `http` or `https` (any case) with a host;
    /// `nil` for anything else.
    package static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), isAllowed(url) else { return nil }
        return url
    }

    /// Whether `url` is `http` or `https` with a host.
    package static func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }
}

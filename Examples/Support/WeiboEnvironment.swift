package import Foundation

/// The Weibo app registration the examples read from the environment, in
/// one place for weibo-client and photo-share:
///
/// | variable | meaning |
/// |---|---|
/// | `PHOTODECK_WEIBO_APP_KEY` | the app key |
/// | `PHOTODECK_WEIBO_APP_SECRET` | the app secret (signing in) |
/// | `PHOTODECK_WEIBO_REDIRECT_URI` | the registered redirect URI (signing in) |
/// | `PHOTODECK_WEIBO_LINK` | a link on the app's safe domain, for `statuses/share` |
/// | `PHOTODECK_WEIBO_RIP` | the end user's IP address, sent as `rip` |
/// | `PHOTODECK_WEIBO_TOKEN` | an access token (photo-share) |
///
/// An empty variable counts as unset.
package struct WeiboEnvironment: Sendable {
    /// The link used when `PHOTODECK_WEIBO_LINK` is unset.
    package static let placeholderLink = URL(string: "https://photodeck.example/s")!

    package var appKey: String?
    package var appSecret: String?
    package var redirectURI: URL?
    /// `PHOTODECK_WEIBO_LINK`, else ``placeholderLink``.
    package var safeDomainLink: URL
    package var endUserIP: String?
    package var token: String?

    /// Reads the variables from `environment`.
    package init(_ environment: [String: String]) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        appKey = value("PHOTODECK_WEIBO_APP_KEY")
        appSecret = value("PHOTODECK_WEIBO_APP_SECRET")
        redirectURI = value("PHOTODECK_WEIBO_REDIRECT_URI").flatMap(URL.init(string:))
        safeDomainLink = value("PHOTODECK_WEIBO_LINK").flatMap(URL.init(string:)) ?? Self.placeholderLink
        endUserIP = value("PHOTODECK_WEIBO_RIP")
        token = value("PHOTODECK_WEIBO_TOKEN")
    }
}

public import Foundation

extension URL {
    /// This URL with `items` appended to its query, each name and value
    /// percent-encoded by ``URLEncodedForm/encode(_:)`` (everything but
    /// RFC 3986's unreserved characters, so `+`, `&`, `=` and spaces in a
    /// value arrive as sent): the one query encoder every client uses.
    ///
    /// ```swift
    /// let url = base.appending(path: "2/statuses/show.json").appendingQuery([("id", postID)])
    /// ```
    public func appendingQuery(_ items: [(String, String)]) -> URL {
        guard !items.isEmpty, var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
        let added = items.map { "\(URLEncodedForm.encode($0.0))=\(URLEncodedForm.encode($0.1))" }.joined(separator: "&")
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + added
        } else {
            components.percentEncodedQuery = added
        }
        return components.url ?? self
    }
}

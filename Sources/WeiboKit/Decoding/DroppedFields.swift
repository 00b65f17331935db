/// The optional fields of an answer that could not be read: each is left
/// out (its default taken, the item kept) and noted here, so that a page
/// says once what it lost. Only an item's identity (its id, its author)
/// costs the item.
struct DroppedFields {
    /// The most noted on one page; past it, fields are still dropped, not listed.
    static let maxListed = 100

    private(set) var errors: [WeiboDecodingError] = []

    /// The value `read` gives, or `fallback` (noted) when the field is not what Weibo documents.
    mutating func value<T>(or fallback: T, _ read: () throws(WeiboDecodingError) -> T) -> T {
        do {
            return try read()
        } catch {
            note(error)
            return fallback
        }
    }

    /// Notes a field left out.
    mutating func note(_ error: WeiboDecodingError) {
        if errors.count < Self.maxListed { errors.append(error) }
    }
}

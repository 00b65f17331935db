public import ImageCodecs

/// What a screen needs of a browser session at once, in one hop: where the
/// pager is, the shown photo and how it is turned for viewing. A value:
/// read it once per frame or command instead of asking the session for
/// each part (each ask is a hop to the session's actor).
///
/// ```swift
/// let now = await session.snapshot
/// draw(now.photo, page: now.pager.index + 1, of: now.pager.count)
/// ```
public struct BrowserSnapshot: Sendable {
    /// The pager: index, count, zoom, the rendition size.
    public let pager: BrowserPager
    /// The shown photo.
    public let photo: BrowserPhoto
    /// How the shown photo is turned or flipped for viewing (`.up`: as it is).
    public let orientation: ImageOrientation
    /// Which frame of its stack the page shows; `nil` when it is not a stack.
    public let stackPosition: StackPosition?

    /// Creates a snapshot.
    public init(pager: BrowserPager, photo: BrowserPhoto, orientation: ImageOrientation, stackPosition: StackPosition? = nil) {
        self.stackPosition = stackPosition
        self.pager = pager
        self.photo = photo
        self.orientation = orientation
    }
}

extension PhotoBrowserSession {
    /// The pager, the shown photo and its viewing orientation, together.
    public var snapshot: BrowserSnapshot { BrowserSnapshot(pager: pager, photo: currentPhoto, orientation: viewOrientation, stackPosition: stackPosition) }

    /// Shows the page at the pager's index again, clamped to what the
    /// collection holds now (after it changed); nothing when it is empty.
    public func reload() async throws {
        let count = await collectionCount
        guard count > 0 else { return }
        try await showPage(min(pager.index, count - 1))
    }
}

/// Photos shown as one page: a burst's frames, or the files of one shot
/// (RAW+JPEG, HEIC+JPEG). The page shows the cover; the other frames are a
/// vertical swipe away (``PhotoBrowserSession/showFrame(_:)``).
///
/// ```swift
/// let burst = BrowserStack(frames: frames, coverIndex: sharpest)!  // frames in capture order
/// let pages: [BrowserPhoto] = [before, burst.page, after]  // three pages, the burst one of them
/// ```
public struct BrowserStack: Hashable, Sendable {
    /// The frames, in capture order; at least one.
    public let frames: [BrowserPhoto]
    /// Which frame the page opens on (the stack's cover).
    public let coverIndex: Int

    /// A stack of `frames` opening on `coverIndex` (clamped to the frames);
    /// `nil` without frames. A frame's own stack is dropped: stacks do not nest.
    public init?(frames: [BrowserPhoto], coverIndex: Int = 0) {
        guard !frames.isEmpty else { return nil }
        self.frames = frames.map { $0.stack == nil ? $0 : $0.unstacked }
        self.coverIndex = min(max(coverIndex, 0), frames.count - 1)
    }

    /// The cover.
    public var cover: BrowserPhoto { frames[coverIndex] }

    /// The page for a collection: the cover, carrying the stack.
    public var page: BrowserPhoto {
        BrowserPhoto(id: cover.id, source: cover.source, displaySize: cover.displaySize, placeholder: cover.placeholder, motion: cover.motion, stack: self)
    }
}

/// Where a stack page stands: which of how many frames is shown.
public struct StackPosition: Hashable, Sendable {
    /// The shown frame (0 ..< ``count``).
    public let frame: Int
    /// How many frames the stack has.
    public let count: Int
    /// The frame the stack opens on.
    public let coverIndex: Int

    /// Whether the shown frame is the cover.
    public var isCover: Bool { frame == coverIndex }
}

extension BrowserPhoto {
    /// The same photo without its stack.
    var unstacked: BrowserPhoto {
        BrowserPhoto(id: id, source: source, displaySize: displaySize, placeholder: placeholder, motion: motion)
    }
}

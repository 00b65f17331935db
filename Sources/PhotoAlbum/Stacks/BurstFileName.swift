/// A phone's name for a frame of a burst: the shot's base, the frame's
/// number and whether the phone marked it as the burst's cover. The
/// patterns are those phones write (as immich-go reads them):
///
/// - Huawei: `IMG_20231014_101112_BURST001_COVER.jpg`
/// - Samsung: `20231014_101112_001.jpg` (the first frame the cover)
/// - Sony Xperia: `DSC_0001_BURST20231014101112123_COVER.JPG`
/// - Nexus and Pixel: `00000IMG_00000_BURST20231014101112_COVER.jpg`
struct BurstFileName: Hashable, Sendable {
    /// What every frame of the burst shares.
    let base: String
    /// The frame's number within the burst.
    let index: Int
    /// Whether the phone chose this frame as the cover.
    let isCover: Bool

    /// The burst frame `name` is, or `nil` when it is no burst's name.
    init?(_ name: String) {
        let stem = String(name.prefix { $0 != "." })
        let upper = stem.uppercased()
        let parts = upper.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        func digits(_ text: String, _ count: Int? = nil) -> Bool {
            !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } && (count == nil || text.count == count)
        }
        // Huawei: IMG_<8>_<6>_BURST<3>[_COVER]
        if parts.count >= 4, parts[0] == "IMG", digits(parts[1], 8), digits(parts[2], 6), parts[3].hasPrefix("BURST"),
            digits(String(parts[3].dropFirst(5)), 3), let index = Int(parts[3].dropFirst(5))
        {
            self.init(base: parts[0...2].joined(separator: "_"), index: index, isCover: parts.dropFirst(4).contains("COVER"))
            return
        }
        // Samsung: <8>_<6>_<3>
        if parts.count == 3, digits(parts[0], 8), digits(parts[1], 6), digits(parts[2], 3), let index = Int(parts[2]) {
            self.init(base: parts[0...1].joined(separator: "_"), index: index, isCover: index == 1)
            return
        }
        // Sony Xperia: DSC_<n>_BURST<digits>[COVER]; Nexus, Pixel: <n>IMG_<n>_BURST<digits>[_COVER]
        if let burst = parts.firstIndex(where: { $0.hasPrefix("BURST") }), burst >= 1 {
            let tail = parts[burst].dropFirst(5)
            let number = tail.prefix { $0.isASCII && $0.isNumber }
            guard number.count >= 8 else { return nil }
            let isCover = tail.dropFirst(number.count).contains("COVER") || parts.dropFirst(burst + 1).contains("COVER")
            let frame = parts[burst - 1]
            guard digits(frame) || frame.hasSuffix("IMG") else { return nil }
            // The frame number is before BURST; every frame shares the burst's time stamp.
            self.init(base: "BURST" + number, index: Int(frame.prefix(9).filter(\.isNumber)) ?? 0, isCover: isCover)
            return
        }
        return nil
    }

    init(base: String, index: Int, isCover: Bool) {
        self.base = base
        self.index = index
        self.isCover = isCover
    }
}

import CTurboJPEG

/// Lossless JPEG rotations and flips through TurboJPEG's `tjTransform`
/// (jpegtran's engine): the DCT blocks are moved, never decoded to pixels
/// and encoded again, so a rotated photo loses nothing.
///
/// ```swift
/// // A portrait phone photo (EXIF orientation 6) made upright, its tag reset to 1:
/// let upright = try JPEGTransform.applyingOrientation(of: photo)
/// // Rotated a quarter turn clockwise, GPS and serial numbers taken out:
/// let turned = try JPEGTransform.apply(.rotate90, to: photo, edges: .trim, metadata: .default)
/// ```
///
/// **Edges.** Blocks are moved whole, and JPEG stores a picture in blocks
/// of 8 or 16 pixels (its MCU). When a side is not a whole number of
/// blocks, the partial blocks on the right or bottom edge cannot go to
/// the top or left, where some transforms would put them. Like jpegtran,
/// PhotoDeck then does what ``Edges`` says: ``Edges/perfect`` refuses
/// (``ImageCore/ImageCodecError/unsupportedFeature(format:feature:)``, saying how many
/// pixels a trim would take), ``Edges/trim`` drops the partial blocks
/// (at most 15 pixels a side). Never a shifted or garbage edge. Which
/// transforms need which side whole: flips and 180° the side they mirror
/// (horizontal: width; vertical: height; 180°: both), 90° clockwise the
/// height, 270° the width, transverse both; transpose none.
///
/// The image's orientation tag says it is upright after
/// ``applyingOrientation(of:edges:metadata:)`` and after every
/// ``apply(_:to:edges:metadata:)`` (which applies the file's own orientation
/// first, then the operation, in one pass). Other metadata is kept as
/// `metadata` says (by default, all of it).
public enum JPEGTransform {
    /// A rotation or flip of the picture as shown.
    public enum Operation: Hashable, Sendable, CaseIterable {
        /// Mirror left to right.
        case flipHorizontal
        /// Mirror top to bottom.
        case flipVertical
        /// Mirror across the top-left to bottom-right diagonal.
        case transpose
        /// Mirror across the top-right to bottom-left diagonal.
        case transverse
        /// A quarter turn clockwise.
        case rotate90
        /// A half turn.
        case rotate180
        /// A quarter turn counter-clockwise.
        case rotate270
    }

    /// What to do with partial edge blocks (see ``JPEGTransform``).
    public enum Edges: Hashable, Sendable {
        /// Refuse a transform that would have to move partial blocks.
        case perfect
        /// Drop the partial blocks that would have to move (jpegtran `-trim`).
        case trim
    }

    /// `jpeg` turned upright losslessly, its orientation tag reset to 1;
    /// the same bytes (metadata rewritten as `metadata` says, ratings and
    /// tags included) when it is upright already.
    public static func applyingOrientation(
        of jpeg: [UInt8], edges: Edges = .perfect, metadata: MetadataPolicy = .keepAll
    ) throws(ImageCodecError) -> RewrittenImage {
        let orientation = try JPEGHeader(reading: MemoryByteSource(jpeg)).exif?.orientation ?? .up
        guard let operation = operation(undoing: orientation) else {
            return try metadata.settlingAnnotations(of: jpeg, in: try JPEGMetadata.rewrite(jpeg, policy: metadata))
        }
        return try metadata.settlingAnnotations(of: jpeg, in: try transform(jpeg, operation, edges: edges, metadata: metadata))
    }

    /// `jpeg` as shown (its orientation applied), then `operation`, in one
    /// lossless pass; its orientation tag says upright.
    public static func apply(
        _ operation: Operation, to jpeg: [UInt8], edges: Edges = .perfect, metadata: MetadataPolicy = .keepAll
    ) throws(ImageCodecError) -> RewrittenImage {
        let orientation = try JPEGHeader(reading: MemoryByteSource(jpeg)).exif?.orientation ?? .up
        let combined = Matrix(operation).times(Matrix(self.operation(undoing: orientation)))
        guard let single = combined.operation else {
            return try metadata.settlingAnnotations(of: jpeg, in: try JPEGMetadata.rewrite(jpeg, policy: metadata, orientation: .up))
        }
        return try metadata.settlingAnnotations(of: jpeg, in: try transform(jpeg, single, edges: edges, metadata: metadata))
    }

    /// The operation that turns a picture stored with `orientation` upright.
    public static func operation(undoing orientation: ImageOrientation) -> Operation? {
        switch orientation {
        case .up: nil
        case .upMirrored: .flipHorizontal
        case .down: .rotate180
        case .downMirrored: .flipVertical
        case .leftMirrored: .transpose
        case .right: .rotate90
        case .rightMirrored: .transverse
        case .left: .rotate270
        }
    }

    /// `stopsOnWarning`: a damaged scan is an error rather than grey blocks
    /// (for a gain map, which is left out rather than kept wrong).
    private static func transform(
        _ jpeg: [UInt8], _ operation: Operation, edges: Edges, metadata: MetadataPolicy, stopsOnWarning: Bool = false
    ) throws(ImageCodecError) -> RewrittenImage {
        let layout = try JPEGLayout(jpeg)
        // TurboJPEG decodes every scan's coefficients: the decoder's scan budget first.
        try layout.checkScanBudget(jpeg)
        let header = try JPEGHeader(reading: MemoryByteSource(jpeg))
        try header.checkSupported()
        if case .present(let ultraHDR) = UltraHDRJPEG.find(in: jpeg, layout: layout) {
            // The photo turned alone, its gain map turned the same way.
            return try ultraHDR.rebuilding(
                jpeg, policy: metadata,
                change: { (photo) throws(ImageCodecError) in try transform(photo, operation, edges: edges, metadata: metadata) },
                mapChange: { (map, turned) throws(ImageCodecError) in
                    try transformedMap(map, operation, photo: header.size, turned: try JPEGHeader(reading: MemoryByteSource(turned)).size)
                })
        }
        guard let handle = tjInitTransform() else { throw .corrupt(format: .jpeg, message: "could not create a TurboJPEG transformer") }
        defer { tjDestroy(handle) }
        var request = tjtransform(
            r: tjregion(x: 0, y: 0, w: 0, h: 0), op: Int32(operation.turboJPEG.rawValue),
            options: TJXOPT_COPYNONE | (edges == .perfect ? TJXOPT_PERFECT : TJXOPT_TRIM), data: nil, customFilter: nil)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status = jpeg.withUnsafeBufferPointer { input in
            tjTransform(
                handle, input.baseAddress, UInt(input.count), 1, &output, &outputSize, &request,
                TJFLAG_LIMITSCANS | (stopsOnWarning ? TJFLAG_STOPONWARNING : 0))
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            let message = String(cString: tjGetErrorStr2(handle))
            if message.contains("not perfect") {
                throw .unsupportedFeature(format: .jpeg, feature: imperfection(operation, header: header))
            }
            throw .corrupt(format: .jpeg, message: message)
        }
        let transformed = Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
        // The kept metadata of the original, orientation reset, in place of TurboJPEG's own APP0/APP14.
        let (kept, removed) = JPEGMetadata.keptMetadata(jpeg, layout: layout, policy: metadata, orientation: .up)
        let carried = kept.filter { !($0[1] == 0xE0 || $0[1] == 0xEE) }
        return RewrittenImage(bytes: try splice(carried, into: transformed), format: .jpeg, removed: removed)
    }

    /// A gain map's JPEG given the `operation` its photo had: losslessly
    /// when the photo lost no edge and the map's blocks move whole; else
    /// decoded, cropped as the photo's edges were trimmed (at the map's
    /// scale), turned and encoded again at quality 95, so that map and
    /// photo still cover the same scene.
    static func transformedMap(_ map: [UInt8], _ operation: Operation, photo stored: PixelSize, turned: PixelSize) throws(ImageCodecError) -> [UInt8] {
        let swaps = operation.swapsSides
        let kept = swaps ? PixelSize(width: turned.height, height: turned.width) : turned
        guard kept.width > 0, kept.height > 0, kept.width <= stored.width, kept.height <= stored.height else {
            throw .corrupt(format: .jpeg, message: "the turned photo (\(turned)) does not come from the photo (\(stored))")
        }
        if kept == stored, let lossless = try? transform(map, operation, edges: .perfect, metadata: .strict, stopsOnWarning: true) {
            return lossless.bytes
        }
        let decoded = try JPEGCodec().decode(map, options: DecodeOptions(appliesOrientation: false, colorHandling: .preserve))
        guard decoded.warnings.isEmpty else { throw .corrupt(format: .jpeg, message: "the gain map is damaged: \(decoded.warnings[0])") }
        var bitmap = decoded.bitmap
        if kept != stored {
            bitmap = try bitmap.cropped(x: 0, y: 0, size: GainMapGeometry.scaled(bitmap.size, by: kept, over: stored, within: bitmap.size))
        }
        guard let orientation = ImageOrientation.allCases.first(where: { self.operation(undoing: $0) == operation }) else { return map }
        return try JPEGCodec().encode(bitmap.oriented(orientation), options: EncodeOptions(quality: 95))
    }

    /// `segments` placed after SOI and the APP0/APP14 segments TurboJPEG wrote.
    private static func splice(_ segments: [[UInt8]], into jpeg: [UInt8]) throws(ImageCodecError) -> [UInt8] {
        let layout = try JPEGLayout(jpeg)
        var insertAt = 2
        for piece in layout.pieces {
            guard case .segment(let marker, let range) = piece, marker == 0xE0 || marker == 0xEE else { break }
            insertAt = range.upperBound
        }
        var result = Array(jpeg[..<insertAt])
        for segment in segments { result += segment }
        return result + jpeg[insertAt...]
    }

    /// Why `operation` is not perfect for this picture, and what a trim would take.
    private static func imperfection(_ operation: Operation, header: JPEGHeader) -> String {
        let size = header.size
        // The MCU is 8 pixels, or 16 along a subsampled direction.
        let block = (width: header.maxHorizontalSampling * 8, height: header.maxVerticalSampling * 8)
        let right = size.width % block.width
        let bottom = size.height % block.height
        var edges: [String] = []
        if operation.needsWholeWidth && right != 0 { edges.append("its right \(right) pixels are a partial block") }
        if operation.needsWholeHeight && bottom != 0 { edges.append("its bottom \(bottom) pixels are a partial block") }
        return "a lossless \(operation) of a \(size) JPEG (\(block.width)x\(block.height) blocks): \(edges.joined(separator: " and ")); "
            + "JPEGTransform.Edges.trim drops them, or decode and re-encode it"
    }
}

extension JPEGTransform.Operation: CustomStringConvertible {
    public var description: String {
        switch self {
        case .flipHorizontal: "horizontal flip"
        case .flipVertical: "vertical flip"
        case .transpose: "transpose"
        case .transverse: "transverse"
        case .rotate90: "90° rotation"
        case .rotate180: "180° rotation"
        case .rotate270: "270° rotation"
        }
    }

    var turboJPEG: TJXOP {
        switch self {
        case .flipHorizontal: TJXOP_HFLIP
        case .flipVertical: TJXOP_VFLIP
        case .transpose: TJXOP_TRANSPOSE
        case .transverse: TJXOP_TRANSVERSE
        case .rotate90: TJXOP_ROT90
        case .rotate180: TJXOP_ROT180
        case .rotate270: TJXOP_ROT270
        }
    }

    /// Whether the operation swaps width and height.
    var swapsSides: Bool { [.transpose, .transverse, .rotate90, .rotate270].contains(self) }

    /// Whether the operation moves the right edge (so the width must be whole blocks).
    var needsWholeWidth: Bool { [.flipHorizontal, .rotate180, .rotate270, .transverse].contains(self) }
    /// Whether it moves the bottom edge.
    var needsWholeHeight: Bool { [.flipVertical, .rotate180, .rotate90, .transverse].contains(self) }
}

extension JPEGTransform {
    /// An operation as the 2x2 matrix it applies to (x, y) about the centre,
    /// so that two compose into one: `[a b; c d]`.
    struct Matrix: Equatable {
        let a: Int, b: Int, c: Int, d: Int

        init(a: Int, b: Int, c: Int, d: Int) {
            (self.a, self.b, self.c, self.d) = (a, b, c, d)
        }

        init(_ operation: Operation?) {
            switch operation {
            case nil: self.init(a: 1, b: 0, c: 0, d: 1)
            case .flipHorizontal?: self.init(a: -1, b: 0, c: 0, d: 1)
            case .flipVertical?: self.init(a: 1, b: 0, c: 0, d: -1)
            case .transpose?: self.init(a: 0, b: 1, c: 1, d: 0)
            case .transverse?: self.init(a: 0, b: -1, c: -1, d: 0)
            // y points down: a clockwise quarter turn takes (x, y) to (-y, x).
            case .rotate90?: self.init(a: 0, b: -1, c: 1, d: 0)
            case .rotate180?: self.init(a: -1, b: 0, c: 0, d: -1)
            case .rotate270?: self.init(a: 0, b: 1, c: -1, d: 0)
            }
        }

        /// `self` after `other` (apply `other` first).
        func times(_ other: Matrix) -> Matrix {
            Matrix(a: a * other.a + b * other.c, b: a * other.b + b * other.d, c: c * other.a + d * other.c, d: c * other.b + d * other.d)
        }

        /// The single operation this is; `nil` for the identity.
        var operation: Operation? {
            Operation.allCases.first { Matrix($0) == self }
        }
    }
}

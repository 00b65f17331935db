public import ImageCodecs

/// A photo or video the user picked: a light handle that reads and decodes
/// only when asked, at the size asked.
public struct PickedAsset: Sendable, Identifiable {
    /// The asset's identifier in its source (a library path, a capture name).
    public let id: String
    /// What its header says.
    public let info: ImageInfo
    /// The crop chosen while editing, in oriented pixels; `nil` when editing was off.
    public let crop: CropRect?
    /// What it shows: a still, a video, a Live Photo (with its motion's
    /// path) or a Motion Photo.
    public let media: AssetMedia
    /// The file it is in, when it is one (a library's asset; a capture has
    /// none): a video is copied from here, never read whole.
    public let path: String?
    /// The ids of the frames this photo stands for when the picker offered
    /// a burst or pair by its cover (``PickerConfiguration/stacks``), in
    /// shot order, this one among them; empty for a photo on its own.
    public internal(set) var stackFrames: [String] = []
    private let load: @Sendable () throws(ImageCodecError) -> [UInt8]

    /// Creates a handle. `load` returns the encoded bytes when needed (a
    /// video's file is read from `path` instead).
    public init(
        id: String, info: ImageInfo, crop: CropRect? = nil, media: AssetMedia = .photo, path: String? = nil,
        load: @escaping @Sendable () throws(ImageCodecError) -> [UInt8]
    ) {
        self.id = id
        self.info = info
        self.crop = crop
        self.media = media
        self.path = path
        self.load = load
    }

    /// The same photo with `crop` as its edit.
    func withCrop(_ crop: CropRect?) -> PickedAsset {
        var asset = PickedAsset(id: id, info: info, crop: crop, media: media, path: path, load: load)
        asset.stackFrames = stackFrames
        return asset
    }

    /// The encoded original.
    public func encodedData() throws(ImageCodecError) -> [UInt8] { try load() }

    /// The encoded photo to hand to sharing or to save elsewhere: the same
    /// compressed pixels with only the metadata `policy` keeps (by default
    /// no location and nothing identifying). A format whose container cannot
    /// be rewritten in place (HEIC, AVIF) is handed over as it is only under
    /// ``ImageCore/MetadataPolicy/keepAll``; otherwise this throws and the
    /// caller re-encodes (ShareKit's adaptation does).
    ///
    /// ```swift
    /// let bytes = try picked.encodedData(keeping: .default)   // GPS and serial numbers gone
    /// ```
    public func encodedData(keeping policy: MetadataPolicy) throws(ImageCodecError) -> [UInt8] {
        try policy.rewriting(try load()).bytes
    }

    /// The whole photo, upright, fitted into `box` (full size when `nil`).
    public func image(fitting box: PixelSize? = nil) throws(ImageCodecError) -> Bitmap {
        let bytes = try load()
        if let box { return try DecodedImage(rendering: bytes, in: box).bitmap }
        return try DecodedImage(decoding: bytes).bitmap
    }

    /// The edited photo: the crop applied to the upright image, fitted into
    /// `box` (the crop's full resolution when `nil`). `nil` when editing was off.
    public func editedImage(fitting box: PixelSize? = nil) throws(ImageCodecError) -> Bitmap? {
        guard let crop else { return nil }
        let oriented = info.orientedSize
        // Decode only as many pixels as the cropped result needs.
        let scale = box.map { min(1, min(Double($0.width) / Double(crop.width), Double($0.height) / Double(crop.height))) } ?? 1
        let needed = oriented.scaled(by: scale)
        let decoded = try DecodedImage(decoding: try load(), options: DecodeOptions(targetSize: .fitting(needed))).bitmap
        let factorX = Double(decoded.width) / Double(oriented.width)
        let factorY = Double(decoded.height) / Double(oriented.height)
        let scaledCrop = PixelSize(
            width: max(1, Int((Double(crop.width) * factorX).rounded())), height: max(1, Int((Double(crop.height) * factorY).rounded()))
        )
        let cropped = try decoded.cropped(x: Int((Double(crop.x) * factorX).rounded()), y: Int((Double(crop.y) * factorY).rounded()), size: scaledCrop)
        let target = box.map { crop.size.fitting(in: $0) } ?? crop.size
        return cropped.size == target ? cropped : cropped.resized(to: target)
    }
}

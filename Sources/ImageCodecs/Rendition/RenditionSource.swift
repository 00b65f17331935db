/// Something that makes the renditions of one image whose bytes are not a
/// file or in memory: a photo on the network (ImageLoading's
/// `RemoteImage`), a camera roll's asset. The plug-in point through which
/// a photo browser shows such photos without importing what fetches them.
///
/// ```swift
/// struct AssetImage: RenditionSource {
///     let asset: String
///     var identity: String { "asset:\(asset)" }
///     func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
///         try await ImageWorkers.shared.run { try DecodedImage(rendering: bytes(of: asset), in: size, mode: .fit, options: options).bitmap }
///     }
/// }
/// ```
public protocol RenditionSource: Sendable {
    /// A stable identity of the image (its URL): two sources with the same
    /// identity make the same renditions.
    var identity: String { get }
    /// The upright rendition that fits `size` (never larger), made with
    /// `options`. Blocking work runs off Swift's cooperative pool (on
    /// ``ImageWorkers``); a task of `.utility` priority or lower asks for
    /// a prefetch.
    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap
    /// ``rendition(fitting:options:)``, handing `interim` coarser
    /// pictures of the image while the rendition is made (a progressive
    /// JPEG's previews while it downloads), in order, each from more of
    /// the image than the last, every one before the rendition returns.
    /// Each is at most `size`, possibly smaller: draw it scaled into the
    /// rendition's place. A source that has none calls `interim` never
    /// (the default implementation).
    func rendition(fitting size: PixelSize, options: RenditionOptions, interim: @escaping @Sendable (Bitmap) async -> Void) async throws -> Bitmap
}

extension RenditionSource {
    /// Makes the rendition without interim pictures.
    public func rendition(
        fitting size: PixelSize, options: RenditionOptions, interim: @escaping @Sendable (Bitmap) async -> Void
    ) async throws -> Bitmap {
        try await rendition(fitting: size, options: options)
    }
}

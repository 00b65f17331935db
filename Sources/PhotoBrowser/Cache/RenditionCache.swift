public import ImageCodecs

/// The byte-bounded cache of decoded renditions now lives in ImageCodecs
/// (``ImageCodecs/RenditionCache``), where ImageLoading shares it; the name
/// stays here so code that imports only PhotoBrowser keeps compiling.
public typealias RenditionCache = ImageCodecs.RenditionCache

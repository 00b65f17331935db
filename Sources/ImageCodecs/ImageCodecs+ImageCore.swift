// ImageCodecs re-exports the vocabulary it decodes into, so `import
// ImageCodecs` alone names `PixelSize`, `Bitmap` and `ImageFormat` as
// before; a module that only names images imports ImageCore instead.
@_exported public import ImageCore

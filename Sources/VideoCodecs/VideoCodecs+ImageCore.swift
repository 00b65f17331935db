// VideoCodecs speaks ImageCore's vocabulary (Bitmap, PixelSize, CaptureDate,
// GeoLocation): a caller that imports VideoCodecs has it too.
@_exported public import ImageCore

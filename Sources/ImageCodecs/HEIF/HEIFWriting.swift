import CHeif

/// The bytes of a HEIF file libheif holds in a context, collected through
/// its writer callback (the one copy: the AVIF encoder and the tests'
/// HEIF writer both use it).
package enum HEIFWriting {
    package static func bytes(of context: OpaquePointer) throws(ImageCodecError) -> [UInt8] {
        final class Sink {
            var bytes: [UInt8] = []
        }
        let sink = Sink()
        var writer = heif_writer(
            writer_api_version: 1,
            write: { _, data, size, userdata in
                if let data, let userdata {
                    Unmanaged<Sink>.fromOpaque(userdata).takeUnretainedValue().bytes += UnsafeRawBufferPointer(start: data, count: size)
                }
                return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
            })
        let status = withExtendedLifetime(sink) { heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()) }
        guard status.code == heif_error_Ok else {
            throw .encodingFailed(
                format: .avif, message: "libheif could not write the file: \(status.message.map { String(cString: $0) } ?? "error \(status.code.rawValue)")")
        }
        return sink.bytes
    }
}

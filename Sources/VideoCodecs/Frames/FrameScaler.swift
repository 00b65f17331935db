import CFFmpeg
import CVideoShim
import ImageCore

/// Decoded frames to upright 8-bit sRGB at a chosen size, through one
/// libavfilter graph: `scale` (swscale, with the frame's own colour matrix
/// and range), the turn and mirror of the display matrix (`transpose`,
/// `hflip`, `vflip`, as ffmpeg's autorotate inserts them) on the already
/// small frame, then `format=rgb24`. An HDR frame (PQ, HLG) comes out of
/// the graph as 16-bit RGB still in its transfer and primaries, and is
/// tone-mapped to sRGB by ``HDRToneMap`` (the rule HEIC and AVIF pictures
/// follow) on the small frame.
final class FrameScaler {
    private let av: pd_ffmpeg
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let output: UnsafeMutablePointer<AVFrame>
    /// The input shape the graph was built for.
    let inputWidth: Int32, inputHeight: Int32, inputFormat: Int32
    /// The upright size frames come out at.
    let size: PixelSize
    /// The tone map of an HDR stream; `nil` for SDR.
    let toneMap: HDRToneMap?

    /// A graph for frames shaped like `frame`, giving `size` upright
    /// (`size` is after the turn: a quarter turn scales to its transpose).
    init(
        _ av: pd_ffmpeg, for frame: UnsafePointer<AVFrame>, timeBase: AVRational, size: PixelSize, rotation: Int, mirrored: Bool, toneMap: HDRToneMap? = nil
    ) throws(VideoError) {
        inputWidth = frame.pointee.width
        inputHeight = frame.pointee.height
        inputFormat = frame.pointee.format
        self.size = size
        self.toneMap = toneMap
        let aspect = frame.pointee.sample_aspect_ratio
        let base = timeBase.num > 0 && timeBase.den > 0 ? timeBase : AVRational(num: 1, den: 90_000)
        let square = aspect.num > 0 && aspect.den > 0
        let bufferArguments =
            "video_size=\(inputWidth)x\(inputHeight):pix_fmt=\(inputFormat):time_base=\(base.num)/\(base.den)"
            + ":pixel_aspect=\(square ? aspect.num : 1)/\(square ? aspect.den : 1)"
        let quarter = rotation % 180 != 0
        let scaled = quarter ? PixelSize(width: size.height, height: size.width) : size
        // Area averaging for reductions (every source pixel counts), bicubic otherwise: ffmpeg's default,
        // whose frames these match (accurate_rnd alone moves testsrc2's saturated edges by 35 dB PSNR).
        let reduces = scaled.width * 2 <= Int(inputWidth) || scaled.height * 2 <= Int(inputHeight)
        var steps: [(name: String, arguments: String?)] = [
            ("scale", "w=\(scaled.width):h=\(scaled.height):flags=\(reduces ? "area" : "bicubic")")
        ]
        if mirrored { steps.append(("hflip", nil)) }
        switch rotation {
        case 90: steps.append(("transpose", "dir=clock"))
        case 180: steps += [("hflip", nil), ("vflip", nil)]
        case 270: steps.append(("transpose", "dir=cclock"))
        default: break
        }
        steps.append(("format", toneMap == nil ? "pix_fmts=rgb24" : "pix_fmts=rgb48le"))
        guard let graph = av.avfilter_graph_alloc() else { throw .corrupt(message: "FFmpeg could not allocate a filter graph") }
        graph.pointee.nb_threads = 1
        let ends: (source: UnsafeMutablePointer<AVFilterContext>, sink: UnsafeMutablePointer<AVFilterContext>)
        do {
            ends = try Self.build(av, graph, buffer: bufferArguments, steps: steps)
        } catch {
            var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
            av.avfilter_graph_free(&owned)
            throw error
        }
        guard let output = av.av_frame_alloc() else {
            var owned: UnsafeMutablePointer<AVFilterGraph>? = graph
            av.avfilter_graph_free(&owned)
            throw .corrupt(message: "FFmpeg could not allocate a frame")
        }
        self.av = av
        self.graph = graph
        source = ends.source
        sink = ends.sink
        self.output = output
    }

    private static func build(
        _ av: pd_ffmpeg, _ graph: UnsafeMutablePointer<AVFilterGraph>, buffer: String, steps: [(name: String, arguments: String?)]
    ) throws(VideoError) -> (source: UnsafeMutablePointer<AVFilterContext>, sink: UnsafeMutablePointer<AVFilterContext>) {
        let source = try add(av, graph, "buffer", "in", buffer)
        var last = source
        for (index, step) in steps.enumerated() {
            let next = try add(av, graph, step.name, "step\(index)", step.arguments)
            try link(av, last, next)
            last = next
        }
        let sink = try add(av, graph, "buffersink", "out", nil)
        try link(av, last, sink)
        let configured = av.avfilter_graph_config(graph, nil)
        guard configured >= 0 else { throw .corrupt(message: "the frame converter: \(VideoInput.text(configured))") }
        return (source, sink)
    }

    deinit {
        av.avfilter_graph_free(&graph)
        var output: UnsafeMutablePointer<AVFrame>? = output
        av.av_frame_free(&output)
    }

    /// Whether frames shaped like `frame` fit this graph (a stream may change size midway).
    func accepts(_ frame: UnsafePointer<AVFrame>) -> Bool {
        frame.pointee.width == inputWidth && frame.pointee.height == inputHeight && frame.pointee.format == inputFormat
    }

    /// `frame` upright at ``size``, as 8-bit RGB.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> Bitmap {
        let added = av.av_buffersrc_add_frame_flags(source, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard added >= 0 else { throw .corrupt(message: "the frame converter refused a frame: \(VideoInput.text(added))") }
        let got = av.av_buffersink_get_frame(sink, output)
        guard got >= 0 else { throw .corrupt(message: "the frame converter gave no frame: \(VideoInput.text(got))") }
        defer { av.av_frame_unref(output) }
        let width = Int(output.pointee.width)
        let height = Int(output.pointee.height)
        let stride = Int(output.pointee.linesize.0)
        let sampleBytes = toneMap == nil ? 1 : 2
        guard width == size.width, height == size.height, stride >= width * 3 * sampleBytes, let plane = output.pointee.data.0 else {
            throw .corrupt(message: "the frame converter gave \(width)x\(height), not \(size)")
        }
        let rowBytes = width * 3
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        pixels.withUnsafeMutableBufferPointer { destination in
            for row in 0..<height {
                let source = plane + row * stride
                let target = destination.baseAddress! + row * rowBytes
                if let toneMap {
                    toneMap.map(width, channels: 3, into: target) { index in Int(source[index * 2]) | Int(source[index * 2 + 1]) << 8 }
                } else {
                    target.update(from: source, count: rowBytes)
                }
            }
        }
        do {
            return try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        } catch {
            throw .corrupt(message: "\(error)")
        }
    }

    private static func add(
        _ av: pd_ffmpeg, _ graph: UnsafeMutablePointer<AVFilterGraph>, _ name: String, _ label: String, _ arguments: String?
    ) throws(VideoError) -> UnsafeMutablePointer<AVFilterContext> {
        var context: UnsafeMutablePointer<AVFilterContext>? = nil
        let result = av.avfilter_graph_create_filter(&context, av.avfilter_get_by_name(name), label, arguments, nil, graph)
        guard result >= 0, let context else { throw .corrupt(message: "the frame converter's \(name): \(VideoInput.text(result))") }
        return context
    }

    private static func link(_ av: pd_ffmpeg, _ from: UnsafeMutablePointer<AVFilterContext>, _ to: UnsafeMutablePointer<AVFilterContext>) throws(VideoError) {
        let result = av.avfilter_link(from, 0, to, 0)
        guard result >= 0 else { throw .corrupt(message: "the frame converter's link: \(VideoInput.text(result))") }
    }
}

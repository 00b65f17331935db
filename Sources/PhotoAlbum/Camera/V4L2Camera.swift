#if os(Linux) && !PHOTODECK_NO_LINUX_APIS
    // Linux only (V4L2). Elsewhere CameraSource.systemProvider has no cameras;
    // `make check-portable` builds without this file to prove that path compiles.

    import CV4L2
    import ImageCodecs
    import SystemSupport

    /// Linux cameras through Video4Linux2: `/dev/video*` nodes, named from
    /// sysfs, queried with `VIDIOC_QUERYCAP`, captured with mmap streaming
    /// (MJPEG preferred, YUYV converted and encoded as JPEG).
    ///
    /// Where there is no device (a server, CI) ``devices()`` is empty and
    /// ``CameraSource`` reports the camera unavailable.
    public struct V4L2Camera: CaptureDeviceProvider {
        /// What ``devices()`` learns from a node; replaceable in tests.
        public struct NodeCapabilities: Sendable {
            /// Whether the node captures video (rather than metadata, output...).
            public var canCapture: Bool
            /// The driver's card name.
            public var card: String

            /// Creates a description.
            public init(canCapture: Bool, card: String) {
                self.canCapture = canCapture
                self.card = card
            }
        }

        /// Where device nodes are (`/dev`).
        public let deviceRoot: String
        /// Where V4L2's sysfs entries are (`/sys/class/video4linux`).
        public let sysfsRoot: String
        private let query: @Sendable (String) -> Result<NodeCapabilities, CameraError>

        /// Creates the backend. `query` defaults to `VIDIOC_QUERYCAP` on the node.
        public init(
            deviceRoot: String = "/dev", sysfsRoot: String = "/sys/class/video4linux",
            query: (@Sendable (String) -> Result<NodeCapabilities, CameraError>)? = nil
        ) {
            self.deviceRoot = deviceRoot
            self.sysfsRoot = sysfsRoot
            self.query = query ?? Self.queryNode
        }

        /// `VIDIOC_QUERYCAP` on a character device node.
        public static func queryNode(_ path: String) -> Result<NodeCapabilities, CameraError> {
            do {
                guard try FileSystem.status(of: path).kind == .characterDevice else {
                    return .failure(.captureFailed(device: path, reason: "not a character device"))
                }
            } catch {
                return .failure(.captureFailed(device: path, reason: error.reason))
            }
            var capabilities = pd_v4l2_info()
            var error = [CChar](repeating: 0, count: 256)
            guard pd_v4l2_query(path, &capabilities, &error, error.count) == 0 else {
                return .failure(.captureFailed(device: path, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            }
            let card = withUnsafeBytes(of: capabilities.card) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .success(NodeCapabilities(canCapture: capabilities.can_capture != 0, card: card))
        }

        public func devices() -> [CaptureDeviceInfo] {
            let nodes = DurableFiles.names(in: deviceRoot).filter { name in
                name.hasPrefix("video") && name.dropFirst(5).allSatisfy(\.isNumber) && name.count > 5
            }.sorted { Int($0.dropFirst(5)) ?? 0 < Int($1.dropFirst(5)) ?? 0 }
            return nodes.compactMap { node in
                let path = "\(deviceRoot)/\(node)"
                let sysfsName = (try? DurableFiles.read("\(sysfsRoot)/\(node)/name")).map {
                    String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                }
                switch query(path) {
                case .success(let capabilities):
                    // Metadata and output nodes of the same camera are not cameras.
                    guard capabilities.canCapture else { return nil }
                    let name = sysfsName ?? capabilities.card
                    return CaptureDeviceInfo(id: path, name: name, position: Self.position(forName: name))
                case .failure(let error):
                    let name = sysfsName ?? node
                    let reason: String
                    if case .captureFailed(_, let text) = error { reason = "\(path): \(text)" } else { reason = "\(error)" }
                    return CaptureDeviceInfo(id: path, name: name, position: Self.position(forName: name), problem: reason)
                }
            }
        }

        /// Which way a camera faces, from words drivers put in names.
        static func position(forName name: String) -> CameraPosition {
            let lowered = name.lowercased()
            if ["front", "user-facing", "user facing", "selfie"].contains(where: lowered.contains) { return .front }
            if ["rear", "back", "world-facing", "world facing"].contains(where: lowered.contains) { return .rear }
            return .external
        }

        public func captureStill(from id: String, near width: Int, _ height: Int) async throws(CameraError) -> [UInt8] {
            var frame = pd_v4l2_frame()
            var error = [CChar](repeating: 0, count: 256)
            guard pd_v4l2_capture(id, UInt32(clamping: width), UInt32(clamping: height), 3, 2_000, &frame, &error, error.count) == 0,
                let data = frame.data
            else {
                throw .captureFailed(device: id, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            defer { pd_v4l2_free_frame(&frame) }
            let bytes = Array(UnsafeBufferPointer(start: data, count: frame.size))
            return try Self.encodedImage(
                fromFrame: bytes, fourcc: frame.fourcc, width: Int(frame.width), height: Int(frame.height),
                bytesPerRow: Int(frame.bytes_per_line), device: id
            )
        }

        /// Turns a raw frame into a JPEG: MJPEG frames are checked and kept
        /// (libjpeg-turbo supplies the Huffman tables webcams leave out); YUYV
        /// frames are converted and encoded.
        public static func encodedImage(fromFrame bytes: [UInt8], fourcc: UInt32, width: Int, height: Int, bytesPerRow: Int, device: String) throws(CameraError)
            -> [UInt8]
        {
            do {
                if fourcc == pd_v4l2_fourcc_mjpeg {
                    _ = try DecodedImage(decoding: bytes, options: DecodeOptions(targetSize: .maxDimension(64)))
                    return bytes
                }
                guard fourcc == pd_v4l2_fourcc_yuyv else {
                    throw CameraError.badFrame(device: device, reason: "unexpected pixel format 0x\(String(fourcc, radix: 16))")
                }
                let bitmap = try YUYVConversion.rgbBitmap(fromYUYV: bytes, width: width, height: height, bytesPerRow: bytesPerRow > 0 ? bytesPerRow : nil)
                return try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 92))
            } catch let error as CameraError {
                throw error
            } catch {
                throw .badFrame(device: device, reason: "\(error)")
            }
        }

        /// The MJPEG fourcc, `'MJPG'`.
        public static var mjpegFourCC: UInt32 { pd_v4l2_fourcc_mjpeg }
        /// The YUYV fourcc, `'YUYV'`.
        public static var yuyvFourCC: UInt32 { pd_v4l2_fourcc_yuyv }
    }
#endif

import ExampleSupport
import Foundation
import ImageCodecs

/// `photo-fit --gain-map-info [--json] INPUT`: the gain map an HDR photo
/// carries, or that it has none, or why the one it names cannot be used.
enum GainMapInfo {
    /// The largest photo read for its gain map: 256 MiB.
    static let limit = 256 << 20

    /// The report's line; as JSON it is printed here (C1 controls and
    /// bidirectional marks escaped the JSON way) and `nil` is returned.
    static func report(_ path: String, json: Bool) throws(CLIError) -> String? {
        let bytes = try readInputFile(path, limit: limit)
        let found = Found(bytes)
        guard json else { return Self.text(found, path: path) }
        Console.json(Self.json(found))
        return nil
    }

    /// What the file says of its gain map, in the report's terms.
    enum Found {
        /// No map claimed; `read` says whether the file was a kind whose maps are read.
        case absent(read: Bool)
        case unusable(String)
        /// The map, and its encoded bytes when the container has them apart (Ultra HDR).
        case present(GainMap, bytes: Int?)

        init(_ bytes: [UInt8]) {
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                switch UltraHDRJPEG.find(in: bytes) {
                case .absent: self = .absent(read: true)
                case .unusable(let reason): self = .unusable(reason)
                case .present(let found): self = .present(found.gainMap, bytes: found.map.count)
                }
                return
            }
            let isHEIF = (try? ImageInfo(probing: bytes)).map { [.heic, .avif].contains($0.format) } ?? false
            switch isHEIF ? GainMapImage.read(from: bytes) : .absent {
            case .absent: self = .absent(read: isHEIF)
            case .unusable(let reason): self = .unusable(reason)
            case .present(let map, _): self = .present(map.gainMap, bytes: nil)
            }
        }

        var wasRead: Bool {
            if case .absent(let read) = self { return read }
            return true
        }
    }

    static func text(_ found: Found, path: String) -> String {
        switch found {
        case .absent(let read):
            guard read else { return "\(path.oneLine): no gain map read (gain maps are read from JPEG and HEIF files)" }
            return "\(path.oneLine): no gain map"
        case .unusable(let reason):
            return "\(path.oneLine): a gain map is named but cannot be used: \(reason)"
        case .present(let map, let bytes):
            let parameters = map.parameters
            let flavour =
                switch map.flavour {
                case .iso21496JPEG: "Ultra HDR, ISO 21496-1 metadata"
                case .ultraHDR: "Ultra HDR, hdrgm XMP"
                case .appleAuxiliary: "Apple auxiliary image, headroom from the maker note"
                case .isoToneMapItem: "ISO 21496-1 tmap item"
                case .computedFromHDR: "computed from the HDR photo"
                }
            let size = map.size.map { "\($0)" } ?? "size unknown"
            let channels = parameters.channels.enumerated().map { index, channel in
                let name = parameters.channels.count == 1 ? "" : ["red ", "green ", "blue "][index]
                return "\(name)boost \(stops(channel.minimumBoost)) to \(stops(channel.maximumBoost)) stops, gamma \(stops(channel.gamma))"
            }
            let length = bytes.map { ", \($0) bytes" } ?? ""
            return "\(path.oneLine): gain map (\(flavour)), \(size), \(map.channelCount ?? 0) channel\(map.channelCount == 1 ? "" : "s")"
                + "\(length); \(channels.joined(separator: "; ")); headroom \(stops(parameters.baseHeadroom)) to "
                + "\(stops(parameters.alternateHeadroom)) stops; the base is \(parameters.baseIsHDR ? "HDR" : "SDR")"
        }
    }

    static func json(_ found: Found) -> Data {
        var object: [String: Any] = ["read": found.wasRead]
        switch found {
        case .absent:
            object["gainMap"] = NSNull()
        case .unusable(let reason):
            object["gainMap"] = NSNull()
            object["problem"] = reason
        case .present(let map, let bytes):
            let parameters = map.parameters
            object["gainMap"] =
                [
                    "flavour": map.flavour.rawValue, "width": map.size?.width ?? 0, "height": map.size?.height ?? 0,
                    "channels": map.channelCount ?? 0, "bytes": bytes.map { $0 as Any } ?? NSNull(), "baseHeadroom": parameters.baseHeadroom,
                    "alternateHeadroom": parameters.alternateHeadroom, "baseIsHDR": parameters.baseIsHDR, "usesBaseColourSpace": parameters.usesBaseColourSpace,
                    "parameters": parameters.channels.map { channel in
                        [
                            "minimumBoost": channel.minimumBoost, "maximumBoost": channel.maximumBoost, "gamma": channel.gamma,
                            "baseOffset": channel.baseOffset, "alternateOffset": channel.alternateOffset,
                        ]
                    },
                ] as [String: Any]
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    private static func stops(_ value: Double) -> String { String(format: "%.4g", value) }
}

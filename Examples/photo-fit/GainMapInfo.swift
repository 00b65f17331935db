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
        let isJPEG = bytes.starts(with: [0xFF, 0xD8, 0xFF])
        let lookup: UltraHDRJPEG.Lookup = isJPEG ? UltraHDRJPEG.find(in: bytes) : .absent
        guard json else { return Self.text(lookup, isJPEG: isJPEG, path: path) }
        Console.json(Self.json(lookup, isJPEG: isJPEG))
        return nil
    }

    static func text(_ lookup: UltraHDRJPEG.Lookup, isJPEG: Bool, path: String) -> String {
        switch lookup {
        case .absent:
            guard isJPEG else { return "\(path.oneLine): no gain map read (gain maps are read from JPEG files in this version)" }
            return "\(path.oneLine): no gain map"
        case .unusable(let reason):
            return "\(path.oneLine): a gain map is named but cannot be used: \(reason)"
        case .present(let found):
            let map = found.gainMap
            let parameters = map.parameters
            let flavour = map.flavour == .iso21496JPEG ? "Ultra HDR, ISO 21496-1 metadata" : "Ultra HDR, hdrgm XMP"
            let size = map.size.map { "\($0)" } ?? "size unknown"
            let channels = parameters.channels.enumerated().map { index, channel in
                let name = parameters.channels.count == 1 ? "" : ["red ", "green ", "blue "][index]
                return "\(name)boost \(stops(channel.minimumBoost)) to \(stops(channel.maximumBoost)) stops, gamma \(stops(channel.gamma))"
            }
            return "\(path.oneLine): gain map (\(flavour)), \(size), \(map.channelCount ?? 0) channel\(map.channelCount == 1 ? "" : "s"), "
                + "\(found.map.count) bytes; \(channels.joined(separator: "; ")); headroom \(stops(parameters.baseHeadroom)) to "
                + "\(stops(parameters.alternateHeadroom)) stops; the base is \(parameters.baseIsHDR ? "HDR" : "SDR")"
        }
    }

    static func json(_ lookup: UltraHDRJPEG.Lookup, isJPEG: Bool) -> Data {
        var object: [String: Any] = ["read": isJPEG]
        switch lookup {
        case .absent:
            object["gainMap"] = NSNull()
        case .unusable(let reason):
            object["gainMap"] = NSNull()
            object["problem"] = reason
        case .present(let found):
            let parameters = found.gainMap.parameters
            object["gainMap"] =
                [
                    "flavour": found.gainMap.flavour.rawValue, "width": found.gainMap.size?.width ?? 0, "height": found.gainMap.size?.height ?? 0,
                    "channels": found.gainMap.channelCount ?? 0, "bytes": found.map.count, "baseHeadroom": parameters.baseHeadroom,
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

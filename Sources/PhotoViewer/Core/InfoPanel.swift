import Foundation
import ImageCodecs
import PhotoBrowser
import SafeText
import SystemSupport

/// The lines of the information overlay (`i`): what the photo is, what
/// took it, how, when, and (only when the person asked for it) where.
/// Every text from the file is terminal-safe, on one line.
enum InfoPanel {
    /// The overlay's lines for `details` of the photo named `name`.
    static func lines(name: String, details: PhotoDetails, showsLocation: Bool) -> [String] {
        var lines = [TerminalText.safeLine(name)]
        var file = ["\(details.displaySize.width)×\(details.displaySize.height)"]
        if let format = details.format { file.append(format.identifier.uppercased()) }
        if let bytes = details.byteCount { file.append(byteCount(bytes)) }
        lines.append(file.joined(separator: " · "))
        let shot = details.exif
        let gear = [shot.camera, shot.lens].compactMap { $0 }
        if !gear.isEmpty { lines.append(TerminalText.safeLine(gear.joined(separator: " · "))) }
        var exposure: [String] = []
        if let time = shot.exposureTime { exposure.append("\(time) s") }
        if let aperture = shot.fNumber { exposure.append("f/" + decimal(aperture)) }
        if let iso = shot.isoSpeed { exposure.append("ISO \(iso)") }
        if let focal = shot.focalLength {
            let equivalent = shot.focalLengthIn35mmFilm.map { " (\($0) mm in 35 mm)" } ?? ""
            exposure.append("\(decimal(focal)) mm\(equivalent)")
        }
        if !exposure.isEmpty { lines.append(exposure.joined(separator: " · ")) }
        if let date = details.captureDate {
            // "2024:05:01 14:03:22" as people write it: "2024-05-01 14:03:22".
            let text = date.exifDateTime
            let day = text.prefix(10).replacingOccurrences(of: ":", with: "-")
            lines.append("taken \(day)\(text.dropFirst(10))\(date.exifOffset.map { " \($0)" } ?? "")")
        }
        if let location = shot.location {
            lines.append(showsLocation ? "at \(location)" : "location recorded (hidden)")
        }
        if gear.isEmpty && exposure.isEmpty && details.captureDate == nil { lines.append("no camera details recorded") }
        return lines
    }

    /// `850 bytes`, `12 KB`, `5.2 MB` (1 KB = 1,024 bytes).
    static func byteCount(_ bytes: Int) -> String {
        if bytes < 1_024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return "\((bytes + 512) / 1_024) KB" }
        return String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    /// `8`, `5.6`, `2.8`: one decimal, none when whole.
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(format: "%.1f", tenths)
    }
}

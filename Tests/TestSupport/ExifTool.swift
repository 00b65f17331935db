import Foundation

/// Phil Harvey's `exiftool` (Debian's libimage-exiftool-perl), run at test
/// time: to give a generated photo what a phone photo carries (GPS, serial
/// numbers, XMP, IPTC), and to read back, as a user would, what a shared
/// file still carries.
public enum ExifTool {
    /// What exiftool said when it failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `bytes` (a file of type `fileExtension`) after `exiftool ARGUMENTS`.
    public static func writing(_ arguments: [String], to bytes: [UInt8], fileExtension: String) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appending(path: "exiftool-\(UUID()).\(fileExtension)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try run(["-q", "-q", "-overwrite_original", "-m"] + arguments + [file.path])
        return try fileBytes(file)
    }

    /// Every tag exiftool finds in `bytes`, as `GROUP1:Name` (`GPS:GPSLatitude`,
    /// `ExifIFD:SerialNumber`, `XMP-dc:Creator`) to its value as text; exiftool's
    /// own, file-system and composite entries left out.
    public static func tags(of bytes: [UInt8], fileExtension: String, extractingEmbedded: Bool = false) throws -> [String: String] {
        let file = FileManager.default.temporaryDirectory.appending(path: "exiftool-\(UUID()).\(fileExtension)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try tags(ofFileAt: file.path, extractingEmbedded: extractingEmbedded)
    }

    /// ``tags(of:fileExtension:extractingEmbedded:)`` of the file at `path`;
    /// with `extractingEmbedded`, exiftool's `-ee` also reads what a video
    /// stream carries (an AVCHD camcorder's MDPM: `GPSLatitude` in group `H264`).
    public static func tags(ofFileAt path: String, extractingEmbedded: Bool = false) throws -> [String: String] {
        let output = try run(["-j", "-a", "-G1", "-n"] + (extractingEmbedded ? ["-ee"] : []) + [path])
        guard let records = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], let record = records.first else {
            throw Failure(description: "exiftool printed no JSON: \(output.prefix(200))")
        }
        var tags: [String: String] = [:]
        for (key, value) in record where !["SourceFile", "ExifTool:ExifToolVersion"].contains(key) {
            let group = key.split(separator: ":").first.map(String.init) ?? ""
            if ["System", "File", "Composite", "ExifTool"].contains(group) && key != "File:Comment" { continue }
            tags[key] = "\(value)"
        }
        return tags
    }

    /// What `exiftool -validate` warns of in `bytes` (a missing required
    /// tag, an IFD out of order, an offset past the data), one text each.
    public static func validationWarnings(of bytes: [UInt8], fileExtension: String) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appending(path: "exiftool-\(UUID()).\(fileExtension)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // Text, not JSON: JSON keeps one of several warnings.
        let output = try run(["-a", "-s", "-validate", "-warning", file.path])
        return output.split(separator: "\n").filter { $0.hasPrefix("Warning") }.map {
            String($0.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
        .sorted()
    }

    /// The binary value exiftool extracts for `tag` from `bytes` with
    /// `-b -ee` (a Motion Photo's `EmbeddedVideo`, a `PreviewImage`); empty
    /// when it finds none.
    public static func extracting(_ tag: String, from bytes: [UInt8], fileExtension: String) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appending(path: "exiftool-\(UUID()).\(fileExtension)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return Array(try runForBytes(["-b", "-ee", "-\(tag)", file.path]))
    }

    private static func run(_ arguments: [String]) throws -> String {
        String(decoding: try runForBytes(arguments), as: UTF8.self)
    }

    private static func runForBytes(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run exiftool (install Debian's libimage-exiftool-perl): \(error)")
        }
        let text = Data(try bytes(readingToEndOf: output.fileHandleForReading, limit: 256 << 20))
        let message = String(decoding: try bytes(readingToEndOf: errors.fileHandleForReading, limit: 1 << 20), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "exiftool \(arguments.joined(separator: " ")): \(message)") }
        return text
    }

    /// What a phone photo carries that must not leave with it, as exiftool
    /// arguments: GPS, serial numbers, owner, artist and copyright names,
    /// unique ID, comments, a description, XMP (with GPS and a city), IPTC;
    /// and what may: make, model, capture date, exposure.
    public static let phoneMetadata: [String] = [
        "-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", "-GPSAltitude=35",
        "-ExifIFD:SerialNumber=SN-0042-7781", "-LensSerialNumber=LS-9911", "-OwnerName=Jane Doe", "-Artist=Jane Doe",
        "-Copyright=(c) Jane Doe", "-ImageUniqueID=4f1e2d3c4b5a69788796a5b4c3d2e1f0", "-UserComment=at home", "-ImageDescription=my flat",
        "-Make=Canon", "-Model=EOS R5", "-DateTimeOriginal=2024:05:06 07:08:09", "-ExposureTime=1/125", "-FNumber=2.8", "-ISO=200",
        "-XMP-dc:Creator=Jane Doe", "-XMP-exif:GPSLatitude=48.8583", "-XMP-exif:GPSLongitude=2.2945", "-XMP-photoshop:City=Paris",
        "-Comment=private comment",
    ]

    /// The same for IPTC, which only JPEG takes.
    public static let iptcMetadata: [String] = ["-IPTC:By-line=Jane Doe", "-IPTC:City=Paris", "-IPTC:Caption-Abstract=our holiday"]
}

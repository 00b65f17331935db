import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// Ratings, labels and tags written as the photo apps people use read
/// them: exiftool as the outside reader, sidecars kept whole.
@Suite("Ratings, labels and tags")
struct PhotoAnnotationsTests {
    static var marks: PhotoAnnotations {
        var marks = PhotoAnnotations()
        marks.rating = 4
        marks.colorLabel = .green
        marks.tags = ["Paris", "holiday & sun", "<café>"]
        marks.hierarchicalTags = ["Places|France|Paris"]
        return marks
    }

    static func photo(_ format: ImageFormat) throws -> [UInt8] {
        let plain = try HEIFWriter.photo(Bitmap.noise(width: 48, height: 32, seed: 43), as: format)
        // An XMP packet with someone else's properties (a HEIF file needs its XMP item already).
        return try ExifTool.writing(["-XMP-dc:Creator=Jane", "-XMP-photoshop:Headline=Eiffel"], to: plain, fileExtension: format.fileExtensions[0])
    }

    @Test(
        "written into the file in 5 formats: exiftool reads rating, label, subject and hierarchy; other XMP and the pixels stay",
        arguments: [
            ImageFormat.jpeg, .png, .webp, .heic, .avif,
        ])
    func inFile(_ format: ImageFormat) throws {
        let photo = try Self.photo(format)
        let edited = try MetadataEdit(annotations: Self.marks).applied(to: photo)
        let tags = try ExifTool.tags(of: edited, fileExtension: format.fileExtensions[0])
        #expect(tags["XMP-xmp:Rating"] == "4" && tags["XMP-xmp:Label"] == "Green", "\(format): \(tags.filter { $0.key.hasPrefix("XMP") })")
        #expect(
            tags["XMP-dc:Subject"]?.contains("holiday & sun") == true && tags["XMP-dc:Subject"]?.contains("<café>") == true, "\(tags["XMP-dc:Subject"] ?? "")")
        #expect(tags["XMP-lr:HierarchicalSubject"] == "Places|France|Paris")
        #expect(tags["XMP-dc:Creator"] == "Jane" && tags["XMP-photoshop:Headline"] == "Eiffel", "someone else's properties stay")
        #expect(XMPPacket.text(inFile: edited).map(XMPPacket.annotations(in:)) == Self.marks)
        #expect(try DecodedImage(decoding: edited).bitmap.pixels == DecodedImage(decoding: photo).bitmap.pixels)
        // Marks changed again replace the old ones, not add to them.
        var fewer = Self.marks
        fewer.rating = nil
        fewer.tags = ["Paris"]
        fewer.colorLabel = nil
        fewer.label = "Approved"
        let again = try ExifTool.tags(of: try MetadataEdit(annotations: fewer).applied(to: edited), fileExtension: format.fileExtensions[0])
        #expect(again["XMP-xmp:Rating"] == nil && again["XMP-dc:Subject"] == "Paris" && again["XMP-xmp:Label"] == "Approved", "\(again)")
    }

    @Test(
        "a photo without XMP gets a packet (JPEG, PNG, WebP; HEIC and AVIF: see HEIFItemAdditionTests)",
        arguments: [
            ImageFormat.jpeg, .png, .webp,
        ])
    func noPacketYet(_ format: ImageFormat) throws {
        let plain = try Bitmap.noise(width: 16, height: 16, seed: 2).encoded(as: format, options: EncodeOptions(quality: 90))
        let edited = try MetadataEdit(annotations: Self.marks).applied(to: plain)
        let tags = try ExifTool.tags(of: edited, fileExtension: format.fileExtensions[0])
        #expect(tags["XMP-xmp:Rating"] == "4" && tags["XMP-lr:HierarchicalSubject"] == "Places|France|Paris", "\(format): \(tags)")
        #expect(try ExifTool.validationWarnings(of: edited, fileExtension: format.fileExtensions[0]).filter { !$0.contains("Missing required") }.isEmpty)
    }

    @Test("a darktable sidecar keeps its history and a Lightroom one its develop settings; digiKam's and darktable's labels follow")
    func sidecars() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sidecar-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = "\(folder)/IMG_0001.jpg"
        try Data(try Self.photo(.jpeg)).write(to: URL(fileURLWithPath: photo))
        let darktable = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:darktable="http://darktable.sf.net/"
                xmlns:digiKam="http://www.digikam.org/ns/1.0/"
                xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
               xmp:Rating="1"
               crs:Exposure2012="+0.35"
               darktable:history_end="2"
               digiKam:ColorLabel="1">
               <darktable:colorlabels><rdf:Seq><rdf:li>0</rdf:li></rdf:Seq></darktable:colorlabels>
               <darktable:history><rdf:Seq>
                <rdf:li darktable:operation="exposure" darktable:enabled="1" darktable:params="0000000000000000"/>
                <rdf:li darktable:operation="colorin" darktable:enabled="1" darktable:params="gz02eJxjZBgFo2AU4AE"/>
               </rdf:Seq></darktable:history>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        try Data(darktable.utf8).write(to: URL(fileURLWithPath: photo + ".xmp"))
        let read = try PhotoAnnotations(readingFileAt: photo)
        #expect(read.rating == 1 && read.colorLabel == .red, "\(read)")
        try Self.marks.writeSidecar(for: photo)
        let written = String(decoding: try fileBytes(URL(fileURLWithPath: photo + ".xmp")), as: UTF8.self)
        for kept in [#"darktable:operation="colorin""#, "gz02eJxjZBgFo2AU4AE", #"crs:Exposure2012="+0.35""#, #"darktable:history_end="2""#] {
            #expect(written.contains(kept), "\(kept) kept")
        }
        let tags = try ExifTool.tags(ofFileAt: photo + ".xmp")
        #expect(tags["XMP-xmp:Rating"] == "4" && tags["XMP-xmp:Label"] == "Green" && tags["XMP-digiKam:ColorLabel"] == "4", "\(tags)")
        #expect(
            tags["XMP-darktable:Colorlabels"] == "2" && tags["XMP-digiKam:TagsList"] == "Places/France/Paris",
            "\(tags.filter { $0.key.contains("darktable") || $0.key.contains("digiKam") })")
        #expect(try PhotoAnnotations(readingFileAt: photo) == Self.marks)
        #expect(try ExifTool.tags(ofFileAt: photo)["XMP-xmp:Rating"] == nil, "the photo itself is not touched")

        // Lightroom's sidecar beside a raw file: IMG_0002.xmp.
        let raw = "\(folder)/IMG_0002.CR3"
        try Data([0, 1, 2, 3]).write(to: URL(fileURLWithPath: raw))
        try Data(XMPPacket.recording(Self.marks, in: nil).utf8).write(to: URL(fileURLWithPath: "\(folder)/IMG_0002.xmp"))
        #expect(try PhotoAnnotations(readingFileAt: raw) == Self.marks)
    }

    @Test("a 2 GiB movie's marks come from its sidecar without reading the movie")
    func largeMovie() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "movie-marks-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let movie = "\(folder)/IMG_0003.MOV"
        // A sparse file: an ftyp box, then 2 GiB of nothing (past the 1 GiB a photo may be).
        try Data([0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)).write(to: URL(fileURLWithPath: movie))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: movie))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        try Self.marks.writeSidecar(for: movie)
        #expect(try PhotoAnnotations(readingFileAt: movie) == Self.marks)
    }

    @Test("hostile packets: a rating out of range, 5,000 tags, an unclosed bag, a NUL: bounded values, never a trap")
    func hostile() throws {
        let many = (0..<5000).map { "<rdf:li>tag \($0)</rdf:li>" }.joined()
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="99" xmp:Label="\u{0}">
            <dc:subject><rdf:Bag>\(many)</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        var read = XMPPacket.annotations(in: packet)
        #expect(read.tags.count == 1000)
        read.rating = 99
        #expect(read.rating == nil, "a rating out of range is not kept")
        let unclosed = #"<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag><rdf:li>a"#
        #expect(XMPPacket.annotations(in: unclosed).tags.isEmpty)
        let rewritten = XMPPacket.recording(Self.marks, in: unclosed)
        #expect(rewritten.contains("Paris"))
    }
}

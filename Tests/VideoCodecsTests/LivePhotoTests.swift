import Foundation
import ImageCodecs
import TestSupport
import Testing
import VideoCodecs

/// Live Photos (an iPhone's still and MOV, paired by their content
/// identifier) and Motion Photos (a JPEG with its MP4 after it), read as
/// phones write them and checked against exiftool's reading.
@Suite("Live Photos and Motion Photos")
struct LivePhotoTests {
    static let identifier = "4F1B2C3D-0000-4A5B-8C9D-112233445566"

    @Test("an iPhone still's maker note holds its Live Photo identifier, as exiftool reads it; its MOV carries the same")
    func appleIdentifiers() throws {
        for little in [false, true] {
            let still = try TestLivePhotos.still(identifier: Self.identifier, noteIsLittleEndian: little)
            let exif = try #require(try ExifMetadata(readingHeaderOf: MemoryByteSource(still)))
            #expect(exif.livePhotoIdentifier?.rawValue == Self.identifier)
            let tags = try ExifTool.tags(of: still, fileExtension: "jpg")
            #expect(tags["Apple:MediaGroupUUID"] == Self.identifier, "exiftool reads the note the same way: \(tags.filter { $0.key.hasPrefix("Apple") })")
        }
        // Tools that copy the identifier sometimes lower its case: still the same pair.
        let motion = try TestLivePhotos.motion("live-motion.mov", identifier: Self.identifier.lowercased())
        let video = try VideoInfo(probingFileAt: motion)
        let still = try #require(try ExifMetadata(readingHeaderOf: MemoryByteSource(try TestLivePhotos.still(identifier: Self.identifier))))
        #expect(video.contentIdentifier != nil && video.contentIdentifier == still.livePhotoIdentifier)
    }

    @Test("no identifier without an Apple note; hostile notes (every byte changed, every length cut) never trap")
    func hostileNotes() throws {
        #expect(ExifMetadata(orientation: .up).livePhotoIdentifier == nil)
        // Another maker's note, and an identifier that is not text.
        var other = TestLivePhotos.appleExif(identifier: Self.identifier)
        let noteStart = 8 + 2 + 12 + 4 + 2 + 12 + 4
        other[noteStart] = UInt8(ascii: "N")
        #expect(ExifMetadata(bytes: other)?.livePhotoIdentifier == nil)
        #expect(ExifMetadata(bytes: TestLivePhotos.appleExif(identifier: "has a space"))?.livePhotoIdentifier == nil)
        #expect(LivePhotoIdentifier(String(repeating: "A", count: 129)) == nil && LivePhotoIdentifier("") == nil)

        let block = TestLivePhotos.appleExif(identifier: Self.identifier)
        var found = 0
        for index in block.indices {
            for value: UInt8 in [0x00, 0xFF, 0x7F, block[index] ^ 0x01] {
                var damaged = block
                damaged[index] = value
                if let identifier = ExifMetadata(bytes: damaged)?.livePhotoIdentifier {
                    found += 1
                    #expect(identifier.rawValue.utf8.allSatisfy { (0x21...0x7E).contains($0) })
                }
            }
        }
        #expect(found > 0 && found < block.count * 4, "some damage leaves the identifier, some removes it: \(found)")
        for length in 0..<block.count {
            _ = ExifMetadata(bytes: block.prefix(length))?.livePhotoIdentifier
        }
    }

    @Test("Motion Photos in both XMP forms: the range is the MP4 exiftool extracts; it probes, and its poster is the MP4's own", arguments: [0, 1, 2])
    func motionPhotos(form: Int) throws {
        let mp4 = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        let jpeg = try TestPhotos.landscapeJPEG(size: PixelSize(width: 240, height: 160), quality: 85)
        let layout: TestLivePhotos.Layout = form == 0 ? .microVideo : .containerDirectory(padding: form == 2 ? 59 : 0)
        let padding = form == 2 ? 59 : 0
        let xmp = TestLivePhotos.xmp(layout, videoLength: form == 0 ? mp4.count : mp4.count, stillMicroseconds: 1_250_000)
        let file = TestLivePhotos.motionPhoto(jpeg: jpeg, xmp: xmp, video: mp4, padding: padding)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("motion-\(form)-\(UUID().uuidString).jpg").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let motion = try #require(try MotionPhoto(readingFileAt: path))
        #expect(motion.layout == (form == 0 ? .microVideo : .containerDirectory))
        #expect(motion.videoRange == file.count - padding - mp4.count..<file.count - padding)
        #expect(motion.stillTime == .milliseconds(1_250))
        #expect(Array(file[motion.videoRange]) == mp4)
        if padding == 0 {
            // exiftool takes everything after the JPEG's end that starts as an MP4.
            #expect(try ExifTool.extracting("EmbeddedVideo", from: file, fileExtension: "jpg") == mp4)
        }
        // The still is still a photo.
        #expect(try ImageInfo(probingFileAt: path).size == PixelSize(width: 240, height: 160))
        let info = try VideoInfo(probingFileAt: path, range: motion.videoRange)
        #expect(info.video.codec == "h264" && info.video.displaySize == PixelSize(width: 320, height: 240))
        let poster = try VideoPosterFrame(ofFileAt: path, range: motion.videoRange, at: .seconds(1))
        let alone = try VideoPosterFrame(ofFileAt: try TestVideos.h264(), at: .seconds(1))
        #expect(poster.bitmap == alone.bitmap && poster.time == alone.time)
    }

    @Test("hostile Motion Photo claims are typed errors naming the claim; a photo without one is nil")
    func hostileMotionPhotos() throws {
        let mp4 = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        let jpeg = try TestPhotos.landscapeJPEG(size: PixelSize(width: 240, height: 160), quality: 85)
        #expect(try MotionPhoto(readingHeaderOf: MemoryByteSource(jpeg)) == nil)
        #expect(try MotionPhoto(readingHeaderOf: MemoryByteSource(Array("not a jpeg".utf8))) == nil)
        let claims: [(TestLivePhotos.Layout, String)] = [
            (.microVideo, "0"), (.microVideo, "-5"), (.microVideo, "99999999999999999999"), (.microVideo, "12abc"),
            (.microVideo, "\(mp4.count + jpeg.count + 10_000)"), (.microVideo, "\(mp4.count - 100)"),
            (.containerDirectory(padding: 0), "\(mp4.count * 4)"), (.containerDirectory(padding: 0), "0"),
            (.containerDirectory(padding: 0), "\(mp4.count + 1)"), (.containerDirectory(padding: 0), "4294967297"),
        ]
        for (layout, number) in claims {
            let file = TestLivePhotos.motionPhoto(jpeg: jpeg, xmp: TestLivePhotos.xmp(layout, videoLength: mp4.count, override: number), video: mp4)
            do {
                let motion = try MotionPhoto(readingHeaderOf: MemoryByteSource(file))
                // Numbers that are not byte counts are no claim at all.
                #expect(motion == nil, "\(number) gave \(String(describing: motion))")
            } catch {
                #expect("\(error)".contains("the Motion Photo's video is not where its XMP says"), "\(number): \(error)")
            }
        }
        // Seeded damage to the XMP's text: nil, an error or a range inside the file; never a trap.
        var generator = SeededGenerator(seed: 37)
        let good = TestLivePhotos.motionPhoto(jpeg: jpeg, xmp: TestLivePhotos.xmp(.containerDirectory(padding: 0), videoLength: mp4.count), video: mp4)
        for _ in 0..<200 {
            var damaged = good
            for _ in 0..<4 { damaged[Int.random(in: 4..<1_400, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let motion = try? MotionPhoto(readingHeaderOf: MemoryByteSource(damaged)) {
                #expect(motion.videoRange.lowerBound >= 0 && motion.videoRange.upperBound <= damaged.count)
            }
        }
    }
}

import Foundation
import ImageCore
import TestSupport
import Testing

/// Gain map parameters read from the two ways files write them (ISO 21496-1's
/// binary metadata, Ultra HDR's `hdrgm:` XMP), written back, and refused
/// with a typed error when they are damage rather than a photo's.
@Suite("Gain map parameters: ISO 21496-1 and Ultra HDR XMP")
struct GainMapParametersTests {
    /// Big-endian bytes, as ISO 21496-1 writes them.
    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func u32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func s32(_ value: Int32) -> [UInt8] { u32(UInt32(bitPattern: value)) }

    /// One channel, each fraction with its own denominator (libultrahdr's
    /// layout without the common-denominator flag): base headroom 0/1,
    /// alternate 3/2 stops, boost -1/4 to 5/2 stops, gamma 1/1, offsets 1/64.
    static let separateDenominators: [UInt8] = [
        u16(0), u16(0), [0x40],
        u32(0), u32(1), u32(3), u32(2),
        s32(-1), u32(4), s32(5), u32(2), u32(1), u32(1), s32(1), u32(64), s32(1), u32(64),
    ].flatMap { $0 }

    @Test("ISO 21496-1 with a denominator per fraction: every field read as the standard lays it out")
    func isoSeparateDenominators() throws {
        let parameters = try GainMapParameters(iso21496: Self.separateDenominators)
        #expect(parameters.channels.count == 1 && parameters.usesBaseColourSpace && !parameters.baseIsHDR)
        #expect(parameters.baseHeadroom == 0 && parameters.alternateHeadroom == 1.5)
        let channel = parameters.channel(2)
        #expect(channel.minimumBoost == -0.25 && channel.maximumBoost == 2.5 && channel.gamma == 1)
        #expect(channel.baseOffset == 1.0 / 64 && channel.alternateOffset == 1.0 / 64)
    }

    @Test("ISO 21496-1 written and read back: one channel and three, forward and backward, within 1e-6")
    func isoRoundTrip() throws {
        let three = try GainMapParameters(
            channels: [
                .init(minimumBoost: 0, maximumBoost: 2.3, gamma: 1),
                .init(minimumBoost: -0.1, maximumBoost: 2.0, gamma: 1.25),
                .init(minimumBoost: 0.05, maximumBoost: 1.7, gamma: 0.8, baseOffset: 0, alternateOffset: 0.001),
            ], baseHeadroom: 0, alternateHeadroom: 2.3, usesBaseColourSpace: false)
        let backward = try GainMapParameters(channels: [.init(minimumBoost: -3, maximumBoost: 0)], baseHeadroom: 3, alternateHeadroom: 0)
        for parameters in [three, backward] {
            let bytes = parameters.iso21496Metadata
            let read = try GainMapParameters(iso21496: bytes)
            #expect(read.channels.count == parameters.channels.count && read.baseIsHDR == parameters.baseIsHDR)
            #expect(read.usesBaseColourSpace == parameters.usesBaseColourSpace)
            #expect(abs(read.baseHeadroom - parameters.baseHeadroom) < 1e-6 && abs(read.alternateHeadroom - parameters.alternateHeadroom) < 1e-6)
            for (a, b) in zip(read.channels, parameters.channels) {
                let pairs = [
                    (a.minimumBoost, b.minimumBoost), (a.maximumBoost, b.maximumBoost), (a.gamma, b.gamma), (a.baseOffset, b.baseOffset),
                    (a.alternateOffset, b.alternateOffset),
                ]
                #expect(pairs.allSatisfy { abs($0.0 - $0.1) < 1e-6 }, "\(a) vs \(b)")
            }
        }
        // The common-denominator layout: 5 header bytes, the denominator, two headrooms, 5 fields a channel.
        #expect(three.iso21496Metadata.count == 5 + 4 + 8 + 3 * 20)
        #expect(three.iso21496Metadata[4] & 0x80 != 0 && backward.iso21496Metadata[4] & 0x04 != 0)
    }

    @Test("ISO 21496-1 damage is a typed error: every truncation, zero denominators, an unknown version, values past 32 stops")
    func isoHostile() {
        let bytes = Self.separateDenominators
        for length in 0..<bytes.count {
            #expect(throws: GainMapError.self) { _ = try GainMapParameters(iso21496: Array(bytes.prefix(length))) }
        }
        func refused(_ bytes: [UInt8]) -> GainMapError? {
            do {
                _ = try GainMapParameters(iso21496: bytes)
                return nil
            } catch {
                return error
            }
        }
        var zero = bytes
        zero.replaceSubrange(9..<13, with: Self.u32(0))  // the base headroom's denominator
        #expect(refused(zero) == .invalidValue(field: "base headroom", value: "a denominator of 0"))
        #expect(refused(Self.u16(1) + bytes.dropFirst(2)) == .unsupportedVersion(1))
        var huge = bytes
        huge.replaceSubrange(29..<33, with: Self.s32(.max))  // the maximum boost's numerator, over 2: 2^30 stops
        #expect(refused(huge).map { "\($0)" }?.contains("maximum boost") == true)
        var inverted = bytes
        inverted.replaceSubrange(21..<25, with: Self.s32(-9))  // minimum boost -9/4 stays under the maximum: fine
        #expect(refused(inverted) == nil)
        inverted.replaceSubrange(21..<25, with: Self.s32(11))  // 11/4 over the maximum 5/2
        #expect(refused(inverted).map { "\($0)" }?.contains("under the minimum") == true)
        var direction = bytes
        direction[4] |= 0x04  // says backward, but the base headroom is the smaller
        #expect(refused(direction).map { "\($0)" }?.contains("direction") == true)
    }

    @Test("10,000 seeded random and mutated payloads: a typed error or parameters that keep every range, never a trap")
    func isoFuzz() throws {
        var random = SeededGenerator(seed: 21496)
        let seeds = [Self.separateDenominators, try GainMapParameters(channels: [.init(maximumBoost: 2)], alternateHeadroom: 2).iso21496Metadata]
        var accepted = 0
        for round in 0..<10_000 {
            var bytes = seeds[round % 2]
            if round % 5 == 0 {
                bytes = (0..<Int.random(in: 0...90, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            guard let parameters = try? GainMapParameters(iso21496: bytes) else { continue }
            accepted += 1
            #expect(parameters.channels.count == 1 || parameters.channels.count == 3)
            #expect(parameters.channels.allSatisfy { $0.gamma > 0 && $0.maximumBoost >= $0.minimumBoost && abs($0.maximumBoost) <= 32 })
            #expect(parameters.baseHeadroom != parameters.alternateHeadroom && parameters.baseHeadroom >= 0)
            let weight = parameters.weight(forHeadroom: 1)
            #expect(weight >= 0 && weight <= 1)
        }
        #expect(accepted > 100, "mutations that keep the payload whole are read: \(accepted)")
    }

    /// Ultra HDR v1's gain map XMP as Android writes it: attributes, the prefix `hdrgm`.
    static let androidXMP = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.1.2">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"
                hdrgm:Version="1.0" hdrgm:GainMapMin="0" hdrgm:GainMapMax="2.1606"
                hdrgm:Gamma="1" hdrgm:OffsetSDR="0.015625" hdrgm:OffsetHDR="0.015625"
                hdrgm:HDRCapacityMin="0" hdrgm:HDRCapacityMax="2.1606" hdrgm:BaseRenditionIsHDR="False"/>
          </rdf:RDF>
        </x:xmpmeta>
        """

    @Test("Ultra HDR XMP as Android writes it, per-channel sequences under another prefix, and the defaults")
    func ultraHDRXMP() throws {
        let android = try GainMapParameters(ultraHDRXMP: Self.androidXMP)
        #expect(android.channels == [.init(minimumBoost: 0, maximumBoost: 2.1606, gamma: 1, baseOffset: 0.015625, alternateOffset: 0.015625)])
        #expect(android.baseHeadroom == 0 && android.alternateHeadroom == 2.1606 && !android.baseIsHDR)
        #expect(android.weight(forHeadroom: 0) == 0 && android.weight(forHeadroom: 2.1606) == 1 && abs(android.weight(forHeadroom: 1.0803) - 0.5) < 1e-12)

        let elements = """
            <rdf:Description xmlns:gm='http://ns.adobe.com/hdr-gain-map/1.0/' gm:Version='1.0' gm:HDRCapacityMax='3'>
              <gm:GainMapMax><rdf:Seq><rdf:li>3</rdf:li><rdf:li>2.5</rdf:li><rdf:li>2</rdf:li></rdf:Seq></gm:GainMapMax>
              <gm:BaseRenditionIsHDR>True</gm:BaseRenditionIsHDR>
            </rdf:Description>
            """
        let perChannel = try GainMapParameters(ultraHDRXMP: elements)
        #expect(perChannel.channels.map(\.maximumBoost) == [3, 2.5, 2])
        #expect(perChannel.channels.allSatisfy { $0.minimumBoost == 0 && $0.gamma == 1 && $0.baseOffset == 1.0 / 64 })
        // The base is the HDR picture: in ISO's terms it is made for the larger headroom.
        #expect(perChannel.baseIsHDR && perChannel.baseHeadroom == 3 && perChannel.alternateHeadroom == 0)
        #expect(perChannel.weight(forHeadroom: 3) == 0 && perChannel.weight(forHeadroom: 0) == 1)
    }

    @Test("Ultra HDR XMP damage: no namespace, no version, no maximum, NaN, text, two values, a Boolean that is not one")
    func ultraHDRHostile() {
        func refused(_ text: String) -> String? {
            do {
                _ = try GainMapParameters(ultraHDRXMP: text)
                return nil
            } catch {
                return "\(error)"
            }
        }
        let android = Self.androidXMP
        #expect(
            refused(android.replacingOccurrences(of: "http://ns.adobe.com/hdr-gain-map/1.0/", with: "http://example.com/other/"))?.contains("namespace") == true
        )
        #expect(refused(android.replacingOccurrences(of: "hdrgm:Version=\"1.0\"", with: ""))?.contains("hdrgm:Version") == true)
        #expect(refused(android.replacingOccurrences(of: "hdrgm:GainMapMax=\"2.1606\"", with: ""))?.contains("hdrgm:GainMapMax") == true)
        #expect(refused(android.replacingOccurrences(of: "hdrgm:Gamma=\"1\"", with: "hdrgm:Gamma=\"nan\""))?.contains("hdrgm:Gamma") == true)
        #expect(refused(android.replacingOccurrences(of: "hdrgm:Gamma=\"1\"", with: "hdrgm:Gamma=\"0\""))?.contains("gamma") == true)
        #expect(refused(android.replacingOccurrences(of: "hdrgm:GainMapMax=\"2.1606\"", with: "hdrgm:GainMapMax=\"1e300\""))?.contains("maximum boost") == true)
        #expect(refused(android.replacingOccurrences(of: "hdrgm:OffsetSDR=\"0.015625\"", with: "hdrgm:OffsetSDR=\"many\""))?.contains("OffsetSDR") == true)
        #expect(refused(android.replacingOccurrences(of: "False", with: "Perhaps"))?.contains("BaseRenditionIsHDR") == true)
        #expect(refused(android.replacingOccurrences(of: "hdrgm:HDRCapacityMin=\"0\"", with: "hdrgm:HDRCapacityMin=\"2.1606\""))?.contains("headroom") == true)
        let two =
            "<rdf:Description xmlns:hdrgm='http://ns.adobe.com/hdr-gain-map/1.0/' hdrgm:Version='1.0' hdrgm:HDRCapacityMax='2'>"
            + "<hdrgm:GainMapMax><rdf:Seq><rdf:li>2</rdf:li><rdf:li>1</rdf:li></rdf:Seq></hdrgm:GainMapMax></rdf:Description>"
        #expect(refused(two)?.contains("2 values") == true)
        // Nonsense under the bound is read and refused; over a megabyte it is refused unread.
        #expect(refused(String(repeating: "<hdrgm:GainMapMax>", count: 50_000))?.contains("namespace") == true)
        #expect(refused(android + String(repeating: " ", count: 1 << 20))?.contains("MiB") == true)
    }

    @Test("Ultra HDR XMP written and read back exactly; exiftool reads the same hdrgm values")
    func ultraHDRWritten() throws {
        let parameters = try GainMapParameters(
            channels: [.init(minimumBoost: -0.5, maximumBoost: 2.75, gamma: 1), .init(maximumBoost: 2.5), .init(maximumBoost: 2.25, gamma: 1.5)],
            baseHeadroom: 0, alternateHeadroom: 2.75)
        let xmp = parameters.ultraHDRXMP
        #expect(try GainMapParameters(ultraHDRXMP: xmp) == parameters)
        let single = try GainMapParameters(channels: [.init(maximumBoost: 1.25)], alternateHeadroom: 1.25)
        #expect(try GainMapParameters(ultraHDRXMP: single.ultraHDRXMP) == single)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else { return }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gain-map-\(UUID().uuidString).xmp").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(xmp.utf8).write(to: URL(fileURLWithPath: path))
        let read = try ChildProcess.run("exiftool", ["-s", "-XMP-hdrgm:all", path]).output
        #expect(read.contains("GainMapMax") && read.contains("2.75, 2.5, 2.25"), "\(read)")
        #expect(read.contains("GainMapMin") && read.contains("-0.5, 0.0, 0.0"), "\(read)")
        #expect(read.contains("HDRCapacityMax") && read.contains("BaseRenditionIsHDR"), "\(read)")
    }
}

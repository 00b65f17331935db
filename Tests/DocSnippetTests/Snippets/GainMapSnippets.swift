// The doc-comment samples of ImageCore's gain map model, compiled.

import ImageCodecs
import ImageCore

enum GainMapSnippets {
    static func send(_ bytes: [UInt8]) { _ = bytes }

    static func parameters(tmapPayload: [UInt8]) throws {
        let parameters = try GainMapParameters(iso21496: tmapPayload)
        let boost = parameters.channel(0).maximumBoost  // stops: 2 is ×4
        _ = boost
    }

    static func model(xmp: String) throws {
        let map = GainMap(flavour: .ultraHDR, parameters: try GainMapParameters(ultraHDRXMP: xmp), size: PixelSize(width: 1008, height: 756), channelCount: 1)
        print(map.parameters.alternateHeadroom)  // stops the photo may rise above SDR white
    }

    static func ultraHDR(bytes: [UInt8]) {
        if case .present(let ultraHDR) = UltraHDRJPEG.find(in: bytes) {
            print(ultraHDR.gainMap.parameters.alternateHeadroom, ultraHDR.map.count)  // stops, the map's bytes
        }
    }

    static func kept(ultraHDRBytes: [UInt8]) throws {
        let shared = try MetadataPolicy.default.rewriting(ultraHDRBytes)
        // GPS and serials are gone; the map is still there.
        if case .present(let kept) = UltraHDRJPEG.find(in: shared.bytes) {
            print(kept.gainMap.parameters.alternateHeadroom, kept.map.count)
        }
    }

    static func rendition(bytes: [UInt8], box: PixelSize) throws {
        guard case .present(let ultraHDR) = UltraHDRJPEG.find(in: bytes) else { return }
        let page = try DecodedImage(rendering: bytes, in: box, mode: .fill)
        let map = try ultraHDR.map(matching: page, in: bytes)
        let shared = try UltraHDRJPEG.encode(page.bitmap, map: map)
        _ = shared
    }

    static func reading(bytes: [UInt8]) {
        switch GainMapImage.read(from: bytes) {
        case .present(let map, _): print(map.gainMap.flavour, map.bitmap.size)
        case .unusable(let reason): print("shown flat:", reason)
        case .absent: break
        }
    }

    static func iPhone(heicBytes: [UInt8], box: PixelSize) throws {
        if case .present(let map, let photoSize) = GainMapImage.read(from: heicBytes) {
            let page = try DecodedImage(rendering: heicBytes, in: box)
            let jpeg = try UltraHDRJPEG.encode(page.bitmap, map: try map.shaped(as: page, photoSize: photoSize))
            send(jpeg)
        }
    }

    static func hdr(bytes: [UInt8], box: PixelSize, map: GainMapImage, photoSize: PixelSize) throws {
        let page = try DecodedImage(rendering: bytes, in: box)
        let hdr = try map.shaped(as: page, photoSize: photoSize).hdr(base: page.bitmap, headroom: 4)  // a display two stops above SDR white
        _ = hdr
    }
}

import ImageCodecs

extension PickerSession {
    /// `candidates` as the picker offers them: with ``StackOffering/cover``,
    /// each burst or pair among the files (``StackFinder``'s rules, as the
    /// album's ``AlbumStore/stacks(in:rules:)``) becomes its cover, placed
    /// where its first frame was, naming its frames. Headers are read and
    /// burst frames measured on ImageCodecs' threads, never the cooperative
    /// pool; a candidate without a file (a capture) stands alone.
    static func offered(_ candidates: [PickedAsset], stacks: StackOffering, rules: StackRules = StackRules()) async throws -> [PickedAsset] {
        guard stacks == .cover, candidates.count > 1 else { return candidates }
        let filed = candidates.indices.filter { candidates[$0].path != nil && candidates[$0].media.kind != .video }
        guard filed.count > 1 else { return candidates }
        let found = try await ImageWorkers.shared.run { () throws(ImageCodecError) -> [(members: [Int], cover: Int)] in
            let shots = filed.map { index in
                let asset = candidates[index]
                let path = asset.path ?? ""
                return ShotRecord(fileAt: path, name: String(path.split(separator: "/").last ?? ""), key: asset.id, format: asset.info.format)
            }
            return StackFinder.stacks(of: shots, rules: rules).map { stack in
                let frames = stack.members.map { shot in
                    let path = candidates[filed[shot]].path
                    return StackFinder.CoverCandidate(
                        isJPEG: shots[shot].format == ImageFormat.jpeg.identifier,
                        sharpness: stack.kind == .burst ? path.flatMap { try? ImageSharpness(measuringImageAt: $0) } : nil,
                        isPhoneCover: BurstFileName(shots[shot].name)?.isCover ?? false)
                }
                return (stack.members.map { filed[$0] }, filed[stack.members[StackFinder.coverIndex(of: frames, kind: stack.kind)]])
            }
        }
        var offered = candidates.map(Optional.some)
        for stack in found {
            var cover = candidates[stack.cover]
            cover.stackFrames = stack.members.map { candidates[$0].id }
            for member in stack.members { offered[member] = nil }
            offered[stack.members.min()!] = cover
        }
        return offered.compactMap { $0 }
    }
}

import ImageCodecs

/// The one rule that makes a still and a video one Live Photo, shared by
/// the folder library's listing and the album's import: the two are in
/// the same folder and carry the same ``ImageCore/LivePhotoIdentifier``;
/// among several such videos the one with the still's name (without its
/// extension) wins, then the first by path; each video pairs once.
enum LivePhotoPairing {
    /// A file the rule looks at: its path (relative or absolute, the same
    /// for every file) and its identifier.
    struct File {
        let path: String
        let live: LivePhotoIdentifier?

        /// The folder part of the path ("" for none).
        var folder: Substring { path.lastIndex(of: "/").map { path[..<$0] } ?? "" }
        /// The file name without its extension.
        var stem: Substring {
            let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]
            return name.lastIndex(of: ".").map { name[..<$0] } ?? name
        }
    }

    /// For each still paired, by its index in `stills`, the index in
    /// `videos` of its motion.
    static func pairs(stills: [File], videos: [File]) -> [Int: Int] {
        struct Key: Hashable {
            let folder: Substring
            let identifier: LivePhotoIdentifier
        }
        var motions: [Key: [Int]] = [:]
        for (index, video) in videos.enumerated() {
            if let live = video.live { motions[Key(folder: video.folder, identifier: live), default: []].append(index) }
        }
        var paired = Set<Int>()
        var result: [Int: Int] = [:]
        for (index, still) in stills.enumerated() {
            guard let live = still.live, let candidates = motions[Key(folder: still.folder, identifier: live)] else { continue }
            let free = candidates.filter { !paired.contains($0) }.sorted { videos[$0].path < videos[$1].path }
            if let chosen = free.first(where: { videos[$0].stem == still.stem }) ?? free.first {
                paired.insert(chosen)
                result[index] = chosen
            }
        }
        return result
    }
}

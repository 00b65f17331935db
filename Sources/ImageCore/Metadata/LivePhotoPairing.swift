/// The one rule that makes a still and a video one Live Photo, shared by
/// PhotoAlbum's folder library and album import and PhotoBrowser's
/// folders: the two are in the same folder and carry the same
/// ``LivePhotoIdentifier``. A video pairs with the still of its name
/// (without the extension) first, whatever other still shares the
/// identifier (an edited `IMG_E0001.HEIC` does); the stills left then take
/// the videos left, the first by path. Each video pairs once.
package enum LivePhotoPairing {
    /// A file the rule looks at: its path (relative or absolute, the same
    /// for every file) and its identifier.
    package struct File {
        package let path: String
        package let live: LivePhotoIdentifier?

        package init(path: String, live: LivePhotoIdentifier?) {
            self.path = path
            self.live = live
        }

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
    package static func pairs(stills: [File], videos: [File]) -> [Int: Int] {
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
        // Names first (IMG_0001.HEIC with IMG_0001.MOV, whatever other still shares the identifier:
        // an edited IMG_E0001.HEIC does), then the rest by path.
        for byName in [true, false] {
            for (index, still) in stills.enumerated() where result[index] == nil {
                guard let live = still.live, let candidates = motions[Key(folder: still.folder, identifier: live)] else { continue }
                let free = candidates.filter { !paired.contains($0) }.sorted { videos[$0].path < videos[$1].path }
                if let chosen = byName ? free.first(where: { videos[$0].stem == still.stem }) : free.first {
                    paired.insert(chosen)
                    result[index] = chosen
                }
            }
        }
        return result
    }
}

import ExampleSupport
import Foundation
import ImageCodecs
import PhotoAlbum

extension PhotoAlbumCommand {
    /// Every stored item by asset, with the albums holding it (the set-aside one last).
    static func catalogue(_ store: AlbumStore) async throws -> [AssetID: (item: AlbumItem, albums: [String])] {
        var catalogue: [AssetID: (item: AlbumItem, albums: [String])] = [:]
        for album in try await store.albums() {
            for item in try await store.items(in: album.name) {
                catalogue[item.asset, default: (item, [])].albums.append(album.name)
            }
        }
        return catalogue
    }

    /// `dupes`: each group, its photos, the one to keep.
    static func listDuplicates(in album: String?, json: Bool, store: AlbumStore) async throws -> Int32 {
        let groups = try await store.duplicateGroups(in: album)
        let catalogue = try await catalogue(store)
        if json {
            let document: [[String: Any]] = groups.enumerated().map { number, group in
                [
                    "group": number + 1, "keep": group.suggestedKeeper.rawValue,
                    "photos": group.assets.map { asset -> [String: Any] in
                        let entry = catalogue[asset]
                        return [
                            "id": asset.rawValue, "keep": asset == group.suggestedKeeper, "albums": entry?.albums ?? [],
                            "name": entry?.item.originalName ?? "", "width": entry?.item.orientedSize.width ?? 0,
                            "height": entry?.item.orientedSize.height ?? 0, "bytes": entry?.item.byteCount ?? 0,
                            "format": entry?.item.format.identifier ?? "",
                        ]
                    },
                ]
            }
            Console.json(try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]))
            return 0
        }
        if groups.isEmpty { Console.line("no near-duplicates") }
        for (number, group) in groups.enumerated() {
            Console.line("group \(number + 1): \(group.assets.count) photos, keep \(group.suggestedKeeper.shortForm)")
            for asset in group.assets {
                guard let entry = catalogue[asset] else { continue }
                let size = entry.item.orientedSize
                Console.line(
                    "  \(asset.shortForm)  \(asset == group.suggestedKeeper ? "keep" : "    ")  \(size.width)x\(size.height) \(entry.item.format.identifier) \(entry.item.byteCount) bytes  \(entry.albums.map(\.oneLine).joined(separator: ", "))  \(entry.item.originalName.oneLine)"
                )
            }
        }
        return 0
    }

    /// `resolve GROUP [--keep ID]`: GROUP is a number from `dupes` (same
    /// `--album`) or the id (a prefix) of any photo in the group.
    static func resolveDuplicates(_ selector: String, in album: String?, keeping keep: String?, store: AlbumStore) async throws -> Int32 {
        let groups = try await store.duplicateGroups(in: album)
        let group: DuplicateGroup
        if let number = Int(selector), selector.count <= 6 {
            guard groups.indices.contains(number - 1) else {
                throw CLIError("there is no group \(number) (\(groups.count) found); run dupes to list them")
            }
            group = groups[number - 1]
        } else {
            let matching = groups.filter { $0.assets.contains { $0.rawValue.hasPrefix(selector.lowercased()) } }
            guard matching.count == 1 else {
                throw CLIError(
                    matching.isEmpty
                        ? "no group holds a photo matching \(selector.oneLine)"
                        : "\(selector.oneLine) matches photos in \(matching.count) groups; give more digits")
            }
            group = matching[0]
        }
        var keeper = group.suggestedKeeper
        if let keep {
            let chosen = group.assets.filter { $0.rawValue.hasPrefix(keep.lowercased()) }
            guard chosen.count == 1 else {
                throw CLIError(
                    chosen.isEmpty
                        ? "no photo of the group matches \(keep.oneLine)" : "\(keep.oneLine) matches \(chosen.count) photos of the group; give more digits")
            }
            keeper = chosen[0]
        }
        let resolution = try await store.resolve(group, keeping: keeper)
        Console.line("kept \(resolution.kept.shortForm)\(marksColumn(fields(of: resolution.mergedAnnotations)))")
        if !resolution.joinedAlbums.isEmpty { Console.line("  now also in \(resolution.joinedAlbums.map(\.oneLine).joined(separator: ", "))") }
        for asset in resolution.setAside { Console.line("set aside \(asset.shortForm) (in \"\(AlbumStore.setAsideAlbumName)\")") }
        return 0
    }
}

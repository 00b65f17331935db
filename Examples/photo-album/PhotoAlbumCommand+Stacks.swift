import ExampleSupport
import Foundation
import ImageCodecs
import PhotoAlbum

extension PhotoAlbumCommand {
    /// `stacks`: each burst or pair, its photos in shot order, its cover.
    static func listStacks(in album: String?, json: Bool, store: AlbumStore) async throws -> Int32 {
        let stacks = try await store.stacks(in: album)
        let catalogue = try await catalogue(store)
        if json {
            let document: [[String: Any]] = stacks.enumerated().map { number, stack in
                [
                    "stack": number + 1, "kind": stack.kind.rawValue, "cover": stack.cover.rawValue, "coverChosen": stack.coverIsChosen,
                    "photos": stack.assets.map { asset -> [String: Any] in
                        let item = catalogue[asset]?.item
                        return [
                            "id": asset.rawValue, "name": item?.originalName ?? "", "format": item?.format.identifier ?? "",
                            "taken": item?.captureDate?.description ?? "", "cover": asset == stack.cover,
                        ]
                    },
                ]
            }
            Console.json(try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]))
            return 0
        }
        if stacks.isEmpty { Console.line("no bursts or pairs") }
        for (number, stack) in stacks.enumerated() {
            Console.line(
                "\(stack.kind.rawValue) \(number + 1): \(stack.assets.count) photos, cover \(stack.cover.shortForm)\(stack.coverIsChosen ? " (chosen)" : "")")
            for asset in stack.assets {
                guard let item = catalogue[asset]?.item else { continue }
                Console.line(
                    "  \(asset.shortForm)  \(asset == stack.cover ? "cover" : "     ")  \(item.format.identifier)  \(item.captureDate?.description ?? "")  \(item.originalName.oneLine)"
                )
            }
        }
        return 0
    }
}

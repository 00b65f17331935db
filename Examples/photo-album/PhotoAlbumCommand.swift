// photo-album: the app's own album from the command line.
// Any failure prints one line starting with "error:" and exits with status 1.

import ExampleSupport
import Foundation
import ImageCodecs
import PhotoAlbum

@main
struct PhotoAlbumCommand {
    static func main() async {
        await runCommandLineTool { arguments in try await run(try Arguments(arguments)) }
    }

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let store = try await AlbumStore.open(directory: arguments.store)
        // What opening found and mended (photos listed again, an index rebuilt), on
        // standard error so that --json output stays one document.
        for line in store.lastRepair.lines { Console.error("repaired: \(line)") }
        switch arguments.command {
        case .importFiles(let album, let paths, let json):
            try await ensureAlbum(album, in: store)
            var files: [String] = []
            for path in paths { files += expand(path, skipping: arguments.store) }
            return try await importFiles(files, into: album, store: store, json: json)
        case .list(let album, let json, let filter):
            let albums = try await store.albums().filter { album == nil || $0.name == album }
            if let album, albums.isEmpty { throw AlbumError.noSuchAlbum(album) }
            var rows: [[String: String]] = []
            for entry in albums {
                for item in try await store.items(in: entry.name, matching: filter) {
                    rows.append(
                        Self.fields(of: item.annotations).merging([
                            "id": item.asset.rawValue, "album": entry.name, "position": "\(item.position)", "format": item.format.identifier,
                            "width": "\(item.orientedSize.width)", "height": "\(item.orientedSize.height)", "bytes": "\(item.byteCount)",
                            "name": item.originalName, "taken": item.captureDate?.description ?? "", "media": item.media.kind.rawValue,
                            "duration": item.media.duration.map(\.clock) ?? "",
                        ]) { $1 })
                }
            }
            if json {
                Console.json(try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys]))
            } else {
                for row in rows {
                    Console.line(
                        "\(row["id"]!.prefix(12))  \(row["album"]!.oneLine)#\(row["position"]!)  \(row["width"]!)x\(row["height"]!) \(row["format"]!) \(row["media"]!)\(row["duration"]!.isEmpty ? "" : " " + row["duration"]!)  \(row["name"]!.oneLine)  \(row["taken"]!)\(Self.marksColumn(row))"
                    )
                }
            }
            return 0
        case .mark(let ids, let change):
            for prefix in ids {
                let item = try await Self.item(matching: prefix, in: store)
                let marks = change.applied(to: item.annotations)
                try await store.annotate(item.asset, with: marks)
                Console.line("marked \(item.asset.shortForm)\(Self.marksColumn(Self.fields(of: marks)))")
            }
            return 0
        case .remove(let album, let ids):
            let albums = try await store.albums().map(\.name).filter { album == nil || $0 == album }
            for prefix in ids {
                var removed = false
                for name in albums {
                    let matches = try await store.items(in: name).filter { $0.asset.rawValue.hasPrefix(prefix.lowercased()) }
                    guard matches.count <= 1 else { throw CLIError("\(prefix) matches \(matches.count) photos in \(name); give more digits") }
                    if let match = matches.first {
                        try await store.remove(match.asset, from: name)
                        Console.line("removed \(match.asset.shortForm) from \(name.oneLine)")
                        removed = true
                    }
                }
                guard removed else { throw CLIError("no photo matches \(prefix)") }
            }
            return 0
        case .export(let ids, let album, let stacks, let folder, let policy, let rotation, let trims):
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var items: [AlbumItem] = []
            for prefix in ids { items.append(try await Self.item(matching: prefix, in: store)) }
            if let album { items = try await store.itemsToShare(in: album, stacks: stacks) }
            var used = Set<String>()
            for item in items {
                var name = (item.originalName as NSString).lastPathComponent
                if name.isEmpty || name.hasPrefix(".") { name = item.asset.shortForm }
                // Two photos of one name (two cameras' IMG_0001.JPG) do not overwrite each other.
                if used.contains(name.lowercased()) {
                    name = (name as NSString).deletingPathExtension + "-" + item.asset.shortForm + "." + (name as NSString).pathExtension
                }
                used.insert(name.lowercased())
                // A video's name says the container it is written in (a camcorder's 00001.MTS leaves as 00001.mp4).
                if case .video = item.media, rotation == nil {
                    name = (name as NSString).deletingPathExtension + "." + (try await store.motionFileExtension(of: item.asset, keeping: policy))
                }
                let path = "\(folder)/\(name)"
                try await store.export(item.asset, to: path, keeping: policy, rotatedBy: rotation, edges: trims ? .trim : .perfect)
                Console.line("exported \(item.asset.shortForm) to \(path.oneLine)")
                // A Live Photo's video goes beside its still, under the still's name, as a phone exports it.
                if case .livePhoto = item.media {
                    let motion =
                        (path as NSString).deletingPathExtension + "." + (try await store.motionFileExtension(of: item.asset, keeping: policy)).uppercased()
                    let report = try await store.exportMotion(of: item.asset, to: motion, keeping: policy)
                    let removed = report.map { $0.removedTags.isEmpty ? "" : " (removed: \($0.removedTags.joined(separator: ", ")))" } ?? ""
                    Console.line("exported its video to \(motion.oneLine)\(removed.oneLine)")
                }
            }
            return 0
        case .check:
            let report = try await store.check()
            for note in report.notes { Console.line("note: \(note)") }
            for problem in report.problems { Console.line("problem: \(problem)") }
            Console.line(report.isConsistent ? "consistent: \(report.assetCount) photos" : "inconsistent: \(report.problems.count) problems")
            return report.isConsistent ? 0 : 1
        case .dupes(let album, let json):
            return try await listDuplicates(in: album, json: json, store: store)
        case .resolve(let group, let album, let keep):
            return try await resolveDuplicates(group, in: album, keeping: keep, store: store)
        case .stacks(let album, let json):
            return try await listStacks(in: album, json: json, store: store)
        case .publish(let album, let folder, let title, let baseURL, let json):
            return try await publish(album, to: folder, title: title, baseURL: baseURL, json: json, store: store)
        case .cover(let prefix):
            let item = try await Self.item(matching: prefix, in: store)
            guard try await store.stack(containing: item.asset) != nil else { throw CLIError("\(item.asset.shortForm) is in no burst or pair") }
            try await store.setCover(item.asset)
            Console.line("\(item.asset.shortForm) is its stack's cover")
            return 0
        case .pick(let source, let limit, let from, let album, let videos):
            // The library's index lives in the store, not in the user's folder.
            let indexName = String(from.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }, radix: 16)
            let library = try await FolderPhotoLibrary.open(root: from, indexPath: "\(arguments.store)/libraries/\(indexName).sqlite")
            let preference: [PhotoSourceKind] = source.map { [$0] } ?? [.camera, .photoLibrary]
            let session = PickerSession(
                configuration: PickerConfiguration(
                    sourcePreference: preference, selectionLimit: limit,
                    media: videos ? Set(AssetMediaKind.allCases) : PickerConfiguration.stills),
                sources: [CameraSource(), library]
            )
            switch try await session.run(with: TerminalPicker()) {
            case .cancelled:
                Console.line("cancelled")
            case .picked(let assets):
                try await ensureAlbum(album, in: store)
                var alreadyThere = 0
                for asset in assets {
                    switch try await store.add(asset, to: album) {
                    case .added(let item): Console.line("added \(item.asset.shortForm) \(asset.id.oneLine)")
                    case .alreadyInAlbum(let item):
                        alreadyThere += 1
                        Console.line("already in album \(item.asset.shortForm) \(asset.id.oneLine)")
                    }
                }
                Console.line("picked \(assets.count) into \(album.oneLine) (\(alreadyThere) already there)")
            }
            return 0
        }
    }

    static func importFiles(_ files: [String], into album: String, store: AlbumStore, json: Bool) async throws -> Int32 {
        var report = ImportReport(album: album)
        // A Live Photo's still and video go in as one item.
        let groups = await store.importGroups(for: files)
        var progress = Progress(total: groups.count, printsLines: !json)
        for group in groups {
            let path = group.paths[0]
            var entry: ImportReport.Entry
            do {
                let addition = try await store.importGroup(group, into: album)
                entry = .init(path: path, status: addition.isNew ? .added : .alreadyInAlbum, id: addition.item.asset.rawValue)
                entry.media = addition.item.media
            } catch .notAnImage(_, let reason) {
                entry = .init(path: path, status: .notAnImage, reason: reason.description)
            } catch .notPlayable(_, let reason) {
                entry = .init(path: path, status: .notPlayable, reason: reason)
            } catch .unreadableFile(_, let reason) {
                entry = .init(path: path, status: .unreadable, reason: reason)
            } catch .notALivePhoto(_, _, let reason) {
                entry = .init(path: path, status: .unreadable, reason: reason)
            }
            if case .livePhoto(_, let motion) = group { entry.motion = motion }
            report.entries.append(entry)
            progress.advance(entry.line)
        }
        if json {
            Console.json(try report.json())
        } else {
            Console.line(report.summary)
        }
        return report.count(.unreadable) == 0 ? 0 : 1
    }

    /// A listing's fields for a photo's marks: `rating`, `label` (its colour or text), `tags`.
    static func fields(of marks: PhotoAnnotations) -> [String: String] {
        ["rating": marks.rating.map(String.init) ?? "", "label": marks.colorLabel?.rawValue ?? marks.label ?? "", "tags": marks.tags.joined(separator: ", ")]
    }

    /// A listing's marks: `  ★4 green [Paris, holiday]`, empty when unmarked.
    static func marksColumn(_ row: [String: String]) -> String {
        var parts: [String] = []
        if let rating = row["rating"], !rating.isEmpty { parts.append(rating == "-1" ? "rejected" : "★" + rating) }
        if let label = row["label"], !label.isEmpty { parts.append(label.oneLine) }
        if let tags = row["tags"], !tags.isEmpty { parts.append("[\(tags.oneLine)]") }
        return parts.isEmpty ? "" : "  " + parts.joined(separator: " ")
    }

    /// The one item whose id starts with `prefix`, in any album.
    static func item(matching prefix: String, in store: AlbumStore) async throws -> AlbumItem {
        var found: [AssetID: AlbumItem] = [:]
        for album in try await store.albums() {
            for item in try await store.items(in: album.name) where item.asset.rawValue.hasPrefix(prefix.lowercased()) { found[item.asset] = item }
        }
        guard found.count == 1, let item = found.values.first else {
            throw CLIError(found.isEmpty ? "no photo matches \(prefix.oneLine)" : "\(prefix.oneLine) matches \(found.count) photos; give more digits")
        }
        return item
    }

    static func ensureAlbum(_ name: String, in store: AlbumStore) async throws {
        if try await !store.albums().contains(where: { $0.name == name }) { try await store.createAlbum(named: name) }
    }

    /// Files under a path (recursively for folders, hidden entries and the
    /// store's own folder skipped), sorted.
    static func expand(_ path: String, skipping store: String) -> [String] {
        let storeFolder = URL(fileURLWithPath: store).standardizedFileURL.resolvingSymlinksInPath().path
        var isFolder: ObjCBool = false
        // A missing path is reported as unreadable with the other files.
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let full = "\(path)/\(relative)"
            let resolved = URL(fileURLWithPath: full).standardizedFileURL.resolvingSymlinksInPath().path
            if resolved == storeFolder || resolved.hasPrefix(storeFolder + "/") { continue }
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &folder), !folder.boolValue { files.append(full) }
        }
        return files.sorted()
    }
}

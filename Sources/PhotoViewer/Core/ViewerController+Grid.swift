import Foundation
import ImageCodecs
public import PhotoBrowser

/// The grid's thumbnails in memory, fitted to the cell's box, within a byte budget.
struct GridPictures {
    /// Fitted thumbnails (or `nil`: there is none) by photo id and box.
    private(set) var pictures: [String: Bitmap?] = [:]
    /// The loads running.
    var loading: [String: Task<Void, Never>] = [:]
    /// Placeholders drawn for cells whose thumbnail is still being made.
    private(set) var placeholders: [String: Bitmap] = [:]
    private var bytes = 0
    /// At most this many bytes of pictures are kept (about 340 cells of 128×128).
    let budget = 16 << 20

    /// How the cells are drawn.
    var cells = GridCells.fill(.attention)

    func key(_ photo: BrowserPhoto, _ box: PixelSize) -> String { "\(box.width)x\(box.height)\(cells)@\(photo.id)" }

    /// Keeps `picture` for `key`; over the budget, drops everything but `keeping`.
    mutating func store(_ picture: Bitmap?, for key: String, keeping: Set<String>) {
        pictures[key] = .some(picture)
        placeholders[key] = nil
        bytes += picture.map { $0.bytesPerRow * $0.height } ?? 0
        guard bytes > budget else { return }
        pictures = pictures.filter { keeping.contains($0.key) }
        bytes = pictures.values.reduce(0) { $0 + ($1.map { $0.bytesPerRow * $0.height } ?? 0) }
    }

    /// `photo`'s placeholder drawn for the cell's box, once per key; `nil`
    /// when the photo has none. At most 512 are kept (a few screens).
    mutating func placeholder(for key: String, photo: BrowserPhoto, box: PixelSize) -> Bitmap? {
        if let drawn = placeholders[key] { return drawn }
        let picture: Bitmap? =
            switch cells {
            case .fit: photo.placeholderPicture(fitting: box)
            case .fill: photo.placeholderPicture(filling: box)
            }
        guard let drawn = picture else { return nil }
        if placeholders.count >= 512 { placeholders.removeAll(keepingCapacity: true) }
        placeholders[key] = drawn
        return drawn
    }
}

extension ViewerController {
    /// Uses `thumbnailer` for the grid's thumbnails of files (by default
    /// one with no disk cache; `Thumbnailer(cache: .standard())` shares
    /// the desktop's).
    public func setThumbnailer(_ thumbnailer: Thumbnailer) {
        self.thumbnailer = thumbnailer
    }

    /// How the grid's square cells show their photos: by default
    /// ``GridCells/fill(_:)`` with ``ImageCore/CropStrategy/attention``,
    /// each cell covered and the photo cropped to what draws the eye;
    /// ``GridCells/fit`` shows whole photos, letterboxed.
    public func setGridCells(_ cells: GridCells) {
        guard cells != gridPictures.cells else { return }
        gridPictures.cells = cells
        if grid != nil { requestRedraw() }
    }

    /// How the grid's cells show their photos (``setGridCells(_:)``).
    public var gridCells: GridCells { gridPictures.cells }

    /// Whether the thumbnail grid is shown.
    public var isShowingGrid: Bool { grid != nil }

    /// Shows the grid, the shown photo selected.
    func openGrid() async {
        let pager = await session.pager
        grid = GridLayout(viewport: Self.pixels(pager.settings), count: await collection.count, selection: pager.index)
        message = nil
    }

    /// Lays the grid out again for the engine's viewport (a new size or pixel density), keeping the selection.
    func relayoutGrid() async {
        guard let layout = grid else { return }
        let settings = await session.pager.settings
        grid = GridLayout(viewport: Self.pixels(settings), count: layout.count, selection: layout.selection)
    }

    /// The viewport of `settings` in screen pixels.
    private static func pixels(_ settings: BrowserPager.Settings) -> PixelSize {
        PixelSize(
            width: max(1, Int((Double(settings.viewportSize.width) * settings.screenScale).rounded())),
            height: max(1, Int((Double(settings.viewportSize.height) * settings.screenScale).rounded())))
    }

    /// Leaves the grid for the photo at `index`.
    private func openPhoto(_ index: Int) async -> Response {
        grid = nil
        do { try await session.showPage(index) } catch { message = "\(error)" }
        return .redraw
    }

    /// The grid's answer to a key that moves the selection; `nil` for other keys.
    func moveSelection(for key: ViewerKey) async -> Response? {
        guard var layout = grid else { return nil }
        let step: Int
        switch key {
        case .right, .shiftRight, .character("l"), .character("n"): step = 1
        case .left, .shiftLeft, .backspace, .character("h"), .character("p"): step = -1
        case .down, .character("j"): step = layout.columns
        case .up, .character("k"): step = -layout.columns
        case .pageDown, .space: step = layout.columns * layout.rows
        case .pageUp: step = -layout.columns * layout.rows
        case .home: step = -layout.selection
        case .end: step = layout.count - 1 - layout.selection
        default: return nil
        }
        let before = layout.selection
        layout.select(before + step)
        grid = layout
        return layout.selection == before ? .unchanged : .redraw
    }

    /// A command in the grid; `nil` when it means what it means on a photo.
    func performInGrid(_ command: ViewerCommand) async -> Response? {
        guard var layout = grid else { return nil }
        let pager = await session.pager
        let scale = pager.settings.screenScale
        func index(at point: CGPoint) -> Int? {
            layout.index(atX: Int((Double(point.x) * scale).rounded(.down)), y: Int((Double(point.y) * scale).rounded(.down)))
        }
        switch command {
        case .toggleGrid: return await openPhoto(layout.selection)
        case .toggleZoom(let point):
            // A double click opens the photo under it.
            guard let index = index(at: point) else { return .unchanged }
            return await openPhoto(index)
        case .click(let point):
            guard let index = index(at: point), index != layout.selection else { return .unchanged }
            layout.select(index)
            grid = layout
            return .redraw
        case .next, .previous, .first, .last:
            let target =
                switch command {
                case .next: layout.selection + 1
                case .previous: layout.selection - 1
                case .first: 0
                default: layout.count - 1
                }
            layout.select(target)
            grid = layout
            return .redraw
        case .resize(let size):
            // The photo's engine follows the new size too, for when the grid closes.
            _ = try? await session.handle(.resize(size, safeAreaInsets: nil))
            await relayoutGrid()
            return .redraw
        case .zoom, .fit, .pan, .swipe, .pinch, .orient, .togglePlayback, .playMotion, .stepFrame, .seek, .showFrame: return .unchanged
        case .toggleMute: return nil
        case .quit, .toggleFullScreen, .toggleChrome, .toggleInfo, .toggleSlideshow, .cycleOrder: return nil
        }
    }

    /// The grid's frame: every visible cell's thumbnail if it is ready
    /// (missing ones start loading, the visible first, the next screen's
    /// behind them; each arrival asks for a redraw).
    func gridFrame(_ layout: GridLayout) async -> ViewerFrame {
        var layout = layout
        layout.updateCount(await collection.count)
        grid = layout
        let box = layout.thumbnailBox
        var cells: [Int: FrameCompositor.GridCell] = [:]
        var pending = 0
        var wanted: Set<String> = []
        let ahead = layout.visible.upperBound..<min(layout.count, layout.visible.upperBound + layout.columns * layout.rows)
        for index in Array(layout.visible) + Array(ahead) {
            guard let photo = try? await collection.photo(at: index) else {
                if layout.visible.contains(index) { cells[index] = .failed }
                continue
            }
            let key = gridPictures.key(photo, box)
            wanted.insert(key)
            if let picture = gridPictures.pictures[key] {
                if layout.visible.contains(index) { cells[index] = picture.map { .picture($0) } ?? .failed }
                continue
            }
            if layout.visible.contains(index) {
                // The index's placeholder hash, drawn at the photo's shape, until the thumbnail is made.
                cells[index] = gridPictures.placeholder(for: key, photo: photo, box: box).map { .placeholder($0) } ?? .pending
                pending += 1
            }
            loadThumbnail(photo, key: key, box: box, priority: layout.visible.contains(index) ? .userInitiated : .utility, keeping: wanted)
        }
        let now = await session.snapshot
        let selected = (try? await collection.photo(at: layout.selection)) ?? now.photo
        let pager = now.pager
        frameMade()
        let canvas = FrameCompositor.grid(layout, cells: cells)
        return ViewerFrame(
            index: layout.selection, count: layout.count, photo: selected,
            content: .grid(ViewerGrid(canvas: canvas, layout: layout, pending: pending, version: framesMade)),
            viewportSize: pager.settings.viewportSize, scale: pager.settings.screenScale, zoomPercent: 0, showsChrome: showsChrome,
            message: message, info: showsInfo ? await infoLines(for: selected) : nil)
    }

    /// Starts making `photo`'s thumbnail for `box` unless it is under way.
    private func loadThumbnail(_ photo: BrowserPhoto, key: String, box: PixelSize, priority: TaskPriority, keeping: Set<String>) {
        guard gridPictures.loading[key] == nil else { return }
        let (thumbnailer, cells) = (thumbnailer, gridPictures.cells)
        gridPictures.loading[key] = Task(priority: priority) { [weak self] in
            // A filled cell needs the photo to cover the box: its shorter side at the box's.
            let wanted = cells == .fit ? box : photo.displaySize.filling(box)
            let picture: Bitmap?
            switch photo.source {
            case .file(let path):
                let size = ThumbnailSize.covering(max(wanted.width, wanted.height))
                picture = try? await thumbnailer.thumbnail(forFileAt: path, size: size).bitmap
            default:
                picture = try? await photo.loadRendition(fitting: wanted)
            }
            var shaped: Bitmap?
            if let picture { shaped = await ImageWorkers.shared.run { cells.shape(picture, into: box) } }
            await self?.thumbnailArrived(shaped, key: key, keeping: keeping)
        }
    }

    private func thumbnailArrived(_ picture: Bitmap?, key: String, keeping: Set<String>) {
        gridPictures.loading[key] = nil
        gridPictures.store(picture, for: key, keeping: keeping)
        if grid != nil { requestRedraw() }
    }

    /// Waits until the grid's visible thumbnails are made (a viewer's
    /// single screen calls this once its size is set); returns at once
    /// when no grid is shown.
    public func waitForGridThumbnails() async {
        while let layout = grid {
            _ = await gridFrame(layout)
            let running = Array(gridPictures.loading.values)
            guard let box = grid?.thumbnailBox else { return }
            var missing = false
            for index in layout.visible {
                guard let photo = try? await collection.photo(at: index) else { continue }
                if gridPictures.pictures[gridPictures.key(photo, box)] == nil { missing = true }
            }
            guard missing, !running.isEmpty else { return }
            for task in running { await task.value }
        }
    }

    /// Opens the grid (for a viewer that starts in it: `--grid`).
    public func showGrid() async {
        if grid == nil { await openGrid() }
    }
}

extension GridCells {
    /// A thumbnail made into a cell's picture: fitted into `box` (never
    /// up), or scaled to cover it and cropped where the strategy chooses.
    func shape(_ thumbnail: Bitmap, into box: PixelSize) -> Bitmap {
        switch self {
        case .fit:
            let fitting = thumbnail.size.fitting(in: box)
            return fitting == thumbnail.size ? thumbnail : thumbnail.resized(to: fitting)
        case .fill(let strategy):
            return thumbnail.filling(box, crop: strategy)
        }
    }
}

import ImageCodecs
import Testing

@testable import PhotoBrowser

@Suite("Thumbnail grid layout")
struct GridLayoutTests {
    @Test("cells of a quarter of the shorter side (16 to 200 px), as many columns as fit, centred")
    func cells() {
        let window = GridLayout(viewport: PixelSize(width: 1280, height: 800), count: 100)
        #expect(window.cell == 200 && window.columns == 6 && window.rows == 4)
        #expect(window.visible == 0..<24)
        #expect(window.cellRect(for: 0)! == (x: 40, y: 0, side: 200))
        #expect(window.cellRect(for: 7)! == (x: 240, y: 200, side: 200))
        #expect(window.cellRect(for: 24) == nil)
        #expect(window.thumbnailBox == PixelSize(width: 176, height: 176))
        // An ANSI terminal's canvas: two pixels per row of cells.
        let terminal = GridLayout(viewport: PixelSize(width: 80, height: 46), count: 3)
        #expect(terminal.cell == 16 && terminal.columns == 5 && terminal.rows == 2)
        #expect(terminal.visible == 0..<3)
    }

    @Test("selecting scrolls the selection into view, and is clamped to the photos")
    func selection() {
        var grid = GridLayout(viewport: PixelSize(width: 1280, height: 800), count: 100, selection: 50)
        #expect(grid.selection == 50 && grid.topRow == 5 && grid.visible.contains(50))
        grid.select(0)
        #expect(grid.topRow == 0)
        grid.select(1000)
        #expect(grid.selection == 99 && grid.topRow == 13 && grid.visible == 78..<100)
        grid.select(-5)
        #expect(grid.selection == 0)
        grid.updateCount(3)
        grid.select(10)
        #expect(grid.selection == 2 && grid.count == 3)
        #expect(GridLayout(viewport: PixelSize(width: 100, height: 100), count: 0).visible.isEmpty)
    }

    @Test("a pixel finds its cell; the margins and the space past the last photo find none")
    func hitTesting() {
        var grid = GridLayout(viewport: PixelSize(width: 1280, height: 800), count: 30)
        #expect(grid.index(atX: 45, y: 10) == 0)
        #expect(grid.index(atX: 239, y: 399) == 6)
        #expect(grid.index(atX: 20, y: 10) == nil)
        #expect(grid.index(atX: 1250, y: 10) == nil)
        #expect(grid.index(atX: 1039, y: 799) == 22 && grid.index(atX: 1239, y: 799) == 23)
        grid.select(29)
        // Scrolled down by one row: the top-left cell is now photo 6, the bottom-right 29.
        #expect(grid.index(atX: 45, y: 10) == 6)
        #expect(grid.index(atX: 1239, y: 799) == 29)
        grid.updateCount(27)
        // The last row is short now: past photo 26 there is nothing.
        #expect(grid.index(atX: 1039, y: 799) == nil && grid.index(atX: 539, y: 799) == 26)
    }
}

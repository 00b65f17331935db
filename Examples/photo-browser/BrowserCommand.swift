import ExampleSupport
import Foundation
import PhotoBrowser

/// One step of a browsing script: what the user does next.
enum BrowserCommand: Equatable {
    case gesture(BrowserGesture, name: String)
    case next, previous, show
    case goto(Int)

    static let help = """
        commands (one per line on standard input, or as arguments):
          next | prev                 swipe to the next or previous page
          swipe DX[,DY[,VX,VY]]       a drag of DX,DY points ending at VX,VY points/s
          tap                         show or hide the chrome
          double-tap X,Y              zoom in on a point, or back to fit
          pinch SCALE[@X,Y]           pinch by SCALE around a point (default: the centre)
          pan DX,DY                   move the zoomed image
          resize WxH                  rotate or resize the viewport
          goto N                      jump to page N (1-based)
          show                        print the page again
          quit
        """

    /// Parses one command; `viewport` supplies the default pinch centre.
    init(parsing line: String, viewport: CGSize) throws(CLIError) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = words.first else { throw CLIError("empty command") }
        let argument = words.count > 1 ? words[1] : nil
        func numbers(_ text: String?, count: ClosedRange<Int>) throws(CLIError) -> [Double] {
            guard let text else { throw CLIError("\(verb) needs a value\n\(Self.help)") }
            let values = text.split(separator: ",").compactMap { Double($0) }
            guard count.contains(values.count), values.allSatisfy(\.isFinite) else { throw CLIError("cannot read '\(text)' for \(verb)") }
            return values
        }
        let centre = CGPoint(x: viewport.width / 2, y: viewport.height / 2)
        switch verb {
        case "next": self = .next
        case "prev", "previous": self = .previous
        case "show": self = .show
        case "tap": self = .gesture(.tap(at: centre), name: "tap")
        case "swipe":
            let v = try numbers(argument, count: 1...4)
            let translation = CGSize(width: v[0], height: v.count > 1 ? v[1] : 0)
            let velocity = CGSize(width: v.count > 2 ? v[2] : 0, height: v.count > 3 ? v[3] : 0)
            self = .gesture(.swipe(translation: translation, velocity: velocity), name: "swipe")
        case "double-tap":
            let v = try numbers(argument, count: 2...2)
            self = .gesture(.doubleTap(at: CGPoint(x: v[0], y: v[1])), name: "double-tap")
        case "pinch":
            guard let argument else { throw CLIError("pinch needs a scale") }
            let parts = argument.split(separator: "@", maxSplits: 1).map(String.init)
            let scale = try numbers(parts[0], count: 1...1)[0]
            guard scale > 0 else { throw CLIError("a pinch scale must be above 0") }
            let point = parts.count > 1 ? try numbers(parts[1], count: 2...2) : [Double(centre.x), Double(centre.y)]
            self = .gesture(.pinch(scale: scale, center: CGPoint(x: point[0], y: point[1])), name: "pinch")
        case "pan":
            let v = try numbers(argument, count: 2...2)
            self = .gesture(.pan(translation: CGSize(width: v[0], height: v[1])), name: "pan")
        case "resize":
            let size = try Self.size(argument ?? "")
            self = .gesture(.resize(size, safeAreaInsets: nil), name: "resize")
        case "goto":
            guard let number = argument.flatMap({ Int($0) }), number >= 1 else { throw CLIError("goto needs a page number from 1") }
            self = .goto(number - 1)
        default: throw CLIError("unknown command '\(verb)'\n\(Self.help)")
        }
    }

    /// Reads "WxH".
    static func size(_ text: String) throws(CLIError) -> CGSize {
        let size = try SizeArgument(text, what: "a size in points", range: 1...20_000)
        return CGSize(width: size.width, height: size.height)
    }
}

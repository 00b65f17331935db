import ExampleSupport
import Foundation
import PhotoAlbum
import Synchronization

/// The picker's user interface on a terminal: numbered photos, one command
/// a line (a number toggles, `crop N X Y W H`, `done`, `cancel`).
final class TerminalPicker: PickerInteraction {
    private let shownSources = Mutex(false)

    func nextAction(in state: PickerState) async -> PickerAction {
        if !shownSources.withLock({ shown in
            defer { shown = true }
            return shown
        }) {
            for skipped in state.skippedSources { Console.line("no \(skipped.kind): \(skipped.reason.oneLine); using the \(state.source)") }
        }
        if let notice = state.notice { Console.line("! \(notice.oneLine)") }
        for (index, candidate) in state.candidates.enumerated() {
            let mark = state.selection.firstIndex(of: candidate.id).map { "[\($0 + 1)]" } ?? "[ ]"
            let crop = state.crops[candidate.id].map { " crop \($0)" } ?? ""
            let kind = candidate.media.kind == .photo ? "" : "  \(candidate.media.kind.rawValue)"
            let length = candidate.media.duration.map { " \($0.clock)" } ?? ""
            let stack = candidate.stackFrames.isEmpty ? "" : "  cover of \(candidate.stackFrames.count)"
            Console.line("\(mark) \(index + 1). \(candidate.id.oneLine)  \(candidate.info.orientedSize)\(kind)\(length)\(stack)\(crop)")
        }
        let limit = state.selectionLimit == 0 ? "any number" : "up to \(state.selectionLimit)"
        Console.prompt("pick \(limit): a number toggles, 'crop N X Y W H', 'done', 'cancel' > ")
        guard let line = readLine() else { return .cancel }
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "done": return .confirm
        case "cancel", "q": return .cancel
        case "crop" where words.count == 6:
            let numbers = words.dropFirst().compactMap { Int($0) }
            guard numbers.count == 5, numbers[0] >= 1, numbers[0] <= state.candidates.count else { return .toggle("") }
            return .crop(state.candidates[numbers[0] - 1].id, CropRect(x: numbers[1], y: numbers[2], width: numbers[3], height: numbers[4]))
        case let word?:
            guard let number = Int(word), number >= 1, number <= state.candidates.count else { return .toggle(word) }
            return .toggle(state.candidates[number - 1].id)
        case nil: return .toggle("")
        }
    }
}

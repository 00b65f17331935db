// filter-bench: what muted words cost a timeline. Reads a filters file as
// weibo-client keeps it ({"mutedWords": [{"text", "wholeWord"}]}) and posts
// (one a line), then prints one JSON line: the seconds to read the words
// (JSON, folding once), to match every post (the automaton made on the
// first match), and how many posts were hidden. With --old, the rule as it
// was before (each word folded again and looked for alone, in turn) on the
// same input, for the side-by-side table. Build with -c release.
//
//   filter-bench FILTERS.json POSTS.txt [--old]

import Dispatch
import Foundation
import WeiboKit

func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

/// The rule before: every word folded again and searched alone, in the list's order.
func oldMatch(_ words: [WeiboMutedWord], in text: String) -> String? {
    func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    }
    let folded = fold(text)
    for word in words {
        let target = fold(word.text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !target.isEmpty else { continue }
        if folded.range(of: target) != nil { return word.text }
    }
    return nil
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: filter-bench FILTERS.json POSTS.txt [--old]\n".utf8))
    exit(2)
}
let posts = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").map(String.init)
let readStart = DispatchTime.now().uptimeNanoseconds
let filters = try JSONDecoder().decode(WeiboFilters.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[0])))
let readSeconds = seconds(since: readStart)
let matchStart = DispatchTime.now().uptimeNanoseconds
var hidden = 0
if arguments.contains("--old") {
    for text in posts where oldMatch(filters.mutedWords, in: text) != nil { hidden += 1 }
} else {
    for (index, text) in posts.enumerated() {
        let post = WeiboPost(id: String(index + 1), text: text, createdAt: nil, user: WeiboUser(id: "1", screenName: "x"))
        if filters.match(post) != nil { hidden += 1 }
    }
}
print(
    "{\"words\": \(filters.mutedWords.count), \"posts\": \(posts.count), \"readSeconds\": \(readSeconds), "
        + "\"matchSeconds\": \(seconds(since: matchStart)), \"hidden\": \(hidden)}")

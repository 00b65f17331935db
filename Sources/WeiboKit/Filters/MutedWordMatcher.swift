/// Every muted word of a list found in one pass over a text: an Aho–Corasick
/// automaton over the Unicode scalars of the words as matched (folded,
/// NFC), built once per list. A text costs one step per scalar (and one
/// per failure link taken, at most as many), whatever the number of words;
/// a match counts only where it starts and ends between two characters
/// (grapheme clusters), and, for a whole word, at a word boundary
/// (``WeiboMutedWord/isBoundary(between:and:)``).
///
/// Built from at most ``WeiboFilters/maxMutedWords`` words of at most
/// ``WeiboMutedWord/maxLength`` characters and
/// ``WeiboFilters/maxMutedCharacters`` scalars in all, so it holds at most
/// that many states.
struct MutedWordMatcher: Sendable {
    /// The goto function: the child of a state under a scalar, keyed `state << 21 | scalar`.
    private var edges = EdgeTable(capacity: 0)
    /// Each state's failure link: the longest proper suffix of its path that is a state.
    private var failure: [Int32] = [0]
    /// Each state's nearest state on its failure chain (itself excluded) where a word ends; 0 for none.
    private var outputLink: [Int32] = [0]
    /// The first word (its index in the list) ending at each state; -1 for none.
    private var firstWord: [Int32] = [-1]
    /// The next word ending at the same state (the same text muted plain and whole: at most two a state); -1 at the end.
    private var nextWord: [Int32] = []
    /// Each word's length in scalars and its rule.
    private var words: [(scalars: Int32, wholeWord: Bool)] = []
    /// The first and last characters of each whole word (what its boundaries are checked against), by word index.
    private var ends: [Int32: (first: Character, last: Character)] = [:]

    /// The automaton of `list` (each word's ``WeiboMutedWord/folded`` text); empty words match nothing.
    init(_ list: [WeiboMutedWord]) {
        nextWord = Array(repeating: -1, count: list.count)
        words.reserveCapacity(list.count)
        // At most one state a scalar: room for all of them at once, no rehashing as the trie grows.
        let capacity = list.reduce(1) { $0 + $1.folded.unicodeScalars.count }
        edges = EdgeTable(capacity: capacity)
        failure.reserveCapacity(capacity)
        outputLink.reserveCapacity(capacity)
        firstWord.reserveCapacity(capacity)
        // Each state's children as a list threaded through two arrays (no array a state), and its scalar.
        var firstChild: [Int32] = [-1]
        var nextSibling: [Int32] = [-1]
        var labels: [UInt32] = [0]
        firstChild.reserveCapacity(capacity)
        nextSibling.reserveCapacity(capacity)
        labels.reserveCapacity(capacity)
        for (index, word) in list.enumerated() {
            if word.wholeWord, let first = word.folded.first, let last = word.folded.last { ends[Int32(index)] = (first, last) }
            var state: Int32 = 0
            var length: Int32 = 0
            for scalar in word.folded.unicodeScalars {
                length += 1
                let key = Self.key(state, scalar)
                if let next = edges[key] {
                    state = next
                } else {
                    let next = Int32(failure.count)
                    edges.insert(key, next)
                    failure.append(0)
                    outputLink.append(0)
                    firstWord.append(-1)
                    labels.append(scalar.value)
                    firstChild.append(-1)
                    nextSibling.append(firstChild[Int(state)])
                    firstChild[Int(state)] = next
                    state = next
                }
            }
            words.append((length, word.wholeWord))
            // An empty word ends nowhere.
            guard length > 0 else { continue }
            // Words at one state keep the list's order (the lowest index is reported), and only
            // the first of each rule: a later copy can never be reported, so a list that repeats
            // a word 100,000 times costs a match no more than one that has it once.
            if firstWord[Int(state)] < 0 {
                firstWord[Int(state)] = Int32(index)
            } else {
                var tail = firstWord[Int(state)]
                var sameRule = words[Int(tail)].wholeWord == word.wholeWord
                while !sameRule, nextWord[Int(tail)] >= 0 {
                    tail = nextWord[Int(tail)]
                    sameRule = words[Int(tail)].wholeWord == word.wholeWord
                }
                if !sameRule { nextWord[Int(tail)] = Int32(index) }
            }
        }
        // Failure and output links, breadth first: a state's links follow from its parent's.
        var queue: [Int32] = []
        queue.reserveCapacity(failure.count)
        var rootChild = firstChild[0]
        while rootChild >= 0 {
            queue.append(rootChild)
            rootChild = nextSibling[Int(rootChild)]
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            var child = firstChild[Int(state)]
            while child >= 0 {
                defer { child = nextSibling[Int(child)] }
                let scalar = labels[Int(child)]
                var fallback = failure[Int(state)]
                var target: Int32 = 0
                while true {
                    if let next = edges[Self.key(fallback, scalar)], next != child {
                        target = next
                        break
                    }
                    if fallback == 0 { break }
                    fallback = failure[Int(fallback)]
                }
                failure[Int(child)] = target
                outputLink[Int(child)] = firstWord[Int(target)] >= 0 ? target : outputLink[Int(target)]
                queue.append(child)
            }
        }
    }

    private static func key(_ state: Int32, _ scalar: UInt32) -> UInt64 { UInt64(UInt32(bitPattern: state)) << 21 | UInt64(scalar) }

    private static func key(_ state: Int32, _ scalar: Unicode.Scalar) -> UInt64 { key(state, scalar.value) }

    /// Whether the automaton holds no word.
    var isEmpty: Bool { failure.count == 1 }

    /// The lowest index of a word of the list that occurs in `text` (already
    /// folded and normalised, ``WeiboMutedWord/fold(_:)``) under its rule,
    /// or `nil`.
    func firstMatch(in text: String) -> Int? { search(text).word }

    /// ``firstMatch(in:)`` and the automaton steps it took (a test's window on the cost).
    func search(_ text: String) -> (word: Int?, steps: Int) {
        var steps = 0
        guard !isEmpty, !text.isEmpty else { return (nil, 0) }
        // The text's characters, and for each scalar the character it belongs to and whether it starts it.
        let characters = Array(text)
        var owner: [Int32] = []
        var starts: [Bool] = []
        var scalars: [UInt32] = []
        for (index, character) in characters.enumerated() {
            for (offset, scalar) in character.unicodeScalars.enumerated() {
                scalars.append(scalar.value)
                owner.append(Int32(index))
                starts.append(offset == 0)
            }
        }
        var best: Int?
        var state: Int32 = 0
        for (position, scalar) in scalars.enumerated() {
            while true {
                steps += 1
                if let next = edges[Self.key(state, scalar)] {
                    state = next
                    break
                }
                if state == 0 { break }
                state = failure[Int(state)]
            }
            var ending = firstWord[Int(state)] >= 0 ? state : outputLink[Int(state)]
            while ending != 0 {
                var word = firstWord[Int(ending)]
                while word >= 0 {
                    if best.map({ Int(word) < $0 }) ?? true,
                        accepts(Int(word), endingAt: position, characters: characters, owner: owner, starts: starts)
                    {
                        best = Int(word)
                        if word == 0 { return (0, steps) }
                    }
                    word = nextWord[Int(word)]
                }
                ending = outputLink[Int(ending)]
            }
        }
        return (best, steps)
    }

    /// Whether word `index`, whose last scalar is at `position`, starts and
    /// ends between characters and, for a whole word, at word boundaries.
    private func accepts(_ index: Int, endingAt position: Int, characters: [Character], owner: [Int32], starts: [Bool]) -> Bool {
        let word = words[index]
        let start = position + 1 - Int(word.scalars)
        let end = position + 1
        guard start >= 0, starts[start], end == starts.count || starts[end] else { return false }
        guard word.wholeWord, let bounds = ends[Int32(index)] else { return true }
        let firstCharacter = Int(owner[start])
        let lastCharacter = Int(owner[position])
        let before = firstCharacter > 0 ? characters[firstCharacter - 1] : nil
        let after = lastCharacter + 1 < characters.count ? characters[lastCharacter + 1] : nil
        return WeiboMutedWord.isBoundary(between: before, and: bounds.first) && WeiboMutedWord.isBoundary(between: bounds.last, and: after)
    }
}

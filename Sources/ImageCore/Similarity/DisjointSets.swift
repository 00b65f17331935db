/// Elements `0 ..< count` joined into sets (union-find with path halving):
/// what groups near-duplicates and stacks photos, where a link found
/// between any two members joins their whole sets.
package struct DisjointSets {
    private var parent: [Int]

    /// `count` elements, each in a set of its own.
    package init(count: Int) {
        parent = Array(0..<count)
    }

    /// The representative of `element`'s set.
    package mutating func root(_ element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    /// Joins the sets of `a` and `b` (the smaller representative stays).
    package mutating func join(_ a: Int, _ b: Int) {
        let (x, y) = (root(a), root(b))
        if x != y { parent[max(x, y)] = min(x, y) }
    }

    /// Every set of two or more elements, each sorted, in the order of their first elements.
    package mutating func groups() -> [[Int]] {
        var members: [Int: [Int]] = [:]
        for element in parent.indices { members[root(element), default: []].append(element) }
        return members.values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }
}

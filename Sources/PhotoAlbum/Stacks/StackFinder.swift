import ImageCodecs

/// What the stacking rules read of one photo.
struct ShotRecord: Sendable {
    let asset: AssetID
    let name: String
    let format: String
    /// Make, model and body serial, joined; `nil` when the camera is unknown.
    let camera: String?
    /// Seconds since 1970 with the subseconds; `nil` without a capture date.
    let instant: Double?
    let uniqueID: String?

    /// The name up to its first dot, case folded: `IMG_0001` of `IMG_0001.HEIC`.
    var baseName: String { String(name.prefix { $0 != "." }).lowercased() }
}

/// Groups shots into stacks: pairs of one shot, bursts of one camera,
/// phones' burst names. Pure: the store feeds it and picks covers.
enum StackFinder {
    /// Each stack's members (indices into `shots`, in shot order) and its
    /// kind; stacks in the order of their first shots.
    static func stacks(of shots: [ShotRecord], rules: StackRules) -> [(kind: PhotoStack.Kind, members: [Int])] {
        var sets = DisjointSets(count: shots.count)
        func join(_ a: Int, _ b: Int) { sets.join(a, b) }

        // Pairs: one base name, other formats, one moment, one camera, one unique id where both have them.
        var pairLinks = Set<Int>()
        var byBase: [String: [Int]] = [:]
        for index in shots.indices { byBase[shots[index].baseName, default: []].append(index) }
        for members in byBase.values where members.count > 1 {
            for (position, a) in members.enumerated() {
                for b in members[(position + 1)...] where isPair(shots[a], shots[b], rules: rules) {
                    join(a, b)
                    pairLinks.formUnion([a, b])
                }
            }
        }
        // Shots: a pair counts once in a burst.
        var shotOf = Array(shots.indices)
        for index in shots.indices { shotOf[index] = sets.root(index) }

        // Bursts by camera and time: consecutive frames within the gap.
        var byCamera: [String: [Int]] = [:]
        for index in shots.indices {
            if let camera = shots[index].camera, shots[index].instant != nil { byCamera[camera, default: []].append(index) }
        }
        var burstLinks = Set<Int>()
        for members in byCamera.values {
            let ordered = members.sorted { (shots[$0].instant!, shots[$0].name) < (shots[$1].instant!, shots[$1].name) }
            for (a, b) in zip(ordered, ordered.dropFirst()) where shotOf[a] != shotOf[b] {
                guard shots[b].instant! - shots[a].instant! <= rules.burstGap else { continue }
                join(a, b)
                burstLinks.formUnion([a, b])
            }
        }
        // Bursts by the phone's names.
        var byBurstName: [String: Int] = [:]
        for index in shots.indices {
            guard let burst = BurstFileName(shots[index].name) else { continue }
            if let first = byBurstName[burst.base] {
                join(first, index)
                burstLinks.formUnion([first, index])
            } else {
                byBurstName[burst.base] = index
            }
        }

        return sets.groups().map { members in
            let ordered = members.sorted {
                (shots[$0].instant ?? .infinity, shots[$0].name, shots[$0].asset.rawValue) < (
                    shots[$1].instant ?? .infinity, shots[$1].name, shots[$1].asset.rawValue
                )
            }
            return (members.contains(where: burstLinks.contains) ? .burst : .pair, ordered)
        }.sorted {
            let (a, b) = (shots[$0.members[0]], shots[$1.members[0]])
            return (a.instant ?? .infinity, a.name, a.asset.rawValue) < (b.instant ?? .infinity, b.name, b.asset.rawValue)
        }
    }

    /// Whether two files are one shot.
    static func isPair(_ a: ShotRecord, _ b: ShotRecord, rules: StackRules) -> Bool {
        guard a.format != b.format else { return false }
        if let x = a.camera, let y = b.camera, x != y { return false }
        if let x = a.uniqueID, let y = b.uniqueID { return x == y }
        guard let x = a.instant, let y = b.instant else { return false }
        return abs(x - y) <= rules.pairTolerance
    }
}

import ImageCodecs

/// What the stacking rules read of one photo.
struct ShotRecord: Sendable {
    /// What tells two shots apart when all else is equal (an asset id, a path).
    let key: String
    let name: String
    let format: String
    /// Make, model and body serial, joined; `nil` when the camera is unknown.
    let camera: String?
    /// Seconds since 1970 with the subseconds; `nil` without a capture date.
    let instant: Double?
    let uniqueID: String?
    /// The burst the camera says the shot belongs to (an iPhone's `BurstUUID`).
    var burstID: String? = nil

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
                // Two bursts the camera told apart stay apart, however close in time.
                if let x = shots[a].burstID, let y = shots[b].burstID, x != y { continue }
                join(a, b)
                burstLinks.formUnion([a, b])
            }
        }
        // Bursts by the phone's names, and by the burst id an iPhone writes (frames of one
        // burst, however far apart: a long burst, or frames the phone kept a while later).
        var firstOfBurst: [String: Int] = [:]
        for index in shots.indices {
            let keys = [BurstFileName(shots[index].name).map { "name:" + $0.base }, shots[index].burstID.map { "id:" + $0 }]
            for key in keys.compactMap({ $0 }) {
                if let first = firstOfBurst[key] {
                    join(first, index)
                    burstLinks.formUnion([first, index])
                } else {
                    firstOfBurst[key] = index
                }
            }
        }

        return sets.groups().map { members in
            let ordered = members.sorted {
                (shots[$0].instant ?? .infinity, shots[$0].name, shots[$0].key) < (
                    shots[$1].instant ?? .infinity, shots[$1].name, shots[$1].key
                )
            }
            return (members.contains(where: burstLinks.contains) ? .burst : .pair, ordered)
        }.sorted {
            let (a, b) = (shots[$0.members[0]], shots[$1.members[0]])
            return (a.instant ?? .infinity, a.name, a.key) < (b.instant ?? .infinity, b.name, b.key)
        }
    }

    /// One frame as the cover rule sees it.
    struct CoverCandidate {
        let isJPEG: Bool
        /// `nil` when it could not be measured (it never wins on sharpness).
        let sharpness: ImageSharpness?
        /// Whether the phone named it its burst's cover (`…_COVER.jpg`).
        let isPhoneCover: Bool
    }

    /// The cover of a stack's members (in shot order): for a burst, the
    /// sharpest frame (``ImageSharpness/isBetterCover(than:)``: sharpness,
    /// then exposure); frames that tie go to the one the phone named its
    /// cover, then to a JPEG. For a pair, its JPEG (what shares
    /// everywhere), else its first file.
    static func coverIndex(of members: [CoverCandidate], kind: PhotoStack.Kind) -> Int {
        guard kind == .burst else { return members.firstIndex(where: \.isJPEG) ?? 0 }
        var best: (index: Int, sharpness: ImageSharpness)?
        for (index, member) in members.enumerated() {
            guard let sharpness = member.sharpness else { continue }
            guard let current = best else {
                best = (index, sharpness)
                continue
            }
            let challenger = members[current.index]
            let tie = !current.sharpness.isBetterCover(than: sharpness)
            if sharpness.isBetterCover(than: current.sharpness)
                || (tie && member.isPhoneCover && !challenger.isPhoneCover)
                || (tie && member.isPhoneCover == challenger.isPhoneCover && member.isJPEG && !challenger.isJPEG)
            {
                best = (index, sharpness)
            }
        }
        return best?.index ?? 0
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

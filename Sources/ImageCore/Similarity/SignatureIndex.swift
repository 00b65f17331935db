/// Signatures of many photos, to find one's near-duplicates among them
/// and to group them.
///
/// Candidates are the signatures whose hashes are within a Hamming
/// radius, found by a scan of the hashes held side by side (a `UInt64`
/// each: 10,000 of them take microseconds, far below what a BK-tree saves
/// at a radius this wide). Each candidate's 16×16 luma, kept normalised
/// beside its hash, is compared first: an unrelated picture is dismissed
/// there (a dot product of 256 numbers) before ``ImageSignature/match(_:)``
/// verifies the rest.
///
/// ```swift
/// var index = SignatureIndex<String>()
/// for (name, signature) in signatures { index.insert(signature, for: name) }
/// let copies = index.nearDuplicates(of: newPhoto)      // verified
/// let groups = index.groups()                          // [[name]], two or more each
/// ```
public struct SignatureIndex<ID: Hashable & Sendable>: Sendable {
    /// The hash radius within which a signature is a candidate: copies
    /// recompressed at quality 30, resized, transcoded or brightened stay
    /// well within it; a copy cropped by 8% on one side can sit up to 18
    /// bits away, and is then found through the group's other copies. A
    /// wider radius finds it directly but makes twenty times the candidates
    /// to verify (22 bits: 65 in 1,000 pairs of the benchmark's unrelated
    /// generated scenes; 16 bits: 3 in 1,000).
    public static var defaultRadius: Int { 16 }

    private var ids: [ID] = []
    private var hashes: [UInt64] = []
    private var signatures: [ImageSignature] = []
    /// Each signature's ``ImageSignature/roughPlane``.
    private var roughs: [[Float]] = []
    private var positions: [ID: Int] = [:]

    /// An empty index.
    public init() {}

    /// How many signatures it holds.
    public var count: Int { ids.count }

    /// Adds `signature` under `id`, in place of one `id` had.
    public mutating func insert(_ signature: ImageSignature, for id: ID) {
        if let position = positions[id] {
            hashes[position] = signature.hash
            signatures[position] = signature
            roughs[position] = signature.roughPlane
            return
        }
        positions[id] = ids.count
        ids.append(id)
        hashes.append(signature.hash)
        signatures.append(signature)
        roughs.append(signature.roughPlane)
    }

    /// Removes `id`'s signature, if it has one.
    public mutating func remove(_ id: ID) {
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = ids.count - 1
        if position != last {
            ids[position] = ids[last]
            hashes[position] = hashes[last]
            signatures[position] = signatures[last]
            roughs[position] = roughs[last]
            positions[ids[position]] = position
        }
        ids.removeLast()
        hashes.removeLast()
        signatures.removeLast()
        roughs.removeLast()
    }

    /// The signature held for `id`.
    public func signature(for id: ID) -> ImageSignature? {
        positions[id].map { signatures[$0] }
    }

    /// The ids whose hashes are within `radius` bits of `signature`'s,
    /// nearest first (unverified: see ``nearDuplicates(of:excluding:)``).
    public func candidates(for signature: ImageSignature, within radius: Int = defaultRadius) -> [(id: ID, distance: Int)] {
        var found: [(position: Int, distance: Int)] = []
        let hash = signature.hash
        for position in hashes.indices {
            let distance = (hashes[position] ^ hash).nonzeroBitCount
            if distance <= radius { found.append((position, distance)) }
        }
        return found.sorted { ($0.distance, $0.position) < ($1.distance, $1.position) }.map { (ids[$0.position], $0.distance) }
    }

    /// The ids whose photos are near-duplicates of `signature`'s (verified
    /// candidates), nearest first; `excluding` leaves the photo itself out.
    public func nearDuplicates(of signature: ImageSignature, excluding excluded: ID? = nil) -> [ID] {
        let rough = signature.roughPlane
        let query = ImageSignature.Prepared(signature)
        return candidates(for: signature).compactMap { candidate in
            guard candidate.id != excluded, let position = positions[candidate.id], ImageSignature.mayMatch(rough, roughs[position]),
                ImageSignature.match(query, ImageSignature.Prepared(signatures[position], upTo32: false)).isNearDuplicate
            else { return nil }
            return candidate.id
        }
    }

    /// Every group of two or more near-duplicates: photos joined by a
    /// verified match, directly or through others. Each group lists its
    /// ids in the index's order (the order of insertion, until a removal
    /// moves the last id into the removed one's place); groups come in the
    /// order of their first id.
    public func groups() -> [[ID]] {
        var sets = DisjointSets(count: ids.count)
        let radius = Self.defaultRadius
        for first in hashes.indices {
            let hash = hashes[first]
            // Made once for all of its candidates, and only when one gets this far.
            var prepared: ImageSignature.Prepared?
            for second in (first + 1)..<hashes.count where (hashes[second] ^ hash).nonzeroBitCount <= radius {
                guard sets.root(first) != sets.root(second), ImageSignature.mayMatch(roughs[first], roughs[second]) else { continue }
                let mine = prepared ?? ImageSignature.Prepared(signatures[first])
                prepared = mine
                guard ImageSignature.match(mine, ImageSignature.Prepared(signatures[second], upTo32: false)).isNearDuplicate else { continue }
                sets.join(first, second)
            }
        }
        return sets.groups().map { $0.map { ids[$0] } }
    }
}

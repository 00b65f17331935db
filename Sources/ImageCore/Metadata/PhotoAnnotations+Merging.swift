extension PhotoAnnotations {
    /// These marks with those of `others` merged in, as a duplicate that is
    /// kept takes the marks of the copies set aside:
    ///
    /// - the **highest rating** of all (a rejection, −1, only when nothing is rated higher);
    /// - the **colour label** and the **text label**: these marks', else the first other's that has one;
    /// - the **pick**: accepted when any is accepted (a favourite stays a
    ///   favourite), else these marks', else the first other's;
    /// - the **tags** and **tag paths**: these marks' first, then every other's not yet there.
    ///
    /// ```swift
    /// let kept = keeper.merging([copy1, copy2])
    /// ```
    public func merging(_ others: [PhotoAnnotations]) -> PhotoAnnotations {
        var merged = self
        let all = [self] + others
        merged.rating = all.compactMap(\.rating).max()
        merged.colorLabel = all.lazy.compactMap(\.colorLabel).first
        merged.label = all.lazy.compactMap(\.label).first
        merged.pick = all.contains { $0.pick == .accepted } ? .accepted : all.lazy.compactMap(\.pick).first
        for other in others {
            for tag in other.tags where !merged.tags.contains(tag) { merged.tags.append(tag) }
            for path in other.hierarchicalTags where !merged.hierarchicalTags.contains(path) { merged.hierarchicalTags.append(path) }
        }
        return merged
    }
}

extension ShareProvider {
    /// Throws ``ShareError/invalidContent(_:)`` with every rule of
    /// ``constraints(for:)`` that prepared `content` breaks: the check a
    /// provider makes before it sends anything.
    ///
    /// ```swift
    /// func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
    ///     try validate(content, for: destination)
    ///     return try await send(content)
    /// }
    /// ```
    public func validate(_ content: PreparedContent, for destination: ShareDestination) throws(ShareError) {
        guard let rules = constraints(for: destination) else { return }
        let violations = rules.violations(of: ShareContent(content))
        guard violations.isEmpty else { throw .invalidContent(violations) }
    }
}

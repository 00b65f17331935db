extension Duration {
    /// The duration in (fractional) milliseconds.
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}

/// Hands the body of an answer to whoever started the request as it
/// arrives, through a task-local value: a download that is cut keeps what
/// came (see ``HTTPTransport/download(_:resumingFrom:retrying:clock:)``), a
/// progressive image decodes what came.
///
/// A transport reports the final answer of each attempt (never a
/// redirect's): ``Event/began(status:headers:)`` once its header is
/// complete, then each ``Event/bytes(_:)`` chunk in order. ``CurlTransport``
/// reports; a transport that does not simply leaves downloads whole-or-nothing.
public enum ResponseStream {
    /// What arrived.
    public enum Event: Sendable {
        /// An answer's header is complete (names lowercased): what follows
        /// is its body.
        case began(status: Int, headers: [String: String])
        /// The next bytes of the body.
        case bytes([UInt8])
    }

    /// Receives the events. Called on the transport's thread, in order:
    /// keep it short (copy the bytes, signal someone).
    public struct Observer: Sendable {
        private let handler: @Sendable (Event) -> Void

        /// Creates an observer.
        public init(_ handler: @escaping @Sendable (Event) -> Void) { self.handler = handler }

        /// Delivers `event`.
        public func deliver(_ event: Event) { handler(event) }
    }

    /// The observer of the request running in this task, if any.
    @TaskLocal public static var observer: Observer?
}

import Synchronization

/// A blocking reader for an async sequence: opened on the first request,
/// then stepped, behind a lock (a sequence's iterator asks one thing at a
/// time, each on whichever video worker runs it). After an error the
/// reader is dropped and every later step gives `nil`: a sequence ends
/// after its error, and a cancelled step leaves the reader midway.
final class LazyReader<Reader, Element: Sendable>: Sendable {
    private struct State {
        var reader: Reader?
        var failed = false
    }

    private let makeReader: @Sendable (VideoCancellation) throws(VideoError) -> Reader
    private let step: @Sendable (Reader, VideoCancellation) throws(VideoError) -> Element?
    private let state = Mutex(State())

    /// `open` makes the reader (and seeks it); `step` gives its next element.
    init(
        open makeReader: @escaping @Sendable (VideoCancellation) throws(VideoError) -> Reader,
        step: @escaping @Sendable (Reader, VideoCancellation) throws(VideoError) -> Element?
    ) {
        self.makeReader = makeReader
        self.step = step
    }

    /// The next element (on a worker thread); after an error, `nil`.
    func next(_ cancellation: VideoCancellation) throws(VideoError) -> Element? {
        try state.withLock { state throws(VideoError) -> Element? in
            guard !state.failed else { return nil }
            do throws(VideoError) {
                let reader: Reader
                if let opened = state.reader {
                    reader = opened
                } else {
                    reader = try makeReader(cancellation)
                    state.reader = reader
                }
                return try step(reader, cancellation)
            } catch {
                state.failed = true
                state.reader = nil
                throw error
            }
        }
    }

    /// Runs the next step on a video worker.
    func next() async throws(VideoError) -> Element? {
        try await VideoWorkers.run { cancellation throws(VideoError) -> Element? in try self.next(cancellation) }
    }
}

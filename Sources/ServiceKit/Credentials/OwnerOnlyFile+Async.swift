import Execution

extension OwnerOnlyFile {
    /// ``updateJSONMovingAsideUnreadable(at:empty:_:)`` from async code: the
    /// lock, the read and the flushed write run on the execution floor's
    /// threads, never on Swift's cooperative pool. `body` changes the value
    /// and returns what the caller wants of it (the value before, say).
    package static func updateJSONMovingAsideUnreadable<Value: Codable & Sendable, Answer: Sendable>(
        at path: String, empty: Value, returning body: @escaping @Sendable (inout Value) -> Answer
    ) async throws -> (answer: Answer, movedAside: (path: String, reason: String)?) {
        try await BlockingWork.run { () throws -> (answer: Answer, movedAside: (path: String, reason: String)?) in
            let update = try update(at: path, empty: empty, movingAsideUnreadable: true) { (value: inout Value) throws(Never) in body(&value) }
            return (update.result.get().answer, update.movedAside)
        }
    }
}

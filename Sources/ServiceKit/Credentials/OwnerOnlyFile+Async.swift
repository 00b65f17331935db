import Execution
import Foundation

extension OwnerOnlyFile {
    /// ``updateJSONMovingAsideUnreadable(at:empty:_:)`` from async code: the
    /// lock, the read and the flushed write run on the execution floor's
    /// threads, never on Swift's cooperative pool. `body` changes the value
    /// and returns what the caller wants of it (the value before, say).
    package static func updateJSONMovingAsideUnreadable<Value: Codable & Sendable, Answer: Sendable>(
        at path: String, empty: Value, returning body: @escaping @Sendable (inout Value) -> Answer
    ) async throws -> (answer: Answer, movedAside: (path: String, reason: String)?) {
        try await BlockingWork.run { () throws -> (answer: Answer, movedAside: (path: String, reason: String)?) in
            var answer: Answer?
            let update = try updateJSONMovingAsideUnreadable(at: path, empty: empty) { (value: inout Value) throws(Never) in
                answer = body(&value)
            }
            // The update runs the body whenever it returns (it throws otherwise).
            guard let answer else { throw CocoaError(.fileWriteUnknown) }
            return (answer, update.movedAside)
        }
    }
}

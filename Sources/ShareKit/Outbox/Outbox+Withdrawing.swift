public import Foundation
import SQLiteSupport

extension Outbox {
    /// Takes a share back unless it is being sent or was sent: `true` when
    /// it will never be sent under `id` (it was queued and is removed, or
    /// it was taken back before, or it is not here), `false` when it is
    /// being sent, was posted, failed or has an unknown outcome. What edits
    /// a scheduled share calls first.
    ///
    /// The id is remembered for 30 days: queuing it again is a no-op
    /// (``wasWithdrawn(_:)`` says so), so a caller that re-queues after a
    /// crash from a record it read before the share was taken back cannot
    /// bring it back to life.
    public func withdraw(_ id: UUID) throws(ShareError) -> Bool {
        do {
            let removed = try database.transaction { () throws -> Bool? in
                let row = try database.prepare("SELECT state FROM entries WHERE id = ?").bind(.text(id.uuidString))
                if try row.step(), row.text(0) != State.queued.rawValue { return nil }
                try database.prepare("DELETE FROM entries WHERE id = ?").bind(.text(id.uuidString)).run()
                let deleted = database.changedRowCount == 1
                try database.prepare("INSERT INTO withdrawn (id, at) VALUES (?, ?) ON CONFLICT(id) DO NOTHING")
                    .bind(.text(id.uuidString), .real(clock.now.timeIntervalSince1970)).run()
                return deleted
            }
            guard let removed else { return false }
            if removed { sweepVideos() }
            return true
        } catch {
            throw .storage(UnderlyingError(error, context: "the outbox cannot be updated"))
        }
    }

    /// Whether `id` was taken back with ``withdraw(_:)`` (in the last 30
    /// days): such an id is never queued again.
    public func wasWithdrawn(_ id: UUID) throws(ShareError) -> Bool {
        do {
            return try database.prepare("SELECT 1 FROM withdrawn WHERE id = ?").bind(.text(id.uuidString)).step()
        } catch {
            throw .storage(UnderlyingError(error, context: "the outbox cannot be read"))
        }
    }

    /// How long a withdrawn id is remembered, in seconds.
    static let withdrawalMemory: TimeInterval = 30 * 86_400
}

import Execution
public import Foundation
import SQLiteSupport
public import ServiceKit
import SystemSupport

/// The drafts of every account, in SQLite beside a folder of their
/// pictures (`PATH.pictures`). Every change is one committed, flushed
/// transaction, so a draft survives the process being killed at any
/// moment: it holds the last change that returned, or the one under way.
///
/// A draft is edited while ``WeiboDraft/State/editing``. Sending hands it
/// to ShareKit's outbox (WeiboShare's `WeiboDraftSender`), which posts it
/// at most once; it leaves the store only when the outbox says it was
/// posted.
///
/// ```swift
/// let drafts = try await WeiboDraftStore.open(path: "\(support)/drafts.sqlite")
/// var draft = try await drafts.create(account: uid)
/// draft = try await drafts.setText("今天的晚霞", of: draft.id)     // saved as typed
/// draft = try await drafts.addPicture(jpeg, to: draft.id)
/// ```
public actor WeiboDraftStore {
    /// The serial queue the store's SQLite, file and `fsync` calls run on,
    /// never a thread of Swift's cooperative pool.
    private let disk: DiskExecutor

    /// The store's jobs run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    /// The most pictures a draft holds (Weibo's apps take nine).
    public static let maxPictures = 9
    /// The largest picture a draft keeps (the share adapts it to Weibo's 5 MB).
    public static let maxPictureBytes = 20 * 1024 * 1024
    /// The longest text a draft keeps, in UTF-8 bytes (far past Weibo's
    /// 140 characters, which are checked when it is sent: a draft may be
    /// too long while it is written).
    public static let maxTextBytes = 64 * 1024

    private let database: SQLiteDatabase
    private let pictureFolder: String
    private let clock: any ServiceClock

    private static let schema = [
        """
        CREATE TABLE drafts (
            id TEXT PRIMARY KEY, account TEXT NOT NULL, text TEXT NOT NULL, pictures TEXT NOT NULL, target TEXT NOT NULL,
            target_post TEXT, scheduled_at REAL, state TEXT NOT NULL, last_error TEXT, outbox_id TEXT, updated_at REAL NOT NULL
        );
        CREATE INDEX drafts_by_account ON drafts (account, updated_at);
        """
    ]

    /// Opens (creating) the store at `path`.
    ///
    /// Blocks the calling thread: async code opens the store with
    /// ``open(path:clock:)``.
    @available(*, noasync, message: "open it with `await WeiboDraftStore.open(...)`, which does not block Swift's cooperative pool")
    public init(path: String, clock: any ServiceClock = SystemClock()) throws(WeiboError) {
        try self.init(path: path, clock: clock, disk: DiskExecutor(label: "photodeck.weibo-drafts"))
    }

    /// Opens the store on its own serial queue, away from Swift's
    /// cooperative pool (opening reads and may write the disk, and may wait
    /// for another process's lock).
    ///
    /// ```swift
    /// let drafts = try await WeiboDraftStore.open(path: "drafts.sqlite")
    /// ```
    public static func open(path: String, clock: any ServiceClock = SystemClock()) async throws(WeiboError) -> WeiboDraftStore {
        let disk = DiskExecutor(label: "photodeck.weibo-drafts")
        return try await disk.run { () throws(WeiboError) -> WeiboDraftStore in try WeiboDraftStore(path: path, clock: clock, disk: disk) }
    }

    /// WeiboDraftStore's opening, on `disk`'s queue.
    init(path: String, clock: any ServiceClock, disk: DiskExecutor) throws(WeiboError) {
        self.disk = disk
        self.clock = clock
        pictureFolder = path + ".pictures"
        database = try SQLiteDatabase.weiboStore(at: path, schema: Self.schema, what: "the drafts")
    }

    // MARK: Reading

    /// The drafts of `account`, the most recently changed first.
    public func drafts(account: String) throws(WeiboError) -> [WeiboDraft] {
        try storage { try select("WHERE account = ? ORDER BY updated_at DESC, rowid DESC", .text(account)) }
    }

    /// The draft with `id`.
    public func draft(_ id: UUID) throws(WeiboError) -> WeiboDraft {
        try storage { try draftRow(id) }
    }

    /// Every draft handed to the outbox, of every account (what a sender reconciles).
    public func queuedDrafts() throws(WeiboError) -> [WeiboDraft] {
        try storage { try select("WHERE state = ?", .text(WeiboDraft.State.queued.rawValue)) }
    }

    /// The bytes of a draft's picture, checked against the digest it is
    /// named by (a file changed behind the store's back is an error).
    public func bytes(of picture: WeiboDraftPicture) throws(WeiboError) -> [UInt8] {
        guard picture.isWellFormed else { throw .storage(UnderlyingError(message: "a draft names a picture the store cannot have written")) }
        return try storage {
            try OwnedFolder.check(pictureFolder)
            let bytes = try RegularFile.contents(of: picturePath(picture.sha256), limit: picture.byteCount, followingSymlinks: false)
            guard bytes.count == picture.byteCount, Digest.sha256Hex(bytes) == picture.sha256 else {
                throw WeiboError.storage(UnderlyingError(message: "a draft's picture changed on disk"))
            }
            return bytes
        }
    }

    // MARK: Editing

    /// A new, empty draft of `account`, saved.
    public func create(account: String, text: String = "", target: WeiboDraft.Target = .post) throws(WeiboError) -> WeiboDraft {
        try Self.check(text: text, target: target)
        let draft = WeiboDraft(
            id: UUID(), account: account, text: text, pictures: [], target: target, scheduledAt: nil, state: .editing, lastError: nil, outboxID: nil,
            updatedAt: clock.now)
        try storage {
            try database.prepare(
                """
                INSERT INTO drafts (id, account, text, pictures, target, target_post, scheduled_at, state, last_error, outbox_id, updated_at)
                VALUES (?, ?, ?, '[]', ?, ?, NULL, ?, NULL, NULL, ?)
                """
            ).bind(
                .text(draft.id.uuidString), .text(account), .text(text), .text(Self.kind(of: target)), .optional(target.postID),
                .text(draft.state.rawValue), .real(draft.updatedAt.timeIntervalSince1970)
            ).run()
        }
        return draft
    }

    /// Replaces the text (call it as the user types: each call is saved).
    @discardableResult
    public func setText(_ text: String, of id: UUID) throws(WeiboError) -> WeiboDraft {
        try edit(id) { (draft) throws(WeiboError) in
            try Self.check(text: text, target: draft.target)
            draft.text = text
        }
    }

    /// Changes where the draft goes.
    @discardableResult
    public func setTarget(_ target: WeiboDraft.Target, of id: UUID) throws(WeiboError) -> WeiboDraft {
        try edit(id) { (draft) throws(WeiboError) in
            try Self.check(text: draft.text, target: target)
            draft.target = target
        }
    }

    /// Adds a picture (its bytes copied into the store, flushed, before the draft names it).
    @discardableResult
    public func addPicture(_ bytes: [UInt8], to id: UUID) throws(WeiboError) -> WeiboDraft {
        guard !bytes.isEmpty, bytes.count <= Self.maxPictureBytes else {
            throw .invalidArgument("a picture is 1 byte to \(Self.maxPictureBytes / 1_048_576) MB; this one is \(bytes.count) bytes")
        }
        let picture = WeiboDraftPicture(sha256: Digest.sha256Hex(bytes), byteCount: bytes.count)
        return try edit(id) { (draft) throws(WeiboError) in
            guard draft.pictures.count < Self.maxPictures else { throw .invalidArgument("a draft holds at most \(Self.maxPictures) pictures") }
            do {
                // The store's folder is its own: one replaced by a link is refused, never written through.
                try OwnedFolder.prepare(pictureFolder)
                try DurableFile.write(bytes, to: picturePath(picture.sha256), mode: 0o600)
            } catch {
                throw .storage(UnderlyingError(error, context: "keeping a draft's picture"))
            }
            draft.pictures.append(picture)
        }
    }

    /// Removes the picture at `index`.
    @discardableResult
    public func removePicture(at index: Int, from id: UUID) throws(WeiboError) -> WeiboDraft {
        let draft = try edit(id) { (draft) throws(WeiboError) in
            guard draft.pictures.indices.contains(index) else { throw .invalidArgument("the draft has no picture \(index + 1)") }
            draft.pictures.remove(at: index)
        }
        sweepPictures()
        return draft
    }

    /// Sets the time the draft goes out by itself (`nil`: not scheduled).
    /// Scheduling takes effect when the draft is handed to the outbox.
    @discardableResult
    public func setSchedule(_ time: Date?, of id: UUID) throws(WeiboError) -> WeiboDraft {
        try edit(id) { draft in draft.scheduledAt = time }
    }

    /// Deletes a draft that is not in the outbox.
    public func delete(_ id: UUID) throws(WeiboError) {
        let draft = try draft(id)
        guard draft.state != .queued else { throw .invalidArgument("the draft is queued to be sent; take it back from the outbox first") }
        try remove(id)
    }

    // MARK: Sending

    /// Marks the draft queued and returns the outbox id it is sent under:
    /// saved here before the outbox hears of it, and the same id every
    /// time, so queuing again after a crash never queues twice.
    public func beginSending(_ id: UUID) throws(WeiboError) -> WeiboDraft {
        try storage {
            try database.transaction {
                var draft = try self.draftRow(id)
                switch draft.state {
                case .queued: return draft
                case .outcomeUnknown, .editing:
                    draft.outboxID = draft.outboxID ?? UUID()
                    draft.state = .queued
                    draft.lastError = nil
                    draft.updatedAt = clock.now
                    try save(draft)
                    return draft
                }
            }
        }
    }

    /// The draft is back to being written (the outbox refused it, or it
    /// was taken back): `reason` says why, and the next send queues it anew.
    ///
    /// With `outboxID`, only a draft still queued under that id changes
    /// (another process may have taken it back and queued it anew since
    /// the caller looked); otherwise the draft is returned unchanged.
    @discardableResult
    public func returnToEditing(_ id: UUID, reason: String?, sentUnder outboxID: UUID? = nil) throws(WeiboError) -> WeiboDraft {
        try settle(id, as: .editing, reason: reason, sentUnder: outboxID)
    }

    /// The send's answer was lost: the draft stays, marked, with the reason
    /// (with `outboxID`, only if it is still queued under that id).
    @discardableResult
    public func markOutcomeUnknown(_ id: UUID, reason: String, sentUnder outboxID: UUID? = nil) throws(WeiboError) -> WeiboDraft {
        try settle(id, as: .outcomeUnknown, reason: reason, sentUnder: outboxID)
    }

    /// Ends a send: the draft leaves the outbox's hands in `state`, with `reason`.
    private func settle(_ id: UUID, as state: WeiboDraft.State, reason: String?, sentUnder outboxID: UUID?) throws(WeiboError) -> WeiboDraft {
        try storage {
            try database.transaction {
                var draft = try self.draftRow(id)
                if let outboxID, draft.state != .queued || draft.outboxID != outboxID { return draft }
                draft.state = state
                draft.outboxID = nil
                draft.lastError = reason
                draft.updatedAt = clock.now
                try save(draft)
                return draft
            }
        }
    }

    /// The draft was posted: it leaves the store (and its pictures, once no
    /// draft names them). With `outboxID`, only a draft queued under that id.
    public func markPosted(_ id: UUID, sentUnder outboxID: UUID? = nil) throws(WeiboError) {
        if let outboxID {
            try storage {
                try database.prepare("DELETE FROM drafts WHERE id = ? AND state = ? AND outbox_id = ?")
                    .bind(.text(id.uuidString), .text(WeiboDraft.State.queued.rawValue), .text(outboxID.uuidString)).run()
            }
            sweepPictures()
        } else {
            try remove(id)
        }
    }

    // MARK: Storage

    private func remove(_ id: UUID) throws(WeiboError) {
        try storage { try database.prepare("DELETE FROM drafts WHERE id = ?").bind(.text(id.uuidString)).run() }
        sweepPictures()
    }

    private static let columns = "id, account, text, pictures, target, target_post, scheduled_at, state, last_error, outbox_id, updated_at"

    /// A row as a draft; a row no store could have written (a bad id,
    /// target or state, pictures that are not the store's) is left out.
    private static func draft(_ rows: SQLiteDatabase.Statement) -> WeiboDraft? {
        guard let id = UUID(uuidString: rows.text(0)), let state = WeiboDraft.State(rawValue: rows.text(7)),
            let pictures = try? JSONDecoder().decode([WeiboDraftPicture].self, from: Data(rows.text(3).utf8)),
            pictures.count <= maxPictures, pictures.allSatisfy({ $0.isWellFormed })
        else { return nil }
        let post = rows.optionalText(5)
        let target: WeiboDraft.Target
        switch (rows.text(4), post) {
        case ("post", _): target = .post
        case ("comment", let id?) where WeiboIdentifier.isValid(id): target = .comment(on: id)
        case ("repost", let id?) where WeiboIdentifier.isValid(id): target = .repost(of: id)
        default: return nil
        }
        return WeiboDraft(
            id: id, account: rows.text(1), text: rows.text(2), pictures: pictures, target: target,
            scheduledAt: rows.isNull(6) ? nil : Date(timeIntervalSince1970: rows.double(6)), state: state, lastError: rows.optionalText(8),
            outboxID: rows.optionalText(9).flatMap(UUID.init(uuidString:)), updatedAt: Date(timeIntervalSince1970: rows.double(10)))
    }

    private static func kind(of target: WeiboDraft.Target) -> String {
        switch target {
        case .post: "post"
        case .comment: "comment"
        case .repost: "repost"
        }
    }

    private static func check(text: String, target: WeiboDraft.Target) throws(WeiboError) {
        guard text.utf8.count <= maxTextBytes else { throw .invalidArgument("a draft's text is at most \(maxTextBytes / 1024) KB") }
        if let id = target.postID { try WeiboAPI.checkID(id, "the post id") }
    }

    /// The drafts `clause` selects (rows no store could have written left out).
    private func select(_ clause: String, _ value: SQLiteValue) throws -> [WeiboDraft] {
        let rows = try database.prepare("SELECT \(Self.columns) FROM drafts \(clause)").bind(value)
        var found: [WeiboDraft] = []
        while try rows.step() { if let draft = Self.draft(rows) { found.append(draft) } }
        return found
    }

    private func draftRow(_ id: UUID) throws -> WeiboDraft {
        guard let draft = try select("WHERE id = ?", .text(id.uuidString)).first else {
            throw WeiboError.invalidArgument("there is no draft \(id.uuidString): it was sent or deleted")
        }
        return draft
    }

    /// Applies `change` to a draft being written, and saves it.
    private func edit(_ id: UUID, _ change: (inout WeiboDraft) throws(WeiboError) -> Void) throws(WeiboError) -> WeiboDraft {
        try storage {
            try database.transaction {
                var draft = try self.draftRow(id)
                guard draft.state == .editing || draft.state == .outcomeUnknown else {
                    throw WeiboError.invalidArgument("the draft is queued to be sent; take it back from the outbox to edit it")
                }
                try change(&draft)
                draft.updatedAt = clock.now
                try save(draft)
                return draft
            }
        }
    }

    private func save(_ draft: WeiboDraft) throws {
        let pictures = String(decoding: try JSONEncoder().encode(draft.pictures), as: UTF8.self)
        try database.prepare(
            """
            UPDATE drafts SET text = ?, pictures = ?, target = ?, target_post = ?, scheduled_at = ?, state = ?, last_error = ?, outbox_id = ?,
            updated_at = ? WHERE id = ?
            """
        ).bind(
            .text(draft.text), .text(pictures), .text(Self.kind(of: draft.target)), .optional(draft.target.postID),
            draft.scheduledAt.map { .real($0.timeIntervalSince1970) } ?? .null, .text(draft.state.rawValue), .optional(draft.lastError),
            .optional(draft.outboxID?.uuidString), .real(draft.updatedAt.timeIntervalSince1970), .text(draft.id.uuidString)
        ).run()
    }

    private func picturePath(_ sha256: String) -> String { "\(pictureFolder)/\(sha256).picture" }

    /// How old an unnamed picture must be before it is taken as garbage:
    /// another process may be between writing it and naming it.
    static let pictureGrace: TimeInterval = 3_600

    /// Removes pictures no draft names: only `<64 hex>.picture` files and
    /// the durable writer's temporaries, only older than ``pictureGrace``.
    private func sweepPictures() {
        guard FileSystem.kind(of: pictureFolder, followingSymlinks: false) == .folder, let items = try? FolderListing.items(in: pictureFolder) else {
            return
        }
        var named = Set<String>()
        do {
            let rows = try database.prepare("SELECT pictures FROM drafts")
            while try rows.step() {
                for picture in (try? JSONDecoder().decode([WeiboDraftPicture].self, from: Data(rows.text(0).utf8))) ?? [] { named.insert(picture.sha256) }
            }
        } catch {
            return
        }
        let oldest = Int64((clock.now.timeIntervalSince1970 - Self.pictureGrace) * 1e9)
        for item in items {
            let name = item.name
            let digest = name.hasSuffix(".picture") ? String(name.dropLast(8)) : ""
            let isPicture = WeiboDraftPicture(sha256: digest, byteCount: 0).isWellFormed
            let isTemporary = DurableFile.isTemporaryName(name) { $0.hasSuffix(".picture") }
            guard isPicture ? !named.contains(digest) : isTemporary else { continue }
            let path = "\(pictureFolder)/\(name)"
            guard let status = try? FileSystem.status(of: path, followingSymlinks: false), status.kind == .regular, status.modifiedNanoseconds < oldest
            else { continue }
            try? FileSystem.remove(path)
        }
    }

    private func storage<Value>(_ body: () throws -> Value) throws(WeiboError) -> Value {
        do {
            return try body()
        } catch let error as WeiboError {
            throw error
        } catch {
            throw .storage(UnderlyingError(error, context: "the drafts"))
        }
    }
}

import Execution
public import Foundation
import SQLiteSupport
import SystemSupport

/// A durable queue of shares, sent when the network and credentials allow.
///
/// Entries live in SQLite, so they survive a restart. Posting is
/// **at most once**, across tasks and processes: before a byte is sent, an
/// entry is claimed with one conditional update (`queued` to `sending`,
/// committed), and only the caller whose update changed the row sends it;
/// any number of overlapping ``process()`` calls, in one app or in several
/// processes on the same file, post each share once. A share whose outcome
/// is unknown (no answer, a 5xx, an answer that cannot be read), or that
/// was sending when the process died, becomes ``State/outcomeUnknown`` and
/// is never re-posted automatically; the app asks the user. Failures that
/// happened before anything was published (no network, not authorised, an
/// upload step that failed) are retried on a later ``process()``; a rate
/// limit's wait is honoured without spending an attempt.
///
/// A share's video is copied into the outbox's own folder beside its
/// database (`PATH.videos`, named by the video's SHA-256), so the share
/// survives the original being moved or deleted; a copy is removed once
/// no queued, sending or unknown-outcome entry needs it (and never a file
/// the outbox did not name).
///
/// Several processes may open one outbox: each holds a lock file of its
/// own beside the database while it is open (`PATH.live`), so an outbox
/// opening later turns into "outcome unknown" only the shares whose sender
/// is gone, never one another process is sending right now. A share can
/// wait for a time (``enqueue(_:to:account:id:notBefore:)``, a scheduled
/// post), and ``sendWhenDue(checkingEvery:)`` sends it then.
///
/// The outbox owns its shares: one stopped by a missing or expired
/// credential stays queued here and is not also held by the
/// ``ShareCenter``, so signing in again and calling ``process()`` sends it
/// once.
///
/// ```swift
/// let outbox = try await Outbox.open(path: "\(support)/outbox.sqlite", center: center, network: NetworkMonitors.system)
/// let id = try await outbox.enqueue(content, to: target)
/// await outbox.process()     // call when the app starts or re-authorises
/// let sender = Task { await outbox.sendWhenReachable() }   // and whenever the network comes back
/// ```
public actor Outbox {
    /// The serial queue the store's SQLite, file and `fsync` calls run on,
    /// never a thread of Swift's cooperative pool.
    private let disk: DiskExecutor

    /// The store's jobs run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    /// Where an entry stands.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// Waiting to be sent.
        case queued
        /// Being sent now (seen after a crash only until the next open).
        case sending
        /// Posted; ``Entry/postID`` holds the provider's id, when it gave one.
        case posted
        /// Maybe posted, maybe not: never retried automatically.
        case outcomeUnknown
        /// Failed for good (the content was refused, or retries ran out).
        case failed
    }

    /// One queued share.
    public struct Entry: Hashable, Sendable, Identifiable {
        /// Its identifier.
        public let id: UUID
        /// Where it goes.
        public let target: ShareTarget
        /// As which account.
        public let account: String?
        /// Where it stands.
        public let state: State
        /// How many times sending was tried.
        public let attempts: Int
        /// The last error or uncertainty, in words (no tokens).
        public let lastError: String?
        /// The provider's post id once posted.
        public let postID: String?
        /// Not sent before this time: a scheduled share's time, or the
        /// end of a rate limit's wait (`nil`: as soon as possible).
        public let notBefore: Date?
    }

    let database: SQLiteDatabase
    /// Where queued videos are kept: `PATH.videos`.
    let videoFolder: String
    private let center: ShareCenter
    private let network: any NetworkMonitor
    private let policy: UploadPolicy
    private let maxAttempts: Int
    let clock: any ServiceClock
    /// This outbox's name among the processes sharing the file: the
    /// `claimed_by` of what it sends.
    private let instance = UUID().uuidString
    /// Held for the outbox's life: while it is held, another process knows
    /// this one is alive and its `sending` entries are in flight, not lost.
    private let liveLock: FileLock?

    /// Opens (or creates) the outbox at `path`. Entries left `sending` by a
    /// previous process become ``State/outcomeUnknown``.
    ///
    /// Blocks the calling thread: async code opens the store with
    /// ``open(path:center:network:policy:maxAttempts:clock:)``.
    @available(*, noasync, message: "open it with `await Outbox.open(...)`, which does not block Swift's cooperative pool")
    public init(
        path: String, center: ShareCenter, network: any NetworkMonitor = NetworkMonitors.system,
        policy: UploadPolicy = UploadPolicy(), maxAttempts: Int = 5, clock: any ServiceClock = SystemClock()
    ) throws(ShareError) {
        try self.init(
            path: path, center: center, network: network, policy: policy, maxAttempts: maxAttempts, clock: clock, disk: DiskExecutor(label: "photodeck.outbox"))
    }

    /// Opens the store on its own serial queue, away from Swift's
    /// cooperative pool (opening reads and may write the disk, and may wait
    /// for another process's lock).
    ///
    /// ```swift
    /// let outbox = try await Outbox.open(path: "outbox.sqlite", center: center)
    /// ```
    public static func open(
        path: String, center: ShareCenter, network: any NetworkMonitor = NetworkMonitors.system,
        policy: UploadPolicy = UploadPolicy(), maxAttempts: Int = 5, clock: any ServiceClock = SystemClock()
    ) async throws(ShareError) -> Outbox {
        let disk = DiskExecutor(label: "photodeck.outbox")
        return try await disk.run { () throws(ShareError) -> Outbox in
            try Outbox(path: path, center: center, network: network, policy: policy, maxAttempts: maxAttempts, clock: clock, disk: disk)
        }
    }

    /// Outbox's opening, on `disk`'s queue.
    init(path: String, center: ShareCenter, network: any NetworkMonitor, policy: UploadPolicy, maxAttempts: Int, clock: any ServiceClock, disk: DiskExecutor)
        throws(ShareError)
    {
        self.disk = disk
        do {
            let database = try SQLiteDatabase.openStore(
                at: path,
                migrations: [
                    """
                    CREATE TABLE entries (
                        id TEXT PRIMARY KEY, provider TEXT NOT NULL, destination TEXT NOT NULL, display_name TEXT NOT NULL,
                        account TEXT, content BLOB NOT NULL, byte_count INTEGER NOT NULL, state TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, post_id TEXT, created_at REAL NOT NULL);
                    """,
                    // When a rate limit said to wait: not sent before this time.
                    "ALTER TABLE entries ADD COLUMN not_before REAL;",
                    // Which open outbox is sending an entry (its live lock's name).
                    "ALTER TABLE entries ADD COLUMN claimed_by TEXT;",
                    // Ids taken back: never queued again, so a stale re-queue cannot revive one.
                    "CREATE TABLE withdrawn (id TEXT PRIMARY KEY, at REAL NOT NULL);",
                ])
            self.database = database
            // The store's folders are its own: one replaced by a link is refused, never followed.
            let liveFolder = path + ".live"
            try OwnedFolder.prepare(liveFolder)
            let lock = try FileLock(path: "\(liveFolder)/\(instance).lock")
            guard try lock.tryLock() else { throw SystemError(operation: "locking", path: lock.path, reason: "a fresh lock file is held") }
            liveLock = lock
            try Self.settleAbandoned(database, liveFolder: liveFolder, own: instance)
            try database.prepare("DELETE FROM withdrawn WHERE at < ?").bind(.real(clock.now.timeIntervalSince1970 - Self.withdrawalMemory)).run()
        } catch {
            throw .storage(UnderlyingError(error, context: "the outbox at \(path) cannot be opened"))
        }
        videoFolder = path + ".videos"
        self.center = center
        self.network = network
        self.policy = policy
        self.maxAttempts = maxAttempts
        self.clock = clock
    }

    /// Entries left `sending` by an outbox that is gone (its process
    /// died: its live lock is free, or it never had one) become
    /// ``State/outcomeUnknown``; entries another live process is sending
    /// are left to it. Lock files of dead outboxes that no entry names are
    /// removed (only names an outbox makes: a UUID and `.lock`).
    private static func settleAbandoned(_ database: SQLiteDatabase, liveFolder: String, own: String) throws {
        func isAlive(_ claimant: String) -> Bool {
            guard claimant != own, UUID(uuidString: claimant)?.uuidString == claimant else { return claimant == own }
            let path = "\(liveFolder)/\(claimant).lock"
            guard FileSystem.kind(of: path, followingSymlinks: false) == .regular, let lock = try? FileLock(path: path) else { return false }
            // Free: its holder is gone (a lock dies with its process).
            return (try? lock.tryLock()) == false
        }
        let rows = try database.prepare("SELECT id, claimed_by FROM entries WHERE state = ?").bind(.text(State.sending.rawValue))
        var abandoned: [String] = []
        var inFlight = Set<String>()
        while try rows.step() {
            let claimant = rows.optionalText(1)
            if let claimant, isAlive(claimant) { inFlight.insert(claimant) } else { abandoned.append(rows.text(0)) }
        }
        for id in abandoned {
            try database.prepare("UPDATE entries SET state = ?, last_error = ? WHERE id = ? AND state = ?")
                .bind(.text(State.outcomeUnknown.rawValue), .text("the app stopped while this share was being sent"), .text(id), .text(State.sending.rawValue))
                .run()
        }
        // Only files a minute old: an outbox opening now creates its file a moment before it locks it.
        let settled = Int64((Date().timeIntervalSince1970 - 60) * 1e9)
        for item in (try? FolderListing.items(in: liveFolder)) ?? [] where item.name.hasSuffix(".lock") {
            let name = String(item.name.dropLast(5))
            let path = "\(liveFolder)/\(item.name)"
            guard name != own, UUID(uuidString: name)?.uuidString == name, !inFlight.contains(name),
                let status = try? FileSystem.status(of: path, followingSymlinks: false), status.kind == .regular, status.modifiedNanoseconds < settled,
                !isAlive(name)
            else { continue }
            try? FileSystem.remove(path)
        }
    }

    /// Queues a share; it is sent by the next ``process()``. A video is
    /// copied into the outbox first (a chunk at a time, flushed), so this
    /// takes as long as copying it.
    ///
    /// - Throws: ``ShareError/storage(_:)`` when the share or its video
    ///   cannot be stored (the video unreadable, the disk full).
    @discardableResult
    public func enqueue(_ content: ShareContent, to target: ShareTarget, account: String? = nil) throws(ShareError) -> UUID {
        try enqueue(content, to: target, account: account, id: UUID(), notBefore: nil)
    }

    /// Queues a share under an id the caller chose (and saved first), not
    /// sent before `notBefore` (a scheduled post). Queuing the same id again
    /// does nothing, so a caller that crashed between saving the id and
    /// hearing back can queue again without queuing twice; an id taken back
    /// with ``withdraw(_:)`` is not queued again.
    ///
    /// ```swift
    /// let id = UUID()
    /// try await saveBeforeQueuing(id)        // the caller's own record of the share first
    /// try await outbox.enqueue(content, to: weibo, id: id, notBefore: scheduledAt)
    /// ```
    @discardableResult
    public func enqueue(_ content: ShareContent, to target: ShareTarget, account: String? = nil, id: UUID, notBefore: Date?) throws(ShareError)
        -> UUID
    {
        do {
            var stored = StoredContent(content)
            if let video = content.video { stored.video = try keep(video) }
            let encoded = try JSONEncoder().encode(stored)
            let bytes = content.images.reduce(stored.video?.byteCount ?? 0) { total, image in
                if case .encoded(let data) = image { return total + data.count }
                return total + 4 * (image.bitmapPixelCount ?? 0)
            }
            try database.prepare(
                """
                INSERT INTO entries (id, provider, destination, display_name, account, content, byte_count, state, created_at, not_before)
                SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 WHERE NOT EXISTS (SELECT 1 FROM withdrawn WHERE id = ?1)
                ON CONFLICT(id) DO NOTHING
                """
            ).bind(
                .text(id.uuidString), .text(target.provider.rawValue), .text(target.destination.rawValue), .text(target.displayName),
                .optional(account), .blob([UInt8](encoded)), .int(bytes), .text(State.queued.rawValue), .real(clock.now.timeIntervalSince1970),
                notBefore.map { .real($0.timeIntervalSince1970) } ?? .null
            ).run()
        } catch {
            throw .storage(UnderlyingError(error, context: "the share cannot be queued"))
        }
        return id
    }

    /// Every entry, oldest first.
    public func entries() throws(ShareError) -> [Entry] {
        do {
            let rows = try database.prepare(
                """
                SELECT id, provider, destination, display_name, account, state, attempts, last_error, post_id, not_before FROM entries
                ORDER BY created_at, rowid
                """)
            var entries: [Entry] = []
            while try rows.step() {
                entries.append(
                    Entry(
                        id: UUID(uuidString: rows.text(0)) ?? UUID(),
                        target: ShareTarget(provider: ProviderID(rows.text(1)), destination: ShareDestination(rows.text(2)), displayName: rows.text(3)),
                        account: rows.optionalText(4), state: State(rawValue: rows.text(5)) ?? .failed, attempts: rows.int(6),
                        lastError: rows.optionalText(7), postID: rows.optionalText(8),
                        notBefore: rows.isNull(9) ? nil : Date(timeIntervalSince1970: rows.double(9))
                    ))
            }
            return entries
        } catch {
            throw .storage(UnderlyingError(error, context: "the outbox cannot be read"))
        }
    }

    /// Forgets an entry (after the user dealt with an unknown outcome, say).
    public func remove(_ id: UUID) throws(ShareError) {
        do {
            try database.prepare("DELETE FROM entries WHERE id = ?").bind(.text(id.uuidString)).run()
        } catch {
            throw .storage(UnderlyingError(error, context: "the outbox cannot be updated"))
        }
        sweepVideos()
    }

    /// When the next queued share is due (`nil`: none is queued; a past
    /// time: one is due now).
    public func nextDue() throws(ShareError) -> Date? {
        do {
            let row = try database.prepare("SELECT MIN(COALESCE(not_before, 0)) FROM entries WHERE state = ?").bind(.text(State.queued.rawValue))
            guard try row.step(), !row.isNull(0) else { return nil }
            return Date(timeIntervalSince1970: row.double(0))
        } catch {
            throw .storage(UnderlyingError(error, context: "the outbox cannot be read"))
        }
    }

    /// Sends each queued share when it is due (a scheduled share at its
    /// time, a rate-limited one when its wait ends), until the calling task
    /// is cancelled. It sleeps until the next due share, but at most
    /// `checkingEvery`, since another process may queue an earlier one: a
    /// share queued elsewhere goes out at most that long after its time.
    /// Several processes may run this on one file: each share is sent once.
    public func sendWhenDue(checkingEvery: Duration = .seconds(1)) async {
        let check = max(checkingEvery, .milliseconds(10))
        while !Task.isCancelled {
            _ = await process()
            var wait = check
            if let due = try? nextDue() {
                let until = due.timeIntervalSince(clock.now)
                if until > 0 { wait = min(wait, .milliseconds(Int64(min(until, 86_400) * 1_000) + 1)) } else { wait = min(wait, .milliseconds(50)) }
            }
            do {
                try await clock.sleep(for: wait)
            } catch {
                return
            }
        }
    }

    /// Sends queued shares each time the network path becomes one the
    /// upload policy allows (and once at the start), until the calling task
    /// is cancelled. Run it in a task of its own.
    public func sendWhenReachable() async {
        var previous: NetworkPath?
        for await path in network.pathUpdates() {
            defer { previous = path }
            guard path != previous, path != .unreachable else { continue }
            _ = await process(on: path)
        }
    }

    /// Tries to send every queued entry the network and policy allow, oldest
    /// first, and returns the entries afterwards.
    @discardableResult
    public func process() async -> [Entry] {
        await process(on: await network.currentPath())
    }

    private func process(on path: NetworkPath) async -> [Entry] {
        let now = clock.now.timeIntervalSince1970
        let queued: [(id: String, target: ShareTarget, account: String?, content: Data, bytes: Int, attempts: Int)]
        do {
            let rows = try database.prepare(
                """
                SELECT id, provider, destination, display_name, account, content, byte_count, attempts FROM entries
                WHERE state = ? AND (not_before IS NULL OR not_before <= ?) ORDER BY created_at, rowid
                """
            ).bind(.text(State.queued.rawValue), .real(now))
            var found: [(String, ShareTarget, String?, Data, Int, Int)] = []
            while try rows.step() {
                found.append(
                    (
                        rows.text(0), ShareTarget(provider: ProviderID(rows.text(1)), destination: ShareDestination(rows.text(2)), displayName: rows.text(3)),
                        // A stored count is a claim: one out of range reads as the last attempt, never an overflow below.
                        rows.optionalText(4), Data(rows.blob(5)), rows.int(6), min(max(0, rows.int(7)), maxAttempts)
                    ))
            }
            queued = found
        } catch {
            return (try? entries()) ?? []
        }
        for entry in queued {
            guard policy.allows(bytes: entry.bytes, on: path) else { continue }
            guard let stored = try? JSONDecoder().decode(StoredContent.self, from: entry.content) else {
                update(entry.id, state: .failed, error: "the stored content is unreadable")
                continue
            }
            var video: ShareVideo?
            if let kept = stored.video {
                guard let found = keptVideo(kept) else {
                    update(entry.id, state: .failed, error: "the outbox's copy of the video is missing or damaged")
                    continue
                }
                video = found
            }
            // Claimed (and committed) before the request goes out: only the
            // caller whose update changed the row sends it, and a crash from
            // here on can only make it "outcome unknown", never a double post.
            guard claim(entry.id, attempts: entry.attempts + 1, at: now) else { continue }
            do throws(ShareError) {
                switch try await center.shareFromOutbox(stored.content(video: video), to: entry.target, account: entry.account) {
                case .posted(let receipt): update(entry.id, state: .posted, error: nil, postID: receipt.postID)
                case .outcomeUnknown(let reason): update(entry.id, state: .outcomeUnknown, error: reason)
                }
            } catch {
                switch error {
                case .invalidContent, .rejected, .unknownTarget, .adaptationFailed, .cancelled, .partiallyPosted:
                    update(entry.id, state: .failed, error: error.description)
                case .rateLimited(let retryAfter):
                    // Nothing was sent: wait as told (the center fills in the provider's
                    // window when the provider did not say), and keep the attempt.
                    update(entry.id, state: .queued, error: error.description, attempts: entry.attempts)
                    postpone(entry.id, by: retryAfter ?? Self.unstatedRateLimitWait)
                default:
                    // Nothing was published (no network, not authorised, an upload step that
                    // failed; a publish's own 5xx is an unknown outcome, not an error): try
                    // again later, spending an attempt.
                    update(entry.id, state: entry.attempts + 1 >= maxAttempts ? .failed : .queued, error: error.description)
                }
            }
        }
        sweepVideos()
        return (try? entries()) ?? []
    }

    /// The wait after a rate limit that came with no wait at all (a
    /// provider used outside a ``ShareCenter``): never "again at once".
    static let unstatedRateLimitWait = Duration.seconds(60)

    /// Moves the entry from `queued` to `sending` if it is still queued and
    /// due; `true` only when this call changed it (a failed update is `false`: nothing is sent).
    private func claim(_ id: String, attempts: Int, at now: Double) -> Bool {
        do {
            try database.prepare(
                """
                UPDATE entries SET state = ?, last_error = NULL, attempts = ?, claimed_by = ?
                WHERE id = ? AND state = ? AND (not_before IS NULL OR not_before <= ?)
                """
            ).bind(.text(State.sending.rawValue), .int(attempts), .text(instance), .text(id), .text(State.queued.rawValue), .real(now)).run()
            return database.changedRowCount == 1
        } catch {
            return false
        }
    }

    private func postpone(_ id: String, by wait: Duration) {
        let until = clock.now.timeIntervalSince1970 + wait.inSeconds
        try? database.prepare("UPDATE entries SET not_before = ? WHERE id = ?").bind(.real(until), .text(id)).run()
    }

    private func update(_ id: String, state: State, error: String?, attempts: Int? = nil, postID: String? = nil) {
        try? database.prepare(
            """
            UPDATE entries SET state = ?, last_error = ?, attempts = COALESCE(?, attempts), post_id = COALESCE(?, post_id) WHERE id = ?
            """
        ).bind(.text(state.rawValue), .optional(error), .optional(attempts), .optional(postID), .text(id)).run()
    }
}

extension ShareImage {
    /// The pixels of a bitmap the outbox keeps raw (4 bytes each), `nil` for encoded bytes.
    var bitmapPixelCount: Int? {
        if case .bitmap(let bitmap) = self { return bitmap.size.pixelCount }
        return nil
    }
}

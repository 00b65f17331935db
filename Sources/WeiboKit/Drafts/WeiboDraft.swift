public import Foundation

/// Something the user is writing: a post, a comment on a post or a repost
/// of one, with its pictures and, when scheduled, the time it goes out.
/// Kept by a ``WeiboDraftStore``, which saves every change as it is made.
public struct WeiboDraft: Hashable, Sendable, Identifiable {
    /// Where a draft goes.
    public enum Target: Hashable, Sendable {
        /// A new post on the user's timeline.
        case post
        /// A comment on the post with this id.
        case comment(on: String)
        /// A repost of the post with this id.
        case repost(of: String)

        /// The post it answers, for a comment or a repost.
        public var postID: String? {
            switch self {
            case .post: nil
            case .comment(let id), .repost(let id): id
            }
        }
    }

    /// Where a draft stands.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// Being written: it can be edited, scheduled and sent.
        case editing
        /// Handed to the outbox (scheduled, or waiting for the network or
        /// a rate window): edits wait until it is taken back.
        case queued
        /// Sent, but no answer came: it may have been posted. Kept until the
        /// user decides (send again, or delete).
        case outcomeUnknown
    }

    /// The draft's id.
    public let id: UUID
    /// The account it is written as.
    public let account: String
    /// The text.
    public var text: String
    /// The pictures, in order (copies the store keeps).
    public var pictures: [WeiboDraftPicture]
    /// Where it goes.
    public var target: Target
    /// When it goes out by itself (`nil`: when sent).
    public var scheduledAt: Date?
    /// Where it stands.
    public var state: State
    /// Why the last send did not post it, in words.
    public var lastError: String?
    /// The outbox entry that sends it, once queued.
    public var outboxID: UUID?
    /// When it last changed.
    public var updatedAt: Date
}

/// A picture kept with a draft: the store's own copy, named by its SHA-256.
public struct WeiboDraftPicture: Hashable, Sendable, Codable {
    /// The SHA-256 of its bytes (lowercase hex): its file's name.
    public let sha256: String
    /// Its size in bytes.
    public let byteCount: Int

    /// Whether the digest is one the store could have written (64
    /// lowercase hex digits) and the size is possible.
    var isWellFormed: Bool {
        sha256.utf8.count == 64 && sha256.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            && (0...WeiboDraftStore.maxPictureBytes).contains(byteCount)
    }
}

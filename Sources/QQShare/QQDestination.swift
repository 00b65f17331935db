public import ShareKit

/// Where the QQ app puts a message: a QQ chat, the user's Qzone, QQ's
/// Favorites, or "My Computer" (the dataline to the user's own devices).
/// The SDK picks the first three with `cflag` bits
/// (`kQQAPICtrlFlagQQShareFavorites`, `kQQAPICtrlFlagQQShareDataline`) and
/// Qzone with its own call (`SendReqToQZone:`, Android's `shareToQzone` or
/// `publishToQzone`).
public enum QQDestination: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A chat the user picks in QQ (a friend or a group).
    case friend
    /// The user's Qzone.
    case qzone
    /// QQ's Favorites.
    case favorites
    /// "My Computer": the dataline to the user's own devices.
    case dataline

    /// The share destination: `session`, `timeline`, `favorites` or `dataline`.
    public var destination: ShareDestination {
        switch self {
        case .friend: .session
        case .qzone: .timeline
        case .favorites: .favorites
        case .dataline: Self.datalineDestination
        }
    }

    /// The destination "dataline".
    public static let datalineDestination = ShareDestination("dataline")

    /// The QQ destination of a share destination, if it has one.
    public init?(_ destination: ShareDestination) {
        guard let found = Self.allCases.first(where: { $0.destination == destination }) else { return nil }
        self = found
    }

    /// The `cflag` bits the SDK's request carries for it (`QQApiObject.cflag`).
    public var controlFlags: UInt64 {
        switch self {
        case .friend: 0x04  // kQQAPICtrlFlagQQShare
        case .qzone: 0x01  // kQQAPICtrlFlagQZoneShareOnStart
        case .favorites: 0x08  // kQQAPICtrlFlagQQShareFavorites
        case .dataline: 0x10  // kQQAPICtrlFlagQQShareDataline
        }
    }

    public var description: String { rawValue }

    /// The destination as QQ's screens name it.
    var displayName: String {
        switch self {
        case .friend: "a QQ chat"
        case .qzone: "Qzone"
        case .favorites: "QQ Favorites"
        case .dataline: "My Computer (the dataline)"
        }
    }
}

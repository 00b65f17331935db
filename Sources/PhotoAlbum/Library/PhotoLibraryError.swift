/// Everything that can go wrong opening or scanning a library.
public enum PhotoLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The root folder is missing or not a folder.
    case notAFolder(String)
    /// The index database failed.
    case index(DatabaseFailure)

    public var description: String {
        switch self {
        case .notAFolder(let path): "\(path) is not a folder"
        case .index(let error): "the library index failed: \(error)"
        }
    }
}

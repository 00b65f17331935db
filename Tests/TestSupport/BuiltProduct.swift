public import Foundation

/// The executables the package builds beside the test bundle (the
/// examples, the test tools), for tests that run them as processes.
public enum BuiltProduct {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable `name` (or the program at `name` when it is an
    /// absolute path).
    public static func executable(_ name: String) -> URL {
        if name.hasPrefix("/") { return URL(fileURLWithPath: name) }
        // The test bundle sits in the same build directory as the executables.
        let buildDirectory = Bundle.main.bundleURL
        let candidates = [
            buildDirectory.appendingPathComponent(name),
            buildDirectory.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }
}

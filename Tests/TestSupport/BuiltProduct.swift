public import Foundation

/// The executables the package builds beside the test bundle (the
/// examples, the test tools), for tests that run them as processes.
public enum BuiltProduct {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder named by `PHOTODECK_PRODUCTS`, when set: executables built
    /// as users build them (`swift build -c release`, without the
    /// `-enable-testing` and the sanitizer a release test bundle has), which
    /// the tests then run instead of those built beside the bundle (`make
    /// test`; its second pass names the bundle's own, sanitized).
    public static let productsFolder: URL? = ProcessInfo.processInfo.environment["PHOTODECK_PRODUCTS"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true)
    }

    /// The built executable `name` (or the program at `name` when it is an
    /// absolute path).
    public static func executable(_ name: String) -> URL {
        if name.hasPrefix("/") { return URL(fileURLWithPath: name) }
        // The test bundle sits in the same build directory as the executables.
        let buildDirectory = Bundle.main.bundleURL
        let candidates =
            (productsFolder.map { [$0.appendingPathComponent(name)] } ?? []) + [
                buildDirectory.appendingPathComponent(name),
                buildDirectory.deletingLastPathComponent().appendingPathComponent(name),
                packageRoot.appendingPathComponent(".build/debug/\(name)"),
            ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[candidates.count - 1]
    }
}

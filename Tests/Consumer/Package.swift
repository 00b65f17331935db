// swift-tools-version:6.0
// An app that depends on PhotoDeck the way the README says. `make
// check-consumer` copies this package next to a link named PhotoDeck (the
// repository), points the URL below at it, and builds and tests it: the
// products and the modules' public API, seen from outside.
import PackageDescription

let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v14)],
    // Package.swift of your app
    dependencies: [
        .package(url: "https://github.com/<owner>/PhotoDeck.git", branch: "main")
    ],
    targets: [
        .executableTarget(
            name: "MyApp",
            dependencies: [
                .product(name: "ImageCodecs", package: "PhotoDeck"),
                .product(name: "PhotoAlbum", package: "PhotoDeck"),
                .product(name: "PhotoGallery", package: "PhotoDeck"),
                .product(name: "PhotoBrowser", package: "PhotoDeck"),
                .product(name: "ShareKit", package: "PhotoDeck"),
                .product(name: "WeChatShare", package: "PhotoDeck"),
                .product(name: "WeiboShare", package: "PhotoDeck"),
                .product(name: "WeiboKit", package: "PhotoDeck"),
            ]
        ),
        .testTarget(name: "MyAppTests", dependencies: ["MyApp", .product(name: "ShareKitTesting", package: "PhotoDeck")]),
    ]
)

import Foundation
import ImageCodecs
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

/// One rule set: `ShareConstraints.violations(of:)` decides the targets,
/// starts the adapter's list, and is what providers check.
@Suite("One set of rules")
struct RulesTests {
    static let link = ShareLink(url: URL(string: "https://example.com/a-very-long-path/that/goes/on")!)
    /// A valid small JPEG: the adapter finds nothing wrong with it.
    static let photo: ShareImage = .encoded(try! noiseJPEG(width: 8, height: 8))

    @Test(
        "each violation kind, from the same function the center and the adapter use",
        arguments: [
            (ShareConstraints(text: .init(maxLength: 10), images: nil), ShareContent(), [ConstraintViolation.emptyContent]),
            (ShareConstraints(text: nil, images: .init(maxCount: 1, maxBytes: 100_000)), ShareContent(text: "hi"), [.textNotAccepted]),
            (
                ShareConstraints(text: .init(maxLength: 10, isRequired: true), images: .init(maxCount: 1, maxBytes: 100_000)), ShareContent(images: [photo]),
                [.textRequired]
            ),
            (
                ShareConstraints(text: .init(maxLength: 5, overflow: .refuse), images: nil), ShareContent(text: "too long"),
                [.textTooLong(length: 8, maxLength: 5)]
            ),
            (ShareConstraints(text: .init(maxLength: 50), images: nil, links: .unsupported), ShareContent(link: link), [.linkNotAccepted]),
            (ShareConstraints(text: .init(maxLength: 10), images: nil, links: .inText), ShareContent(link: link), [.linkTooLong(maxLength: 10)]),
            (
                ShareConstraints(
                    text: .init(maxLength: 100), images: .init(maxCount: 1, maxBytes: 100_000), links: .object(maxTitleLength: 9, maxSummaryLength: 9),
                    allowsMixedContent: false),
                ShareContent(images: [photo], link: link), [.linkWithImages]
            ),
            (ShareConstraints(text: .init(maxLength: 10), images: nil), ShareContent(images: [photo]), [.imagesNotAccepted]),
            (
                ShareConstraints(text: nil, images: .init(maxCount: 2, maxBytes: 100_000)), ShareContent(images: [photo, photo, photo]),
                [.tooManyImages(count: 3, maxCount: 2)]
            ),
        ])
    func violations(_ constraints: ShareConstraints, _ content: ShareContent, _ expected: [ConstraintViolation]) async throws {
        #expect(constraints.violations(of: content) == expected)
        // The adapter reports the same list, before looking at any image.
        await #expect(throws: ShareError.invalidContent(expected)) { try await MediaContentAdapter().prepare(content, for: constraints) }
        // And the center offers no target that would refuse it.
        let center = ShareCenter(adapter: .media)
        await center.register(MockShareProvider(id: "p", destinations: [.session], constraints: constraints))
        #expect(await center.targets(for: content).isEmpty)
    }

    @Test("text is cut by default, refused when the destination or the content says it must stay whole")
    func overflow() async throws {
        let cutting = ShareConstraints(text: .init(maxLength: 5), images: nil)
        #expect(try await MediaContentAdapter().prepare(ShareContent(text: "abcdefgh"), for: cutting).text == "abcd…")
        await #expect(throws: ShareError.invalidContent([.textTooLong(length: 8, maxLength: 5)])) {
            try await MediaContentAdapter().prepare(ShareContent(text: "abcdefgh", textOverflow: .refuse), for: cutting)
        }
        let refusing = ShareConstraints(text: .init(maxLength: 5, overflow: .refuse), images: nil)
        await #expect(throws: ShareError.invalidContent([.textTooLong(length: 8, maxLength: 5)])) {
            try await MediaContentAdapter().prepare(ShareContent(text: "abcdefgh"), for: refusing)
        }
        #expect(try await MediaContentAdapter().prepare(ShareContent(text: "abcdefgh", textOverflow: .truncate), for: refusing).text == "abcd…")
        // Weibo-counted: 6 CJK characters are 6, the limit 5.
        let weibo = ShareConstraints(text: .init(maxLength: 5, counting: .weibo, overflow: .refuse), images: nil)
        #expect(weibo.violations(of: ShareContent(text: "长长长长长长")) == [.textTooLong(length: 6, maxLength: 5)])
    }

    @Test("image problems only decoding can find are added to the same list")
    func imageViolations() async throws {
        let constraints = ShareConstraints(text: .init(maxLength: 5, overflow: .refuse), images: .init(maxCount: 2, maxBytes: 200, formats: [.jpeg]))
        let content = ShareContent(text: "too long here", images: [.encoded(Array("not an image".utf8)), .encoded(try noiseJPEG(width: 400, height: 400))])
        let error = await #expect(throws: ShareError.self) { try await MediaContentAdapter().prepare(content, for: constraints) }
        guard case .invalidContent(let violations)? = error else {
            Issue.record("expected invalid content, got \(String(describing: error))")
            return
        }
        #expect(violations.first == .textTooLong(length: 13, maxLength: 5))
        #expect(violations.contains { if case .unreadableImage(index: 0, _) = $0 { true } else { false } })
        #expect(violations.contains(.imageTooLarge(index: 1, maxBytes: 200)), "\(violations)")
        #expect(violations.count == 3)
    }

    @Test("providers check prepared content with the same function")
    func providersUseTheRules() async throws {
        let constraints = ShareConstraints(text: .init(maxLength: 10), images: .init(maxCount: 1, maxBytes: 10_000))
        let prepared = PreparedContent(
            text: "fine", images: [PreparedContent.Image(bytes: [1], format: .jpeg, size: PixelSize(width: 1, height: 1))], link: nil, thumbnail: nil)
        #expect(constraints.violations(of: ShareContent(prepared)).isEmpty)
        let twoImages = PreparedContent(text: "fine", images: prepared.images + prepared.images, link: nil, thumbnail: nil)
        #expect(constraints.violations(of: ShareContent(twoImages)) == [.tooManyImages(count: 2, maxCount: 1)])
    }
}

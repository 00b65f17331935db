public import Foundation
public import ShareKit

/// What every QQ message object shows around its content
/// (`QQApiObject`, `QQApiURLObject`): a title, a description and a preview
/// picture, as bytes or by URL.
///
/// ```swift
/// let card = QQCard(title: "日落", summary: "码头", previewImage: jpegUnder1MB)
/// ```
public struct QQCard: Hashable, Sendable {
    /// `title`: at most 128 characters.
    public var title: String?
    /// `description`: at most 512 characters.
    public var summary: String?
    /// `previewImageData`: at most 1 MB.
    public var previewImage: [UInt8]?
    /// `previewImageURL`, used when there are no preview bytes.
    public var previewImageURL: URL?

    /// Creates a card.
    public init(title: String? = nil, summary: String? = nil, previewImage: [UInt8]? = nil, previewImageURL: URL? = nil) {
        self.title = title
        self.summary = summary
        self.previewImage = previewImage
        self.previewImageURL = previewImageURL
    }

    /// The limits of `QQApiObject` and `QQApiURLObject` (`QQApiInterfaceObject.h`):
    /// title 128 and description 512 characters, preview picture 1 MB.
    public static let limits = [
        FieldLimit("QQApiObject.title", limit: QQSendRequest.Limits.titleCharacters, unit: .characters),
        FieldLimit("QQApiObject.description", limit: QQSendRequest.Limits.descriptionCharacters, unit: .characters),
        FieldLimit("QQApiURLObject.previewImageData", limit: QQSendRequest.Limits.previewImageBytes),
    ]

    /// Every limit the card breaks.
    var violations: [ConstraintViolation] {
        Self.limits[0].violations(text: title) + Self.limits[1].violations(text: summary) + Self.limits[2].violations(size: previewImage?.count)
            + FieldLimit.webURLViolations(previewImageURL, field: "QQApiURLObject.previewImageURL", app: "QQ")
    }
}

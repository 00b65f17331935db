extension ShareConstraints {
    /// Every rule of this destination that `content` breaks and adaptation
    /// cannot fix, all at once, without decoding an image: the one rule set
    /// that ``ShareCenter/targets(for:)`` filters by, that
    /// ``ContentAdapter/prepare(_:for:)`` starts from (it adds what only
    /// decoding can tell: unreadable images, byte caps that cannot be met),
    /// and that a provider checks prepared content against.
    ///
    /// ```swift
    /// let problems = constraints.violations(of: ShareContent(text: caption, textOverflow: .refuse))
    /// if problems.contains(where: { if case .textTooLong = $0 { true } else { false } }) { askForAShorterCaption() }
    /// ```
    public func violations(of content: ShareContent) -> [ConstraintViolation] {
        var found: [ConstraintViolation] = []
        if content.isEmpty { found.append(.emptyContent) }
        switch (replies, content.inReplyTo) {
        case (.notTaken, .some): found.append(.fieldInvalid(field: "inReplyTo", reason: "this destination answers no post"))
        case (.required, nil): found.append(.fieldRequired(field: "inReplyTo"))
        case (.required, let id?) where id.isEmpty || id.utf8.count > 64:
            found.append(.fieldInvalid(field: "inReplyTo", reason: "a post id is 1 to 64 characters"))
        default: break
        }
        if !allowsMixedContent, content.link != nil, !content.images.isEmpty { found.append(.linkWithImages) }

        var linkInText: String?
        if let link = content.link, let maxLinkBytes, link.url.absoluteString.utf8.count > maxLinkBytes {
            found.append(.urlTooLong(bytes: link.url.absoluteString.utf8.count, maxBytes: maxLinkBytes))
        }
        if let link = content.link {
            switch links {
            case .object: break
            case .inText: linkInText = link.url.absoluteString
            case .unsupported: found.append(.linkNotAccepted)
            }
        }

        let text = content.text ?? ""
        if let rule = self.text {
            let counting = rule.counting
            let reserved = linkInText.map { counting.length(of: (text.isEmpty ? "" : " ") + $0) } ?? 0
            if reserved > rule.maxLength {
                found.append(.linkTooLong(maxLength: rule.maxLength))
            } else if (content.textOverflow ?? rule.overflow) == .refuse {
                let length = counting.length(of: text)
                if length > rule.maxLength - reserved { found.append(.textTooLong(length: length, maxLength: rule.maxLength - reserved)) }
            }
            if rule.isRequired, text.isEmpty, linkInText == nil { found.append(.textRequired) }
        } else if !text.isEmpty || linkInText != nil {
            found.append(.textNotAccepted)
        }

        if !content.images.isEmpty {
            if let rule = images {
                if content.images.count > rule.maxCount { found.append(.tooManyImages(count: content.images.count, maxCount: rule.maxCount)) }
                if !rule.acceptsText, !text.isEmpty || linkInText != nil { found.append(.textWithImages) }
            } else {
                found.append(.imagesNotAccepted)
            }
        }

        if content.video != nil {
            if let rule = videos {
                if !rule.acceptsText, !text.isEmpty || linkInText != nil { found.append(.textWithVideo) }
                if !allowsMixedContent, content.link != nil || !content.images.isEmpty { found.append(.videoWithOtherContent) }
            } else {
                found.append(.videoNotAccepted)
            }
        }
        return found
    }
}

/// The text and link of some content, fitted to a destination: what every
/// adapter does the same way, whatever reads its pictures.
package struct FittedText: Sendable {
    /// The text to send (the link appended when it goes in the text).
    package var text: String?
    /// The link object, trimmed, when the destination takes one.
    package var link: ShareLink?
    /// What fitting changed, in plain words.
    package var adjustments: [String]
}

extension ShareConstraints {
    /// The content's link (an object trimmed, or text appended to the
    /// message) and its text, cut to fit. What must not be cut or cannot
    /// fit is refused by ``violations(of:)``, not here.
    package func fittingTextAndLink(of content: ShareContent) -> FittedText {
        var adjustments: [String] = []
        var link: ShareLink?
        var linkSuffix = ""
        if let contentLink = content.link {
            switch links {
            case .object(let maxTitle, let maxSummary):
                let counting = linkCounting
                var trimmed = contentLink
                trimmed.title = contentLink.title.map { counting.truncate($0, to: maxTitle) }
                trimmed.summary = contentLink.summary.map { counting.truncate($0, to: maxSummary) }
                if trimmed != contentLink { adjustments.append("trimmed the link's title or summary") }
                link = trimmed
            case .inText:
                linkSuffix = contentLink.url.absoluteString
                adjustments.append("moved the link into the text")
            case .unsupported:
                break
            }
        }

        var finalText: String?
        if let rule = text {
            let counting = rule.counting
            var text = content.text ?? ""
            let separator = text.isEmpty || linkSuffix.isEmpty ? "" : " "
            let reserved = linkSuffix.isEmpty ? 0 : counting.length(of: separator + linkSuffix)
            if reserved <= rule.maxLength {
                let trimmed = counting.truncate(text, to: rule.maxLength - reserved)
                if trimmed != text { adjustments.append("shortened the text to fit \(rule.maxLength) \(rule.counting.unit)") }
                text = trimmed + (linkSuffix.isEmpty ? "" : separator + linkSuffix)
            }
            finalText = text.isEmpty ? nil : text
        }
        return FittedText(text: finalText, link: link, adjustments: adjustments)
    }
}

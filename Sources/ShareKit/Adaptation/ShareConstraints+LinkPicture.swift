extension ShareConstraints {
    /// `content` with its link's thumbnail as its one picture where the
    /// destination puts links in the text (there is no card to carry the
    /// picture, as on a Weibo status), takes pictures, and the content has
    /// none of its own and no video; else `content` as it is. A gallery
    /// shared as a link then arrives with its cover, as a card would show it.
    package func carryingLinkPicture(of content: ShareContent) -> ShareContent {
        guard case .inText = links, images != nil, content.images.isEmpty, content.video == nil,
            let picture = content.link?.thumbnail
        else { return content }
        var carried = content
        carried.images = [picture]
        return carried
    }
}

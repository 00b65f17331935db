import Foundation
import ServiceKit
import ShareKit

extension WeChatOfficialAccountProvider {
    /// What came of uploading permanent material.
    enum PermanentUpload: Sendable {
        /// WeChat stored it under this id.
        case stored(String)
        /// The answer was lost: WeChat may have stored it (and spent quota).
        case unknown(String)
    }

    /// The multipart body every upload sends: the picture as `media`.
    static func uploadForm(_ image: PreparedContent.Image) -> MultipartForm {
        var form = MultipartForm()
        form.addImage("media", image)
        return form
    }

    private func uploadRequest(_ image: PreparedContent.Image, to path: String, type: String?, token: String, idempotent: Bool) -> HTTPRequest {
        let form = Self.uploadForm(image)
        var url = endpoint(path, token: token)
        if let type { url = url.appendingQuery([("type", type)]) }
        // The answer is an id or a URL: a few hundred bytes.
        return HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": form.contentType], body: form.body, timeout: .seconds(60), isIdempotent: idempotent,
            deadline: .seconds(300), maxResponseBytes: 64 << 10)
    }

    /// Uploads `image` where an upload creates nothing that lasts
    /// (temporary media, a picture URL for an article body): retried under
    /// the client's policy.
    func upload(_ image: PreparedContent.Image, to path: String, type: String?, token: String, resultKey: String) async throws(ShareError) -> String {
        let response = try await client.sendForShare(uploadRequest(image, to: path, type: type, token: token, idempotent: true))
        let step = path.replacingOccurrences(of: "cgi-bin/", with: "")
        return try requiredString(TencentAnswer.check(response, provider: id, step: step, now: client.clock.now), resultKey, step: step)
    }

    /// Uploads `image` as permanent material (`material/add_material`):
    /// each call creates an item and spends the account's material quota,
    /// so it is a publish: sent once, and a lost answer is "unknown", never
    /// a second item.
    func uploadPermanent(_ image: PreparedContent.Image, type: String, token: String) async throws(ShareError) -> PermanentUpload {
        try await permanentResult(of: uploadRequest(image, to: "cgi-bin/material/add_material", type: type, token: token, idempotent: false), type: type)
    }

    /// Sends a permanent-material upload once: a lost answer, or a 2xx one
    /// that cannot be read, is "unknown", never a second item.
    private func permanentResult(of request: HTTPRequest, type: String) async throws(ShareError) -> PermanentUpload {
        let step = "material/add_material"
        switch try await client.publishForShare(request) {
        case .unknown(let reason):
            return .unknown("\(reason) (uploading permanent \(type) material, which WeChat may have stored)")
        case .answered(let response):
            let json: JSONValue
            do throws(ShareError) {
                json = try TencentAnswer.check(response, provider: id, step: step, now: client.clock.now)
            } catch {
                // A 2xx answer that cannot be read may still mean WeChat stored it.
                if case .server = error, (200..<300).contains(response.status) { return .unknown("\(error)") }
                throw error
            }
            guard let mediaID = json["media_id"]?.stringValue, !mediaID.isEmpty else {
                return .unknown("\(step): WeChat answered without a media_id; the material may have been stored")
            }
            return .stored(mediaID)
        }
    }

    /// Uploads `video` as permanent video material (`material/add_material?type=video`,
    /// with the `description` field WeChat requires for videos): a publish,
    /// as ``uploadPermanent(_:type:token:)`` is.
    func uploadPermanentVideo(_ video: PreparedContent.Video, title: String, token: String) async throws(ShareError) -> PermanentUpload {
        var form = MultipartForm()
        try form.addVideo("media", video, maxBytes: Self.maxVideoBytes)
        let description: JSONValue = ["title": .string(title), "introduction": ""]
        form.addField("description", String(decoding: description.encoded(), as: UTF8.self))
        let url = endpoint("cgi-bin/material/add_material", token: token).appendingQuery([("type", "video")])
        let request = HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": form.contentType], body: form.body, timeout: .seconds(120), isIdempotent: false,
            deadline: .seconds(600), maxResponseBytes: 64 << 10)
        return try await permanentResult(of: request, type: "video")
    }

    func requiredString(_ json: JSONValue, _ key: String, step: String) throws(ShareError) -> String {
        guard let value = json[key]?.stringValue, !value.isEmpty else { throw .server(status: 200, message: "\(step): the answer has no \(key)") }
        return value
    }

    func endpoint(_ path: String, token: String) -> URL {
        configuration.apiBase.appending(path: path).appendingQuery([("access_token", token)])
    }
}

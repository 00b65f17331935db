import Foundation
import ServiceKit
import ShareKit

extension WeChatOfficialAccountProvider {
    /// Uploads `image` (an idempotent step: an upload only returns an id or URL).
    func upload(_ image: PreparedContent.Image, to path: String, type: String?, token: String, resultKey: String) async throws(ShareError) -> String {
        var form = MultipartForm()
        form.addImage("media", image)
        var url = endpoint(path, token: token)
        if let type { url = url.appendingQuery([("type", type)]) }
        // The answer is an id or a URL: a few hundred bytes.
        let request = HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": form.contentType], body: form.body, timeout: .seconds(60), isIdempotent: true,
            deadline: .seconds(300), maxResponseBytes: 64 << 10)
        let response = try await client.sendForShare(request)
        let step = path.replacingOccurrences(of: "cgi-bin/", with: "")
        return try requiredString(TencentAnswer.check(response, provider: id, step: step, now: client.clock.now), resultKey, step: step)
    }

    func requiredString(_ json: JSONValue, _ key: String, step: String) throws(ShareError) -> String {
        guard let value = json[key]?.stringValue, !value.isEmpty else { throw .server(status: 200, message: "\(step): the answer has no \(key)") }
        return value
    }

    func endpoint(_ path: String, token: String) -> URL {
        configuration.apiBase.appending(path: path).appendingQuery([("access_token", token)])
    }
}

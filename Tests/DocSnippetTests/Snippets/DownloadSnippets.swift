// The resumed-download samples of the doc comments (ServiceKit,
// ImageLoading), compiled.

import Foundation
import ImageLoading
import ServiceKit

enum DownloadSnippets {
    static func use(_ body: [UInt8]) {}
    static func keep(_ partial: PartialDownload?) {}

    static func transport(transport: CurlTransport, request: HTTPRequest, kept: PartialDownload?) async {
        switch await transport.download(request, resumingFrom: kept, retrying: RetryPolicy()) {
        case .complete(let response): use(response.body)
        case .failed(let error, let partial):
            keep(partial)
            print(error)
        }
    }

    static func cache(cache: DiskCache, outcome: DownloadOutcome, url: URL) async throws {
        if case .failed(_, let partial?) = outcome { try await cache.storePartial(partial, for: url) }
    }
}

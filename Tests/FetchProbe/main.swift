// fetch-probe: sends one GET with ServiceKit's default transport and says
// how it ended and how much the process grew, for the tests that bound a
// client's memory against a hostile server. Usage:
//   fetch-probe URL MAX-RESPONSE-BYTES
// prints "result OK <bytes>" or "result ERROR <description>", then
// "grew-kb N": the peak resident memory (VmHWM) less the resident memory
// just before the request (VmRSS), both from /proc/self/status.

import Foundation
import ServiceKit

@main
struct FetchProbe {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst().map { $0 }
        guard arguments.count == 2, let url = URL(string: arguments[0]), let cap = Int(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: fetch-probe URL MAX-RESPONSE-BYTES\n".utf8))
            exit(2)
        }
        let transport = CurlTransport()
        // Warm the engine (its thread and libcurl's globals) before the baseline is read.
        _ = try? await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:1/")!, timeout: .milliseconds(200), deadline: .milliseconds(200)))
        let before = kilobytes("VmRSS")
        var request = HTTPRequest(url: url, timeout: .seconds(30), deadline: .seconds(60))
        request.maxResponseBytes = cap
        do {
            let response = try await transport.send(request)
            print("result OK \(response.body.count)")
        } catch {
            print("result ERROR \(error)")
        }
        print("grew-kb \(kilobytes("VmHWM") - before)")
    }

    /// A `kB` field of /proc/self/status.
    static func kilobytes(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}

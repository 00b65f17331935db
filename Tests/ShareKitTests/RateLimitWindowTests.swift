import Foundation
import ShareKit
import ShareKitTesting
import ShareMedia
import Testing

@Suite("Rate limits in the provider's window")
struct RateLimitWindowTests {
    /// Tries a share every `step` for `duration`; returns the times that got through.
    static func admitted(
        limits: [RateLimit], every step: Duration, for duration: Duration, ledger: any RateLimitLedger = InMemoryRateLimitLedger()
    ) async throws -> [Date] {
        let clock = TestClock()
        let center = ShareCenter(clock: clock, adapter: .media, rateLimitLedger: ledger)
        let provider = MockShareProvider(id: "feed", destinations: [.timeline])
        provider.declareRateLimits(limits)
        await center.register(provider)
        let target = try #require(await center.target(provider: "feed", destination: .timeline))
        var times: [Date] = []
        let end = clock.now.addingTimeInterval(duration.inSeconds)
        while clock.now < end {
            do {
                _ = try await center.share(ShareContent(text: "x"), to: target, account: "a")
                times.append(clock.now)
            } catch .rateLimited(let wait) {
                #expect(wait != nil && wait! > .zero)
            }
            clock.advance(by: step)
        }
        return times
    }

    /// The most admitted in any stretch of `window` seconds.
    static func busiest(_ times: [Date], window: TimeInterval) -> Int {
        times.indices.map { start in times[start...].prefix { $0.timeIntervalSince(times[start]) < window }.count }.max() ?? 0
    }

    @Test("Weibo's 30 posts an hour: 30 in the first hour (a full token bucket let 59 through), and never 31 in any hour")
    func weiboHour() async throws {
        let times = try await Self.admitted(limits: [RateLimit(30, per: .seconds(3_600), scope: .account)], every: .seconds(30), for: .seconds(3 * 3_600))
        let start = try #require(times.first)
        #expect(times.filter { $0.timeIntervalSince(start) < 3_600 }.count == 30)
        #expect(Self.busiest(times, window: 3_600) == 30)
        #expect(times.count == 90, "30 an hour over three hours")
    }

    @Test("WeCom's robot: 20 messages a minute at two per share is 10 shares in any minute (a bucket let 19 through)")
    func weComMinute() async throws {
        let times = try await Self.admitted(limits: [RateLimit(10, per: .seconds(60))], every: .seconds(1), for: .seconds(600))
        #expect(Self.busiest(times, window: 60) == 10)
        #expect(times.count == 100)
    }

    @Test("a service account's 4 broadcasts a calendar month (Beijing time): never a fifth in one month, 4 again on the 1st")
    func calendarMonth() async throws {
        let limit = RateLimit(4, per: .calendarMonth(utcOffsetSeconds: 8 * 3_600), scope: .account)
        let times = try await Self.admitted(limits: [limit], every: .seconds(6 * 3_600), for: .seconds(100 * 86_400))
        var beijing = Calendar(identifier: .gregorian)
        beijing.timeZone = try #require(TimeZone(secondsFromGMT: 8 * 3_600))
        let perMonth = Dictionary(grouping: times) { beijing.dateComponents([.year, .month], from: $0) }.mapValues(\.count)
        #expect(perMonth.values.allSatisfy { $0 == 4 }, "\(perMonth)")
        #expect(perMonth.count >= 3)
        // A 30-day bucket let 7 through in the first 30 days; the month holds 4.
        #expect(limit.description == "4 per calendar month (UTC+8) per account")
    }

    @Test("a ledger in a file keeps the window across centers (a tool run once per post), and a damaged one is an error, never emptied")
    func fileLedger() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "ledger-\(UUID()).json").path
        defer { for suffix in ["", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let clock = TestClock()
        let limit = RateLimit(3, per: .seconds(3_600), scope: .account)
        var outcomes: [String] = []
        for _ in 0..<5 {
            // A new center each time, as each run of a command-line tool makes one.
            let center = ShareCenter(clock: clock, adapter: .media, rateLimitLedger: FileRateLimitLedger(path: path))
            let provider = MockShareProvider(id: "feed", destinations: [.timeline])
            provider.declareRateLimits([limit])
            await center.register(provider)
            let target = try #require(await center.target(provider: "feed", destination: .timeline))
            do {
                _ = try await center.share(ShareContent(text: "x"), to: target, account: "a")
                outcomes.append("posted")
            } catch {
                outcomes.append("\(error)")
            }
            clock.advance(by: .seconds(60))
        }
        #expect(outcomes == ["posted", "posted", "posted", "rate limited; try again in 3420 s", "rate limited; try again in 3360 s"])
        try Data("not a ledger".utf8).write(to: URL(fileURLWithPath: path))
        let ledger = FileRateLimitLedger(path: path)
        await #expect(throws: UnderlyingError.self) {
            try await ledger.reserve([RateLimitCheck(key: "k", limits: [limit])], at: clock.now)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a ledger")
    }

    @Test("a provider's refusal without a wait becomes its window's wait, and the outbox does not send again before it")
    func unstatedWait() async throws {
        let clock = TestClock()
        let center = ShareCenter(clock: clock, adapter: .media)
        let provider = MockShareProvider(id: "feed", destinations: [.timeline])
        provider.declareRateLimits([RateLimit(30, per: .seconds(3_600), scope: .account)])
        provider.enqueue(.failure(.rateLimited(retryAfter: nil)))
        await center.register(provider)
        let path = FileManager.default.temporaryDirectory.appending(path: "outbox-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), clock: clock)
        let target = ShareTarget(provider: "feed", destination: .timeline, displayName: "Feed")
        try await outbox.enqueue(ShareContent(text: "later"), to: target)
        var entries = await outbox.process()
        #expect(entries.map(\.state) == [.queued] && entries.first?.attempts == 0)
        #expect(entries.first?.lastError == "rate limited; try again in 3600 s", "the provider's hour, not 'again at once'")
        for _ in 0..<3 { entries = await outbox.process() }
        #expect(provider.recordedShares.count == 1, "processing again at once sends nothing")
        clock.advance(by: .seconds(3_600))
        entries = await outbox.process()
        #expect(entries.map(\.state) == [.posted] && provider.recordedShares.count == 2)
    }
}

import Foundation
import SystemSupport

extension ShareCenter {
    /// Starts the task that runs one share, and its events.
    func start(_ id: UUID, _ content: ShareContent, to target: ShareTarget, account: String?, holds: Bool) -> ShareOperation {
        let (events, continuation) = AsyncStream<ShareEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let task = Task { () -> Result<ShareOutcome, ShareError> in
            var result: Result<ShareOutcome, ShareError>
            do throws(ShareError) {
                result = .success(try await self.perform(id, content, to: target, account: account, holds: holds, events: continuation))
            } catch {
                result = .failure(error)
            }
            if Task.isCancelled, case .failure(let error) = result, error != .cancelled { result = .failure(.cancelled) }
            continuation.yield(.finished(result))
            continuation.finish()
            return result
        }
        return ShareOperation(events: events, task: task)
    }

    /// One share, from checks to outcome. Only the bookkeeping runs on the
    /// actor: the adapter prepares the content (decodes and encodes, on its
    /// own threads) and the provider's requests run outside it, so one large share never stalls ``targets(for:)``, registration
    /// or another share.
    nonisolated func perform(
        _ id: UUID, _ content: ShareContent, to target: ShareTarget, account: String?, holds: Bool,
        events: AsyncStream<ShareEvent>.Continuation
    ) async throws(ShareError) -> ShareOutcome {
        events.yield(.preparing)
        let (provider, constraints, credential) = try await admit(id, content, to: target, account: account, holds: holds)
        // A link that goes in the text brings its picture along (``ShareConstraints/carryingLinkPicture(of:)``).
        let carried = constraints.carryingLinkPicture(of: content)
        // A video's conversion reports how far it is; cancelling the share stops it between packets.
        let prepared = try await adapter.prepare(carried, for: constraints, progress: { events.yield(.converting(fraction: $0)) })
        if Task.isCancelled { throw .cancelled }
        let destination = target.destination
        let sender = credential?.account ?? account
        // Recorded before the first byte: a share that then fails may still
        // have reached the provider, so the log never undercounts.
        if let wait = try await rateLimitWait(await rateLimitChecks(provider, destination, account: sender), take: true) {
            throw .rateLimited(retryAfter: wait)
        }

        // One progress for the whole share: the plan first, then every
        // request's bytes added up, yielded under the lock so events never
        // go backwards.
        let tally = Lock(ProgressTally(planned: provider.plannedUploadBytes(for: prepared, to: destination)))
        tally.withLock { _ = events.yield(.uploading(sent: 0, total: $0.total)) }
        let reporter = TransferProgress.Reporter { request, sent, total in
            tally.withLock { tally in
                if let progress = tally.record(request: request, sent: sent, total: total) {
                    events.yield(.uploading(sent: progress.sent, total: progress.total))
                }
            }
        }
        let result: Result<ShareOutcome, ShareError> = await TransferProgress.$reporter.withValue(reporter) {
            do throws(ShareError) {
                return .success(try await provider.share(prepared, to: destination, credential: credential))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success:
            tally.withLock { tally in
                let before = (tally.sent, tally.total)
                let final = tally.finish()
                if before != final { events.yield(.uploading(sent: final.sent, total: final.total)) }
            }
        case .failure(.authorizationExpired):
            if holds { await hold(id, content, target, account) }
        case .failure(.rateLimited(nil)):
            // The provider refused without saying how long: its own window says.
            throw .rateLimited(retryAfter: await waitAfterProviderRefusal(provider, destination, account: sender))
        case .failure:
            break
        }
        return try result.get()
    }

    /// The actor's part before preparing: the provider and its rules, the
    /// credential (a missing or expired one holds the share), and whether a
    /// rate limit has room.
    private func admit(
        _ id: UUID, _ content: ShareContent, to target: ShareTarget, account: String?, holds: Bool
    ) async throws(ShareError) -> (any ShareProvider, ShareConstraints, Credential?) {
        guard let provider = provider(target.provider), let constraints = provider.constraints(for: target.destination) else {
            throw .unknownTarget(target)
        }
        var credential: Credential?
        if provider.requiresCredential {
            do {
                credential = try await credentials.credential(for: provider.id, account: account)
            } catch {
                throw .storage(UnderlyingError(error, context: "the credential store failed"))
            }
            guard let found = credential else {
                if holds { hold(id, content, target, account) }
                throw .notAuthorized(provider.id)
            }
            if found.isExpired(at: clock.now) {
                if holds { hold(id, content, target, account) }
                throw .authorizationExpired(provider.id)
            }
        }
        if let wait = try await rateLimitWait(rateLimitChecks(provider, target.destination, account: credential?.account ?? account), take: false) {
            throw .rateLimited(retryAfter: wait)
        }
        return (provider, constraints, credential)
    }
}

import Foundation
import ImageCore
import ShareKit
import SystemSupport
import VideoCodecs

extension MediaContentAdapter {
    /// Why a video could not be fitted.
    enum VideoFitFailure: Error {
        case unreadable(String)
        case tooLong(seconds: Int, maxSeconds: Int)
        case tooLarge
        case cancelled
        case failed(VideoError)
    }

    /// The lowest video bit rate a transcode may aim at: below it, pictures
    /// are not worth sending, and the share is refused as too large.
    static let minimumVideoBitRate = 150_000

    /// The video fitted to `rule`, in a new MP4 under ``workFolder``:
    /// remuxed (the same pictures and sound, only the metadata `policy`
    /// keeps) when its codecs and size are taken and the file is under the
    /// byte cap; else transcoded to H.264 and AAC at the size the rule
    /// allows and a bit rate that fits the cap (tried again 20% lower when
    /// the encoder overshoots). A video longer than the rule allows is
    /// refused, never cut.
    func fitVideo(
        _ video: ShareVideo, rule: ShareConstraints.Videos, policy: MetadataPolicy, progress: (@Sendable (Double) -> Void)?,
        isCancelled: (@Sendable () -> Bool)?
    ) -> Result<PreparedContent.Video, VideoFitFailure> {
        let info: VideoInfo
        do {
            info = try VideoInfo(probingFileAt: video.path, range: video.range)
        } catch {
            return .failure(.unreadable(error.description))
        }
        let seconds = info.duration?.inSeconds ?? 0
        if let maxDuration = rule.maxDuration, let duration = info.duration, duration > maxDuration {
            return .failure(.tooLong(seconds: Int(seconds.rounded(.up)), maxSeconds: Int(maxDuration.components.seconds)))
        }
        do {
            try OwnedFolder.prepare(workFolder)
        } catch {
            return .failure(.failed(.writeFailed(path: workFolder, reason: error.reason)))
        }
        let output = "\(workFolder)/video-\(UUID().uuidString).mp4"
        let longest = max(info.video.codedSize.width, info.video.codedSize.height)
        let fitsSize = rule.maxDimension.map { longest <= $0 } ?? true
        let audioTaken = info.audio.map { rule.audioCodecs.contains($0.codec) } ?? true
        if rule.videoCodecs.contains(info.video.codec), audioTaken, fitsSize {
            do {
                let report = try VideoRemuxer.remux(
                    fileAt: video.path, range: video.range, to: output, keeping: policy, progress: progress, isCancelled: isCancelled)
                if report.outputBytes <= rule.maxBytes { return .success(prepared(output, report, info: info, bitRate: nil)) }
                try? FileSystem.remove(output)
            } catch .cancelled {
                return .failure(.cancelled)
            } catch .cannotRemux {
                // Transcoded below.
            } catch {
                return .failure(.failed(error))
            }
        }
        // Encoded again: the size the rule allows, a bit rate that fits the cap.
        let audioBitRate = info.audio == nil ? 0 : 96_000
        let budget = Double(rule.maxBytes) * 8 * 0.92 / max(seconds, 1)
        let box = rule.maxDimension.map { min($0, longest) } ?? longest
        let size = Double(box) * Double(box) * 9 / 16
        let frameRate = min(max(info.video.frameRate ?? 30, 1), 60)
        // About 0.1 bit a pixel is good quality for H.264; more is not spent (but never less than 300 kb/s).
        let available = budget - Double(audioBitRate)
        let quality = max(size * frameRate * 0.1, 300_000)
        var bitRate = Int(min(available, quality))
        for attempt in 0..<2 {
            guard bitRate >= Self.minimumVideoBitRate else { return .failure(.tooLarge) }
            let settings = VideoTranscoder.Settings(maxDimension: box, videoBitRate: bitRate, audioBitRate: audioBitRate)
            do {
                let report = try VideoTranscoder.transcode(
                    fileAt: video.path, range: video.range, to: output, settings: settings, keeping: policy, progress: progress, isCancelled: isCancelled)
                if report.outputBytes <= rule.maxBytes { return .success(prepared(output, report, info: info, bitRate: bitRate)) }
                try? FileSystem.remove(output)
            } catch .cancelled {
                return .failure(.cancelled)
            } catch {
                return .failure(.failed(error))
            }
            if attempt == 0 { bitRate = bitRate * 8 / 10 }
        }
        return .failure(.tooLarge)
    }

    /// The prepared video for the file a remux or transcode wrote.
    /// `bitRate` is the transcode's aim; `nil` for a remux.
    private func prepared(_ path: String, _ report: VideoRemuxReport, info: VideoInfo, bitRate: Int?) -> PreparedContent.Video {
        let written = (try? VideoInfo(probingFileAt: path))
        return PreparedContent.Video(
            file: PreparedFile(path: path, owned: true), byteCount: report.outputBytes, duration: written?.duration ?? info.duration,
            size: written?.video.displaySize ?? info.video.displaySize, codecs: report.keptStreams.map(\.codec), isTranscoded: bitRate != nil,
            removedMetadata: Set(report.removedKinds.filter { $0.value > 0 }.keys), removedTags: report.removedTags,
            removedStreams: report.removedStreams.map { "\($0.type) \($0.codec)" }, targetBitRate: bitRate)
    }

    /// The video's first frame, upright, for a thumbnail.
    func posterImage(of video: ShareVideo) -> ShareImage? {
        (try? VideoPosterFrame(ofFileAt: video.path, range: video.range, fitting: PixelSize(width: 640, height: 640))).map { .bitmap($0.bitmap) }
    }
}

public import ImageCodecs

/// A source the picker can list candidates from.
public protocol PickableSource: PhotoSource {
    /// The photos to choose from, matching `filter`.
    func candidates(matching filter: AssetFilter) async throws -> [PickedAsset]
}

/// What a picker session allows.
public struct PickerConfiguration: Sendable {
    /// Sources in order of preference (default: camera, then library).
    public var sourcePreference: [PhotoSourceKind]
    /// How many photos may be picked; 0 means no limit. With 1 (the
    /// default), picking another photo replaces the choice.
    public var selectionLimit: Int
    /// Which photos are offered.
    public var filter: AssetFilter
    /// Which kinds of asset are offered: stills by default (photos, Live
    /// Photos and Motion Photos, each as its still, as the classic image
    /// picker offers images unless told otherwise); add
    /// ``AssetMediaKind/video`` to offer videos.
    ///
    /// ```swift
    /// let everything = PickerConfiguration(selectionLimit: 0, media: Set(AssetMediaKind.allCases))
    /// ```
    public var media: Set<AssetMediaKind>
    /// Whether picked photos come back in the order they were picked (the
    /// default) rather than in the source's order.
    public var keepsSelectionOrder: Bool
    /// Photos selected when the session starts (ignored when not offered).
    public var preselectedAssetIDs: [String]
    /// The crop preset when editing is on; `nil` turns editing off.
    public var editing: CropPreset?
    /// How bursts and pairs are offered: by their cover (the default: one
    /// candidate whose ``PickedAsset/stackFrames`` name the others), or
    /// every frame.
    public var stacks: StackOffering = .cover

    /// Creates a configuration.
    public init(
        sourcePreference: [PhotoSourceKind] = [.camera, .photoLibrary], selectionLimit: Int = 1, filter: AssetFilter = .everything,
        keepsSelectionOrder: Bool = true, preselectedAssetIDs: [String] = [], editing: CropPreset? = nil,
        media: Set<AssetMediaKind> = PickerConfiguration.stills
    ) {
        self.media = media
        self.sourcePreference = sourcePreference
        self.selectionLimit = max(0, selectionLimit)
        self.filter = filter
        self.keepsSelectionOrder = keepsSelectionOrder
        self.preselectedAssetIDs = preselectedAssetIDs
        self.editing = editing
    }
}

extension PickerConfiguration {
    /// The kinds that show a still: photos, Live Photos, Motion Photos.
    public static let stills: Set<AssetMediaKind> = [.photo, .livePhoto, .motionPhoto]
}

/// A source passed over, and why.
public struct SkippedSource: Hashable, Sendable {
    /// Its kind.
    public let kind: PhotoSourceKind
    /// Why it was not used.
    public let reason: String

    /// Creates a record.
    public init(kind: PhotoSourceKind, reason: String) {
        self.kind = kind
        self.reason = reason
    }
}

/// What the picker shows its user at each step.
public struct PickerState: Sendable {
    /// The source in use.
    public let source: PhotoSourceKind
    /// Sources passed over before it (show "no camera: ...").
    public let skippedSources: [SkippedSource]
    /// The photos on offer.
    public let candidates: [PickedAsset]
    /// The selected photo ids, in the order they were picked.
    public let selection: [String]
    /// The crop of each selected photo, when editing is on.
    public let crops: [String: CropRect]
    /// The selection limit (0: none).
    public let selectionLimit: Int
    /// A message about the last action, such as a reached limit.
    public let notice: String?
}

/// What the user did.
public enum PickerAction: Hashable, Sendable {
    /// Select or deselect a photo.
    case toggle(String)
    /// Set a photo's crop (oriented pixels); it is fitted to the preset.
    case crop(String, CropRect)
    /// Finish with the current selection (which may be empty).
    case confirm
    /// Finish without picking.
    case cancel
}

/// The user interface of a picker: a terminal prompt, a window, or a
/// scripted driver in tests. Asked for one action at a time.
public protocol PickerInteraction: Sendable {
    /// The user's next action, given what is on screen.
    func nextAction(in state: PickerState) async -> PickerAction
}

/// How a session ended. Cancelling is not the same as picking nothing.
public enum PickerResult: Sendable {
    /// The user confirmed; the photos in order (possibly none).
    case picked([PickedAsset])
    /// The user cancelled.
    case cancelled
}

/// One run of the picker: choose a source, offer its photos, follow the
/// user's actions within the configuration's rules, and end in
/// ``PickerResult/picked(_:)`` or ``PickerResult/cancelled``.
///
/// ```swift
/// let session = PickerSession(configuration: PickerConfiguration(selectionLimit: 3, editing: .square),
///                             sources: [CameraSource(), library])
/// switch try await session.run(with: terminalUI) {
/// case .picked(let photos): for photo in photos { _ = try photo.editedImage(fitting: PixelSize(width: 512, height: 512)) }
/// case .cancelled: break
/// }
/// ```
public struct PickerSession: Sendable {
    /// The rules of the session.
    public let configuration: PickerConfiguration
    /// The sources to choose from.
    public let sources: [any PhotoSource]

    /// Creates a session.
    public init(configuration: PickerConfiguration, sources: [any PhotoSource]) {
        self.configuration = configuration
        self.sources = sources
    }

    /// Runs the session to its end.
    public func run(with interaction: some PickerInteraction) async throws(PickerError) -> PickerResult {
        let selection = await SourceSelector(preferredOrder: configuration.sourcePreference).select(from: sources)
        let skipped = selection.skipped.map { SkippedSource(kind: $0.kind, reason: $0.reason) }
        guard let source = selection.chosen else { throw .noSourceAvailable(skipped) }
        guard let pickable = source as? any PickableSource else { throw .sourceCannotList(source.kind) }
        let candidates: [PickedAsset]
        do {
            candidates = try await Self.offered(
                try await pickable.candidates(matching: .all([configuration.filter, .media(configuration.media)])), stacks: configuration.stacks)
        } catch {
            throw .sourceFailed(source.kind, "\(error)")
        }
        let byID = Dictionary(candidates.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen = configuration.preselectedAssetIDs.filter { byID[$0] != nil }
        if configuration.selectionLimit > 0 { chosen = Array(chosen.prefix(configuration.selectionLimit)) }
        var crops: [String: CropRect] = [:]
        var notice: String?

        func defaultCrop(_ id: String) -> CropRect? {
            guard let preset = configuration.editing, let asset = byID[id] else { return nil }
            return preset.defaultCrop(in: asset.info.orientedSize)
        }
        for id in chosen { crops[id] = defaultCrop(id) }

        while true {
            let state = PickerState(
                source: source.kind, skippedSources: skipped, candidates: candidates, selection: chosen, crops: crops,
                selectionLimit: configuration.selectionLimit, notice: notice
            )
            notice = nil
            switch await interaction.nextAction(in: state) {
            case .cancel:
                return .cancelled
            case .confirm:
                let ordered = configuration.keepsSelectionOrder ? chosen : candidates.map(\.id).filter(chosen.contains)
                return .picked(ordered.compactMap { id in byID[id]?.withCrop(crops[id]) })
            case .toggle(let id):
                guard byID[id] != nil else {
                    notice = "\(id) is not on offer"
                    continue
                }
                if let index = chosen.firstIndex(of: id) {
                    chosen.remove(at: index)
                    crops[id] = nil
                } else if configuration.selectionLimit == 1 {
                    crops = [:]
                    chosen = [id]
                    crops[id] = defaultCrop(id)
                } else if configuration.selectionLimit > 0 && chosen.count >= configuration.selectionLimit {
                    notice = "at most \(configuration.selectionLimit) photos can be picked"
                } else {
                    chosen.append(id)
                    crops[id] = defaultCrop(id)
                }
            case .crop(let id, let rect):
                guard let preset = configuration.editing else {
                    notice = "editing is off"
                    continue
                }
                guard chosen.contains(id), let asset = byID[id] else {
                    notice = "select \(id) before cropping it"
                    continue
                }
                crops[id] = preset.constrain(rect, in: asset.info.orientedSize)
            }
        }
    }
}

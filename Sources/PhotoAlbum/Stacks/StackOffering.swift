/// How a burst's frames or a pair's files are offered for picking and
/// sharing (``PickerConfiguration/stacks``, ``AlbumStore/itemsToShare(in:stacks:rules:)``).
public enum StackOffering: Hashable, Sendable {
    /// One candidate per stack, its cover (the sharpest frame; a pair's
    /// JPEG), where its first frame was.
    case cover
    /// Every frame, as files on their own.
    case everyFrame
}

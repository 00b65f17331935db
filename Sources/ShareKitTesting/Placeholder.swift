import ShareKit

import Foundation

/// Every file under `folder` (paths relative to it) with its bytes: for
/// tests that compare a folder before and after (a gallery kept whole).
public func folderContents(_ folder: String) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
    for case let relative as String in walker {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: "\(folder)/\(relative)", isDirectory: &isFolder)
        if !isFolder.boolValue { files[relative] = try fileBytes(URL(fileURLWithPath: "\(folder)/\(relative)")) }
    }
    return files
}

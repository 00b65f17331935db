import ServiceKit
import Testing

@Suite("multipart/form-data bodies, written and read back")
struct MultipartFormTests {
    @Test("the parts read back as written: names, file names and bytes, binary data included")
    func roundTrip() {
        var form = MultipartForm(boundary: "b0undary")
        form.addField("status", "Hello 你好\r\n--b0undar")
        // Bytes that look like a delimiter without its leading CRLF, and every byte value.
        let picture = Array("--b0undary".utf8) + (0...255).map(UInt8.init)
        form.addFile("pic", filename: "photo.jpg", contentType: "image/jpeg", data: picture)
        form.addField("rip", "")
        let parts = MultipartForm.parts(of: form.body, contentType: form.contentType)
        #expect(parts?.map(\.name) == ["status", "pic", "rip"])
        #expect(parts?.map(\.filename) == [nil, "photo.jpg", nil])
        #expect(parts?[0].data == Array("Hello 你好\r\n--b0undar".utf8))
        #expect(parts?[1].data == picture)
        #expect(parts?[2].data == [])
    }

    @Test("no boundary is nil; a truncated body gives the parts before the damage")
    func damaged() {
        var form = MultipartForm(boundary: "xyz")
        form.addField("a", "1")
        form.addField("b", "2")
        #expect(MultipartForm.parts(of: form.body, contentType: "multipart/form-data") == nil)
        let body = form.body
        let truncated = Array(body.prefix(body.count - 12))
        #expect(MultipartForm.parts(of: truncated, contentType: form.contentType)?.map(\.name) == ["a"])
        #expect(MultipartForm.parts(of: [], contentType: form.contentType) == [])
    }
}

import Foundation
import Testing
import WeiboKit

@Suite("Weibo picture sizes")
struct PictureSizeTests {
    @Test("the smallest size that covers a width; past 2000 pixels, the picture as uploaded")
    func fitting() {
        #expect(WeiboPictureSize.fitting(width: 1) == .thumbnail)
        #expect(WeiboPictureSize.fitting(width: 120) == .thumbnail)
        #expect(WeiboPictureSize.fitting(width: 121) == .orj360)
        #expect(WeiboPictureSize.fitting(width: 400) == .bmiddle)
        #expect(WeiboPictureSize.fitting(width: 441) == .mw690)
        #expect(WeiboPictureSize.fitting(width: 1170) == .mw2000)
        #expect(WeiboPictureSize.fitting(width: 2001) == .large)
        #expect(WeiboPictureSize.allCases == WeiboPictureSize.allCases.sorted(), "cases are smallest first")
    }

    @Test("a size is the same picture's URL with its size part replaced; other hosts and shapes are left alone")
    func urls() throws {
        let thumbnail = try #require(URL(string: "https://wx3.sinaimg.cn/thumbnail/006B6NB7ly1ige8r6m53sj331l4kenpi.jpg"))
        #expect(WeiboPictureSize.large.url(of: thumbnail).absoluteString == "https://wx3.sinaimg.cn/large/006B6NB7ly1ige8r6m53sj331l4kenpi.jpg")
        #expect(WeiboPictureSize.size(of: thumbnail) == .thumbnail)
        // Sizes Weibo serves that PhotoDeck does not pick are replaced too; a query stays.
        let square = try #require(URL(string: "https://ww1.sinaimg.cn/crop.0.0.640.640/abc.jpg?KID=imgbed"))
        #expect(WeiboPictureSize.orj360.url(of: square).absoluteString == "https://ww1.sinaimg.cn/orj360/abc.jpg?KID=imgbed")
        // Another host's "/large/" path is not Weibo's: untouched.
        let other = try #require(URL(string: "https://cdn.example.com/large/abc.jpg"))
        #expect(WeiboPictureSize.thumbnail.url(of: other) == other)
        // Not "/SIZE/NAME": untouched.
        for text in ["https://wx1.sinaimg.cn/abc.jpg", "https://wx1.sinaimg.cn/large/sub/abc.jpg", "https://wx1.sinaimg.cn/unknown/abc.jpg"] {
            let url = try #require(URL(string: text))
            #expect(WeiboPictureSize.bmiddle.url(of: url) == url)
        }
        // A loopback mirror is laid out as Weibo's; a look-alike host is not.
        let mirror = try #require(URL(string: "http://127.0.0.1:8080/thumbnail/p.jpg"))
        #expect(WeiboPictureSize.mw690.url(of: mirror).path == "/mw690/p.jpg")
        let lookAlike = try #require(URL(string: "https://sinaimg.cn.evil.example/thumbnail/p.jpg"))
        #expect(WeiboPictureSize.large.url(of: lookAlike) == lookAlike)
    }
}

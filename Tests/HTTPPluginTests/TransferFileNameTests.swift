import HTTPPlugin
import Testing

/// Suggested download names: `Content-Disposition`, URL fallback, sanitising, numbering.
@Suite struct TransferFileNameTests {
    @Test func contentDispositionForms() {
        #expect(DownloadFileName.fromContentDisposition("attachment; filename=\"report.pdf\"") == "report.pdf")
        #expect(DownloadFileName.fromContentDisposition("attachment; filename=plain.txt") == "plain.txt")
        #expect(DownloadFileName.fromContentDisposition("attachment; FILENAME = \"a\\\"b.txt\"") == "a\"b.txt")
        // filename* wins, in either order.
        #expect(
            DownloadFileName.fromContentDisposition(
                "attachment; filename=\"fallback.txt\"; filename*=UTF-8''%E2%82%AC%20rates.txt") == "€ rates.txt")
        #expect(
            DownloadFileName.fromContentDisposition("attachment; filename*=utf-8'en'na%C3%AFve.txt; filename=x.txt")
                == "naïve.txt")
        #expect(DownloadFileName.fromContentDisposition("attachment; filename*=iso-8859-1''caf%E9.txt") == "café.txt")
        // An undecodable filename* falls back to filename.
        #expect(
            DownloadFileName.fromContentDisposition("attachment; filename*=UTF-8''%FF%FE; filename=\"ok.txt\"")
                == "ok.txt")
        #expect(DownloadFileName.fromContentDisposition("inline") == nil)
        #expect(DownloadFileName.fromContentDisposition("attachment; name=\"x\"; filename=\"a;b.txt\"") == "a;b.txt")
    }

    @Test func sanitising() {
        #expect(DownloadFileName.sanitize("../../etc/passwd") == "passwd")
        #expect(DownloadFileName.sanitize("..\\..\\windows\\system.ini") == "system.ini")
        #expect(DownloadFileName.sanitize("/absolute/path.txt") == "path.txt")
        #expect(DownloadFileName.sanitize("..") == nil)
        #expect(DownloadFileName.sanitize("../..") == nil)
        #expect(DownloadFileName.sanitize("   ") == nil)
        #expect(DownloadFileName.sanitize(".bashrc") == "bashrc")
        #expect(DownloadFileName.sanitize("...hidden...") == "hidden")
        #expect(DownloadFileName.sanitize("a\u{0}b\u{7}c\nd\u{7f}.txt") == "abcd.txt")
        #expect(DownloadFileName.sanitize("evil\u{202e}txt.exe") == "eviltxt.exe")
        #expect(DownloadFileName.sanitize("what?<is>:this|*\".txt") == "what__is__this___.txt")
        #expect(DownloadFileName.sanitize("tab\tname.txt") == "tabname.txt")
        let long = String(repeating: "é", count: 300) + ".tar.gz"
        let bounded = DownloadFileName.sanitize(long)!
        #expect(bounded.utf8.count <= DownloadFileName.maxBytes)
        #expect(bounded.hasSuffix("é.tar.gz"))
    }

    @Test func suggestedFallbacks() {
        #expect(
            DownloadFileName.suggested(
                contentDisposition: "attachment; filename=\"../../../x.bin\"", url: "http://h/y.txt") == "x.bin")
        #expect(DownloadFileName.suggested(contentDisposition: nil, url: "http://h/files/a%20b.csv?x=1#f") == "a b.csv")
        #expect(
            DownloadFileName.suggested(contentDisposition: nil, url: "http://h/dir/..%2F..%2Fetc%2Fpasswd") == "passwd")
        #expect(
            DownloadFileName.suggested(contentDisposition: "attachment; filename=\"..\"", url: "http://h/")
                == "download")
        #expect(
            DownloadFileName.suggested(contentDisposition: nil, url: "http://h", mimeType: "application/json")
                == "download.json")
        #expect(
            DownloadFileName.suggested(contentDisposition: nil, url: "http://h/", mimeType: "x/unknown") == "download")
    }

    @Test func numbering() {
        #expect(DownloadFileName.numbered("report.pdf", 1) == "report (1).pdf")
        #expect(DownloadFileName.numbered("archive.tar.gz", 2) == "archive (2).tar.gz")
        #expect(DownloadFileName.numbered("README", 3) == "README (3)")
    }
}

import Foundation
import JSBridge
import JSBridgeTesting
import Testing

/// TextDecoder and TextEncoder against the WHATWG Encoding Standard: the expected values come from the
/// standard's label table and index tables (code points named in the comments).
@Suite struct EncodingTests {
    /// Runs `script` (which prints with `out(...)`) and answers its output lines.
    private func run(_ script: String) async -> [String] {
        let result = await ScriptRunner.run(
            """
            const out = (...values) => console.log(values.join(" "));
            const hex = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16).padStart(4, "0")).join(" ");
            const bytes = (...list) => Uint8Array.from(list);
            const error = (f) => { try { return "no error: " + f(); } catch (e) { return e.name; } };
            \(script)
            """)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.lines
    }

    /// UTF-16LE has a four-units-at-a-time path; UTF-16BE always takes the unit-by-unit one. The same units
    /// in either byte order must decode alike, surrogates (paired, lone, at every lane) and odd ends included.
    @Test func utf16LittleEndianFastPathEqualsTheBigEndianPlainPath() async {
        let lines = await run(
            #"""
            let seed = 7;
            const random = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; };
            const special = [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD7FF, 0xE000, 0xFFFD, 0x0041, 0xF800];
            let same = 0;
            for (let round = 0; round < 400; round++) {
              const units = Array.from({ length: random(40) }, () => random(3) === 0 ? special[random(special.length)] : random(65536));
              const le = new Uint8Array(units.length * 2 + random(2)), be = new Uint8Array(le.length);
              units.forEach((u, i) => { le[2 * i] = u & 255; le[2 * i + 1] = u >> 8; be[2 * i] = u >> 8; be[2 * i + 1] = u & 255; });
              if (le.length % 2) le[le.length - 1] = be[be.length - 1] = 0x41;
              const a = new TextDecoder("utf-16le").decode(le), b = new TextDecoder("utf-16be").decode(be);
              const fa = error(() => new TextDecoder("utf-16le", { fatal: true }).decode(le));
              const fb = error(() => new TextDecoder("utf-16be", { fatal: true }).decode(be));
              if (a === b && fa === fb) same++; else out("differs", hex(a), "/", hex(b));
            }
            out(same);
            """#)
        #expect(lines == ["400"])
    }

    /// UTF-8 has fast paths (eight ASCII bytes at a time, well-formed two- and three-byte sequences): random
    /// bytes, biased towards lead and continuation bytes, decode as the standard's decoder written out in JS.
    @Test func utf8FastPathsEqualTheStandardsDecoder() async {
        let lines = await run(
            #"""
            function reference(bytes) {
              let out = "", needed = 0, seen = 0, code = 0, lower = 0x80, upper = 0xBF;
              for (let i = 0; i <= bytes.length; i++) {
                const byte = bytes[i];
                if (i === bytes.length) { if (needed) out += "�"; break; }
                if (needed === 0) {
                  if (byte < 0x80) out += String.fromCharCode(byte);
                  else if (byte >= 0xC2 && byte <= 0xDF) { needed = 1; code = byte & 0x1F; }
                  else if (byte >= 0xE0 && byte <= 0xEF) { if (byte === 0xE0) lower = 0xA0; if (byte === 0xED) upper = 0x9F; needed = 2; code = byte & 0xF; }
                  else if (byte >= 0xF0 && byte <= 0xF4) { if (byte === 0xF0) lower = 0x90; if (byte === 0xF4) upper = 0x8F; needed = 3; code = byte & 7; }
                  else out += "�";
                  continue;
                }
                if (byte < lower || byte > upper) {
                  code = needed = seen = 0; lower = 0x80; upper = 0xBF; out += "�"; i--; continue;
                }
                lower = 0x80; upper = 0xBF; code = (code << 6) | (byte & 0x3F);
                if (++seen === needed) { out += String.fromCodePoint(code); code = needed = seen = 0; }
              }
              return out;
            }
            let seed = 11;
            const random = (n) => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) % n; };
            const pick = [() => random(0x80), () => 0x80 + random(0x40), () => 0xC0 + random(0x40), () => random(256)];
            let same = 0;
            for (let round = 0; round < 3000; round++) {
              const bytes = Uint8Array.from({ length: random(48) }, () => pick[random(4)]());
              const got = new TextDecoder().decode(bytes), want = reference(bytes);
              if (got === want) same++; else out("differs", Array.from(bytes, (b) => b.toString(16)).join(" "), hex(got), "/", hex(want));
            }
            out(same);
            """#)
        #expect(lines == ["3000"])
    }

    @Test func labelsAreTrimmedOfASCIIWhitespaceOnlyAndMatchedASCIICaseInsensitively() async {
        let lines = await run(
            #"""
            for (const label of [" \t\n\f\rUTF-8 \t", "Latin1", "ascii", "UTF-16", "x-sjis", "gb2312", "csiso88598i",
              "x-mac-ukrainian", "dos-874", "ks_c_5601-1987", "cn-big5", "koi", "unicodefffe", "x-user-defined"]) {
              out(JSON.stringify(label), new TextDecoder(label).encoding);
            }
            for (const label of ["\vutf-8", "utf-8\u00a0", "\u212Aoi8-r", "iso-2022-kr", "replacement", "utf-7", ""]) {
              out(JSON.stringify(label), error(() => new TextDecoder(label)));
            }
            out(new TextDecoder().encoding, new TextDecoder(undefined).encoding, error(() => new TextDecoder(null)));
            """#)
        #expect(
            lines == [
                #"" \t\n\f\rUTF-8 \t" utf-8"#, #""Latin1" windows-1252"#, #""ascii" windows-1252"#,
                #""UTF-16" utf-16le"#, #""x-sjis" shift_jis"#, #""gb2312" gbk"#, #""csiso88598i" iso-8859-8-i"#,
                #""x-mac-ukrainian" x-mac-cyrillic"#, #""dos-874" windows-874"#, #""ks_c_5601-1987" euc-kr"#,
                #""cn-big5" big5"#, #""koi" koi8-r"#, #""unicodefffe" utf-16be"#, #""x-user-defined" x-user-defined"#,
                #""\u000butf-8" RangeError"#, "\"utf-8\u{a0}\" RangeError", #""Koi8-r" RangeError"#,
                #""iso-2022-kr" RangeError"#, #""replacement" RangeError"#, #""utf-7" RangeError"#, #""" RangeError"#,
                "utf-8 utf-8 RangeError",
            ])
    }

    @Test func singleByteEncodingsFollowTheirIndexes() async {
        let lines = await run(
            #"""
            out(hex(new TextDecoder("windows-1252").decode(bytes(0x41, 0x80, 0x9f, 0xe9))));   // A € Ÿ é
            out(hex(new TextDecoder("ibm866").decode(bytes(0x80, 0xf0))));                      // А Ё
            out(hex(new TextDecoder("iso-8859-2").decode(bytes(0xa1, 0xff))));                  // Ą ˙
            out(hex(new TextDecoder("koi8-r").decode(bytes(0xc1, 0xe1))));                      // а А
            out(hex(new TextDecoder("windows-1251").decode(bytes(0xc0))));                      // А
            out(hex(new TextDecoder("iso-8859-7").decode(bytes(0xe1))));                        // α
            out(hex(new TextDecoder("macintosh").decode(bytes(0x80))));                         // Ä
            out(hex(new TextDecoder("x-user-defined").decode(bytes(0x41, 0x80, 0xff))));       // A U+F780 U+F7FF
            """#)
        #expect(
            lines == [
                "0041 20ac 0178 00e9", "0410 0401", "0104 02d9", "0430 0410", "0410", "03b1", "00c4", "0041 f780 f7ff",
            ])
    }

    @Test func multiByteEncodingsDecodeAndReplaceInvalidSequences() async {
        let lines = await run(
            #"""
            out(hex(new TextDecoder("shift_jis").decode(bytes(0x82, 0xa0, 0x41))));               // あ A
            out(hex(new TextDecoder("euc-jp").decode(bytes(0xa4, 0xa2))));                        // あ
            out(hex(new TextDecoder("iso-2022-jp").decode(bytes(0x1b, 0x24, 0x42, 0x24, 0x22, 0x1b, 0x28, 0x42, 0x41)))); // あ A
            out(hex(new TextDecoder("euc-kr").decode(bytes(0xb0, 0xa1))));                        // 가
            out(hex(new TextDecoder("big5").decode(bytes(0xa4, 0x40))));                          // 一
            out(hex(new TextDecoder("gbk").decode(bytes(0xd2, 0xbb))));                           // 一
            out(hex(new TextDecoder("gb18030").decode(bytes(0x81, 0x30, 0x81, 0x30))));           // U+0080
            out(hex(new TextDecoder("gb18030").decode(bytes(0x90, 0x30, 0x81, 0x30))));           // U+10000
            out(hex(new TextDecoder("shift_jis").decode(bytes(0x82))));                           // unfinished: U+FFFD
            out(error(() => new TextDecoder("euc-kr", { fatal: true }).decode(bytes(0xb0))));
            out(hex(new TextDecoder("gb18030").decode(bytes(0x80))), hex(new TextDecoder("gbk", { fatal: true }).decode(bytes(0x80)))); // €
            out(hex(new TextDecoder("euc-kr").decode(bytes(0x8e, 0x40))));    // invalid pair: the ASCII byte is kept
            out(hex(new TextDecoder("gb18030").decode(bytes(0x81, 0x30))));   // a four-byte sequence cut short: one error
            """#)
        #expect(
            lines == [
                "3042 0041", "3042", "3042 0041", "ac00", "4e00", "4e00", "0080", "d800 dc00", "fffd", "TypeError",
                "20ac 20ac", "fffd 0040", "fffd",
            ])
    }

    @Test func utf8ReplacesEachMaximalSubpartAndFatalThrows() async {
        let lines = await run(
            #"""
            const d = new TextDecoder();
            out(hex(d.decode(bytes(0xf0, 0x80, 0x80))));        // F0 needs 90..BF next: three errors
            out(hex(d.decode(bytes(0xf0, 0x90, 0x80))));        // a valid prefix cut short: one error
            out(hex(d.decode(bytes(0xed, 0xa0, 0x80))));        // a surrogate: three errors
            out(hex(d.decode(bytes(0x61, 0xc0, 0x62))));
            out(hex(d.decode(bytes(0xf0, 0x9f, 0x98, 0x80))));  // U+1F600
            out(error(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes(0xff))));
            const f = new TextDecoder("utf-8", { fatal: true });
            try { f.decode(bytes(0xe2, 0x82), { stream: true }); f.decode(); } catch (e) { out(e.name, e.code); }
            out(hex(f.decode(bytes(0x41))));                    // the decoder is usable after the error
            """#)
        #expect(
            lines == [
                "fffd fffd fffd", "fffd", "fffd fffd fffd", "0061 fffd 0062", "d83d de00", "TypeError",
                "TypeError ERR_ENCODING_INVALID_ENCODED_DATA", "0041",
            ])
    }

    @Test func streamingCarriesUnfinishedSequencesAcrossChunks() async {
        let lines = await run(
            #"""
            // Every split of each input into two chunks decodes like the whole input.
            const cases = [["utf-8", [0x41, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]], ["utf-16le", [0x3d, 0xd8, 0x00, 0xde, 0x41, 0x00]],
              ["utf-16be", [0xd8, 0x3d, 0xde, 0x00, 0x00, 0x41]], ["shift_jis", [0x82, 0xa0, 0x82, 0xa2]],
              ["iso-2022-jp", [0x1b, 0x24, 0x42, 0x24, 0x22, 0x1b, 0x28, 0x42, 0x41]], ["gb18030", [0x90, 0x30, 0x81, 0x30, 0xd2, 0xbb]],
              ["big5", [0xa4, 0x40, 0xa4, 0x40]], ["euc-kr", [0xb0, 0xa1]], ["euc-jp", [0x8f, 0xb0, 0xa1]]];
            for (const [name, list] of cases) {
              const whole = new TextDecoder(name).decode(Uint8Array.from(list));
              let same = 0;
              for (let cut = 0; cut <= list.length; cut++) {
                const d = new TextDecoder(name);
                const text = d.decode(Uint8Array.from(list.slice(0, cut)), { stream: true }) + d.decode(Uint8Array.from(list.slice(cut)));
                if (text === whole) same++;
              }
              out(name, hex(whole), same === list.length + 1);
            }
            // Byte by byte, then an unfinished sequence at the end is one error.
            const d = new TextDecoder("utf-16le");
            let text = "";
            for (const b of [0x41, 0x00, 0x3d, 0xd8, 0x00]) text += d.decode(bytes(b), { stream: true });
            out(hex(text + d.decode()));
            """#)
        #expect(
            lines == [
                "utf-8 0041 20ac d83d de00 true", "utf-16le d83d de00 0041 true", "utf-16be d83d de00 0041 true",
                "shift_jis 3042 3044 true", "iso-2022-jp 3042 0041 true", "gb18030 d800 dc00 4e00 true",
                "big5 4e00 4e00 true", "euc-kr ac00 true", "euc-jp 4e02 true", "0041 fffd",
            ])
    }

    @Test func byteOrderMarksAreDroppedOnceUnlessIgnoreBOM() async {
        let lines = await run(
            #"""
            out(hex(new TextDecoder().decode(bytes(0xef, 0xbb, 0xbf, 0x41))));
            out(hex(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes(0xef, 0xbb, 0xbf, 0x41))));
            out(hex(new TextDecoder("utf-16be").decode(bytes(0xfe, 0xff, 0x00, 0x41))));
            out(hex(new TextDecoder("utf-16le").decode(bytes(0xfe, 0xff))));   // U+FFFE is no BOM
            const d = new TextDecoder();
            out(hex(d.decode(bytes(0xef, 0xbb), { stream: true }) + d.decode(bytes(0xbf, 0xef, 0xbb, 0xbf))));
            """#)
        #expect(lines == ["0041", "feff 0041", "0041", "fffe", "feff"])
    }

    @Test func decodeAcceptsEveryBufferSourceAndRejectsOthers() async {
        let lines = await run(
            #"""
            const buffer = new TextEncoder().encode("héllo").buffer;
            const d = new TextDecoder();
            out(d.decode(buffer), d.decode(new DataView(buffer, 1, 2)), d.decode(new Uint8Array(buffer, 3)), d.decode(new Uint16Array(buffer, 0, 2)));
            // A SharedArrayBuffer made as the web-platform-tests make one (this engine has no SharedArrayBuffer global).
            const Shared = new WebAssembly.Memory({ shared: true, initial: 0, maximum: 0 }).buffer.constructor;
            const shared = new Shared(2);
            new Uint8Array(shared).set([0x68, 0x69]);
            out(d.decode(shared), d.decode(new Uint8Array(shared, 1)));
            out(JSON.stringify(d.decode()), error(() => d.decode(null)), error(() => d.decode("text")), error(() => d.decode([65])));
            out(error(() => new TextDecoder("utf-8", 5)), new TextDecoder("utf-8", null).fatal, new TextDecoder("utf-8", { fatal: 1 }).fatal);
            const getter = Object.getOwnPropertyDescriptor(TextDecoder.prototype, "encoding").get;
            out(error(() => getter.call({})), error(() => TextDecoder.prototype.decode.call({}, bytes())), error(() => TextDecoder("utf-8")));
            out(Object.prototype.toString.call(new TextDecoder()), Object.prototype.toString.call(new TextEncoder()), TextDecoder.length);
            """#)
        #expect(
            lines == [
                "héllo é llo hél", "hi i", #""" TypeError TypeError TypeError"#, "TypeError false true",
                "TypeError TypeError TypeError", "[object TextDecoder] [object TextEncoder] 0",
            ])
    }

    @Test func encodeIntoReportsUnitsReadAndBytesWrittenWithoutSplittingCharacters() async {
        let lines = await run(
            #"""
            const e = new TextEncoder();
            const show = (r) => `${r.read}/${r.written}`;
            out(show(e.encodeInto("a\u00e9\ud83d\ude00", new Uint8Array(4))), show(e.encodeInto("a\u00e9\ud83d\ude00", new Uint8Array(7))));
            const target = new Uint8Array(6);
            out(show(e.encodeInto("\ud800x", target.subarray(2))), Array.from(target).join(","));
            out(error(() => e.encodeInto("a", new Uint16Array(2))), error(() => e.encodeInto("a")), show(e.encodeInto("", new Uint8Array(0))));
            out(Array.from(e.encode("\udc00\ud800")).join(","), e.encode().length, e.encode(undefined).length, Array.from(e.encode(null)).join(","));
            out(e.encoding, error(() => Object.getOwnPropertyDescriptor(TextEncoder.prototype, "encoding").get.call({})));
            """#)
        #expect(
            lines == [
                "2/3 4/7", "2/4 0,0,239,191,189,120", "TypeError TypeError 0/0",
                "239,191,189,239,191,189 0 0 110,117,108,108", "utf-8 TypeError",
            ])
    }
}

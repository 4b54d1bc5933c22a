import JSBridgeTesting
import Testing

/// Web Crypto (`crypto.subtle`, the web extension's crypto.js over swift-crypto) and node:crypto's hashes and
/// ciphers, run as scripts. Each script also runs unchanged under Node 20 (`node`), whose output the expected
/// lines were recorded from (and, where a published test vector exists, the line holds that vector).
@Suite struct WebCryptoTests {
    /// Helpers every script uses (hex in and out, UTF-8, base64url, an error's constructor and name).
    static let prelude = #"""
        const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
        const unhex = (s) => new Uint8Array(s.match(/../g).map((x) => parseInt(x, 16)));
        const text = (s) => new TextEncoder().encode(s);
        const b64u = (s) => btoa(String.fromCharCode(...unhex(s))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        const subtle = crypto.subtle;
        const fail = (e) => `${e.constructor.name} ${e.name}`;
        """#

    static func run(_ script: String) async -> ScriptResult {
        await ScriptRunner.run(prelude + "\n" + script)
    }

    /// SHA digests (FIPS 180 "abc"), HMAC (RFC 4231 cases 1 and 2), PBKDF2 (RFC 6070) and HKDF (RFC 5869 case 1); the
    /// 1 MiB digest runs on a worker thread. Expected lines: the vectors, and Node 20's output for the same script.
    @Test func digestHMACPBKDF2AndHKDFMatchThePublishedVectors() async {
        let result = await Self.run(
            #"""
            (async () => {
              // FIPS 180 "abc" examples.
              for (const name of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) console.log(name, hex(await subtle.digest(name, text("abc"))));
              console.log("big", hex(await subtle.digest({ name: "sha-256" }, new Uint8Array(1 << 20))));
              // RFC 4231 test cases 1 and 2.
              const key1 = await subtle.importKey("raw", new Uint8Array(20).fill(0x0b), { name: "HMAC", hash: "SHA-256" }, true, ["sign", "verify"]);
              const mac1 = await subtle.sign("HMAC", key1, text("Hi There"));
              console.log("hmac1", hex(mac1), await subtle.verify("HMAC", key1, mac1, text("Hi There")), await subtle.verify("HMAC", key1, mac1, text("Hi there")));
              for (const hash of ["SHA-384", "SHA-512"]) {
                const key = await subtle.importKey("raw", text("Jefe"), { name: "HMAC", hash }, false, ["sign"]);
                console.log("hmac2", hash, hex(await subtle.sign({ name: "HMAC" }, key, text("what do ya want for nothing?"))));
              }
              const jwk = await subtle.exportKey("jwk", key1);
              console.log(JSON.stringify([jwk.kty, jwk.k, jwk.alg, jwk.ext, jwk.key_ops]), JSON.stringify(key1.algorithm));
              const fromJwk = await subtle.importKey("jwk", jwk, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
              console.log("jwk-verify", await subtle.verify("HMAC", fromJwk, mac1, text("Hi There")));
              const gen = await subtle.generateKey({ name: "HMAC", hash: "SHA-512" }, true, ["sign"]);
              console.log("gen", JSON.stringify(gen.algorithm), (await subtle.exportKey("raw", gen)).byteLength);
              // RFC 6070 PBKDF2-HMAC-SHA1.
              const password = await subtle.importKey("raw", text("password"), "PBKDF2", false, ["deriveBits", "deriveKey"]);
              for (const iterations of [1, 2, 4096]) {
                console.log("pbkdf2", iterations, hex(await subtle.deriveBits({ name: "PBKDF2", salt: text("salt"), iterations, hash: "SHA-1" }, password, 160)));
              }
              console.log("pbkdf2-256", hex(await subtle.deriveBits({ name: "PBKDF2", salt: text("salt"), iterations: 1000, hash: "SHA-256" }, password, 256)));
              // RFC 5869 test case 1 (HKDF-SHA-256).
              const ikm = await subtle.importKey("raw", new Uint8Array(22).fill(0x0b), "HKDF", false, ["deriveBits", "deriveKey"]);
              const hkdf = { name: "HKDF", hash: "SHA-256", salt: unhex("000102030405060708090a0b0c"), info: unhex("f0f1f2f3f4f5f6f7f8f9") };
              console.log("hkdf", hex(await subtle.deriveBits(hkdf, ikm, 336)));
              const derived = await subtle.deriveKey(hkdf, ikm, { name: "AES-GCM", length: 128 }, true, ["encrypt"]);
              console.log("hkdf-key", JSON.stringify(derived.algorithm), hex(await subtle.exportKey("raw", derived)));
              const derivedHmac = await subtle.deriveKey({ name: "PBKDF2", salt: text("salt"), iterations: 2, hash: "SHA-1" }, password, { name: "HMAC", hash: "SHA-1", length: 160 }, true, ["sign"]);
              console.log("pbkdf2-key", JSON.stringify(derivedHmac.algorithm), hex(await subtle.exportKey("raw", derivedHmac)));
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "SHA-1 a9993e364706816aba3e25717850c26c9cd0d89d",
                "SHA-256 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "SHA-384 cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
                "SHA-512 ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                "big 30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58",
                "hmac1 b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7 true false",
                "hmac2 SHA-384 af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
                "hmac2 SHA-512 164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
                "[\"oct\",\"CwsLCwsLCwsLCwsLCwsLCwsLCws\",\"HS256\",true,[\"sign\",\"verify\"]] {\"name\":\"HMAC\",\"hash\":{\"name\":\"SHA-256\"},\"length\":160}",
                "jwk-verify true",
                "gen {\"name\":\"HMAC\",\"length\":1024,\"hash\":{\"name\":\"SHA-512\"}} 128",
                "pbkdf2 1 0c60c80f961f0e71f3a9b524af6012062fe037a6",
                "pbkdf2 2 ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957",
                "pbkdf2 4096 4b007901b765489abead49d926f721d065a429c1",
                "pbkdf2-256 632c2812e46d4604102ba7618e9d6d7d2f8128f6266b4a03264d2a0460b7dcb3",
                "hkdf 3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
                "hkdf-key {\"name\":\"AES-GCM\",\"length\":128} 3cb25f25faacd57a90434f64d0362f2a",
                "pbkdf2-key {\"name\":\"HMAC\",\"hash\":{\"name\":\"SHA-1\"},\"length\":160} ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957",
            ])
    }

    /// AES-GCM/CBC/CTR (a counter that wraps inside its bits), JWK import and export, generateKey, AES-KW (RFC 3394
    /// §4.1's vector), a JWK wrapped with AES-GCM, and a 300 KB input through a worker thread. Expected lines: Node 20's
    /// output for the same script.
    @Test func aesModesKeyWrapAndWrappingMatchNode() async {
        let result = await Self.run(
            #"""
            (async () => {
              const raw = unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
              const data = text("The quick brown fox jumps over the lazy dog, twice over.");
              const iv12 = unhex("cafebabefacedbaddecaf888"), iv16 = unhex("000102030405060708090a0b0c0d0e0f");
              for (const name of ["AES-GCM", "AES-CBC", "AES-CTR"]) {
                const key = await subtle.importKey("raw", raw, name, true, ["encrypt", "decrypt"]);
                const params = name === "AES-GCM" ? { name, iv: iv12, additionalData: text("header") }
                  : name === "AES-CBC" ? { name, iv: iv16 } : { name, counter: iv16, length: 64 };
                const sealed = await subtle.encrypt(params, key, data);
                const opened = await subtle.decrypt(params, key, sealed);
                console.log(name, hex(sealed), new TextDecoder().decode(opened));
              }
              // A counter whose low 4 bits wrap within the data: they wrap to zero without carrying.
              const ctrKey = await subtle.importKey("raw", raw.slice(0, 16), "AES-CTR", false, ["encrypt"]);
              const counter = unhex("00000000000000000000000000000000e".padStart(32, "0"));
              console.log("ctr-wrap", hex(await subtle.encrypt({ name: "AES-CTR", counter, length: 4 }, ctrKey, new Uint8Array(64))));
              // JWK round trip and generateKey.
              const jwkKey = await subtle.importKey("jwk", { kty: "oct", k: b64u("000102030405060708090a0b0c0d0e0f"), alg: "A128CBC" }, { name: "AES-CBC" }, true, ["encrypt"]);
              const jwk = await subtle.exportKey("jwk", jwkKey);
              console.log(JSON.stringify([jwk.kty, jwk.k, jwk.alg, jwk.ext, jwk.key_ops]));
              const generated = await subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
              console.log(generated.type, generated.extractable, JSON.stringify(generated.algorithm), generated.usages.join(), (await subtle.exportKey("raw", generated)).byteLength);
              // AES-KW, RFC 3394 section 4.1.
              const kek = await subtle.importKey("raw", unhex("000102030405060708090a0b0c0d0e0f"), "AES-KW", false, ["wrapKey", "unwrapKey"]);
              const inner = await subtle.importKey("raw", unhex("00112233445566778899aabbccddeeff"), { name: "AES-GCM" }, true, ["encrypt"]);
              const wrapped = await subtle.wrapKey("raw", inner, kek, "AES-KW");
              console.log("kw", hex(wrapped));
              const unwrapped = await subtle.unwrapKey("raw", wrapped, kek, "AES-KW", "AES-GCM", true, ["encrypt"]);
              console.log("unwrapped", hex(await subtle.exportKey("raw", unwrapped)));
              // A JWK wrapped with AES-GCM and back.
              const gcm = await subtle.importKey("raw", raw, "AES-GCM", false, ["wrapKey", "unwrapKey"]);
              const hmac = await subtle.importKey("raw", text("secret"), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
              const wrappedJwk = await subtle.wrapKey("jwk", hmac, gcm, { name: "AES-GCM", iv: iv12 });
              const back = await subtle.unwrapKey("jwk", wrappedJwk, gcm, { name: "AES-GCM", iv: iv12 }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
              console.log("jwk-wrap", hex(await subtle.exportKey("raw", back)), JSON.stringify(back.algorithm));
              // Tags shorter than 128 bits: truncated on encryption, checked on decryption.
              const shortKey = await subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
              for (const tagLength of [32, 96, 120]) {
                const params = { name: "AES-GCM", iv: iv12, additionalData: text("aad"), tagLength };
                const sealedShort = new Uint8Array(await subtle.encrypt(params, shortKey, data));
                const openedShort = new TextDecoder().decode(await subtle.decrypt(params, shortKey, sealedShort));
                sealedShort[sealedShort.length - 1] ^= 1;
                const tampered = await subtle.decrypt(params, shortKey, sealedShort).then(() => "opened", (e) => e.name);
                console.log("gcm-tag", tagLength, hex(sealedShort.slice(-tagLength / 8)), openedShort === new TextDecoder().decode(data), tampered);
              }
              // A large input (above the worker threshold) in both directions.
              const big = new Uint8Array(300000).map((_, i) => i & 255);
              const key = await subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
              const bigSealed = await subtle.encrypt({ name: "AES-GCM", iv: iv12 }, key, big);
              const bigOpened = new Uint8Array(await subtle.decrypt({ name: "AES-GCM", iv: iv12 }, key, bigSealed));
              console.log("big", bigSealed.byteLength, hex(await subtle.digest("SHA-256", bigSealed)), bigOpened.every((x, i) => x === (i & 255)));
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "AES-GCM decbc506db0f26782d2b3faf146ae71f6b4fb871b56c07043dff6b07dbfb458bc535e12aa0ae304242344f4412f7570c3a31893ed5effafed363f866b29f17b8828553a8e21778f4 The quick brown fox jumps over the lazy dog, twice over.",
                "AES-CBC 4846f83aa211e239aa62a21f527f089ee9ddbead30ee15d4e79b607a621b97be2009aa63a225f6c8061d3f4d18f4f0034632a064a78ba1ca26a379a4cc28dafa The quick brown fox jumps over the lazy dog, twice over.",
                "AES-CTR 0e066177798e18f59b0e374f6db4c8b2069c68f5a9f0352d26369427179700bb740057375bbfb584df8e6c89c565b0fbf5ae271d5ef5d5c1 The quick brown fox jumps over the lazy dog, twice over.",
                "ctr-wrap c6a13b37878f5b826f4f8162a1c8d8797346139595c0b41e497bbde365f42d0a49d68753999ba68ce3897a686081b09db9ad2b2e346ac238505d365e9cb7fc56",
                "[\"oct\",\"AAECAwQFBgcICQoLDA0ODw\",\"A128CBC\",true,[\"encrypt\"]]",
                "secret true {\"name\":\"AES-GCM\",\"length\":256} encrypt,decrypt 32",
                "kw 1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5",
                "unwrapped 00112233445566778899aabbccddeeff",
                "jwk-wrap 736563726574 {\"name\":\"HMAC\",\"hash\":{\"name\":\"SHA-256\"},\"length\":48}",
                "gcm-tag 32 2c27a3bd true OperationError",
                "gcm-tag 96 2c27a3bc609446280fec4ebb true OperationError",
                "gcm-tag 120 2c27a3bc609446280fec4ebac39112 true OperationError",
                "big 300016 c7d10dfe1e31276dcf2930a2113f0ecb8b01e08b9632bc17bd78eb3d26cf8220 true",
            ])
    }

    /// ECDSA and ECDH on P-256/384/521 with keys Node made: SPKI/PKCS #8/raw/JWK export equal to Node's, Node's
    /// signatures verify, ECDH secrets equal Node's, generated keys round-trip. Expected lines: Node 20's output.
    @Test func ecdsaAndECDHOnTheNISTCurvesMatchNode() async {
        let result = await Self.run(
            #"""
            const ecKeys = [
            {"curve":"P-256","a":{"x":"308xRpWXMMEBvCcjFFZxB7ulZD-ItmwHObgZatysmUo","y":"x0jvGDOBLrUl-7cxAXaQs2rb2kpVwW6vyed9-mEP3yQ","d":"ZHe5aAxnrPwiFQoGben_t9ydk7S7M9PEgkmsA8ZWzAE"},"b":{"x":"SJ0q__8mxCIpNxjolij0fyEe1A22qaqoBDQhq8PGAq0","y":"RF1DcNRptSPnDNFWAzqvA2_mF9Xz7wtBvOayNbTS36s","d":"h2FFSpo1c7tZiF9VJOm21mQc07zalPXUMDTgTL2znA4"}},
            {"curve":"P-384","a":{"x":"xqrd53CXOG_A8qEG0nYPKm4rmLb4vK3dExeNHBeJn-RrMHGKr4XrHAcZx3wk2kXV","y":"neVucK9V-guqqtRdurGo1uj56BGL4vdor41-EeTzCN3jeV8-zHhlmT2MMOtCDDKS","d":"bdOxcA36p78HdhbUTp7qmKGzGGYX5yCULZF82efHMxNhCIoHsT0hEe72LIMZ0qMP"},"b":{"x":"DCERIokHRb7FFSEKL0PAAu-GtrGN4nREg_dKiargsXanCoN07leRPMt2cnMLEli9","y":"zRyfUl9rfds8dWIITS4B8jsnSDONaoCmtarL8_KkO2GwNlVCVd5eQC_28VHtkcd_","d":"Gk5Bj4wLDDItwZNbS2JZhBirT-521HWHtYqQdbLjb1vflHwvsqGDMhWPf42ZwqEH"}},
            {"curve":"P-521","a":{"x":"AHX4MhIPA7Ua5sJqh4Z3qu7g3BU4UFAntxxeAtzYlTdTpsQi5ldK3IWspPXEsiLEXG_VXysVwQjhHJLFn5xlHx4e","y":"ARI1MUIylb8Wt_AiKF1DJ3iruDGZBjbu1ZulUR_3o01urRz8ocQB6kJ5kPD7lTs6WL7frGI92iqKOmSS7BX9mBqb","d":"ATQ_HYmpiOVkWEFUJZwD-Un4HcteQcPzm5-igciYNGg1P55b3GRbevVcOVBn9nvHAW1kFM6kQh-kq69Um1O0ifxw"},"b":{"x":"Aci008ouiMHGMfUte5qTxr8sLPjt6Scx5KRiRe9SjaWpSnrFHhhkfOatvHIKmPEyLcx7qmoVbAhWotO7VkY75BXj","y":"AfrRSh6pOh-JKYvlvUtRbgHr6jGOjogiursmfJ-UBBvITz2vqnoxrVOVD6pX1SIYGXuGTHiYTQNUvjXVE2XWlWb4","d":"AAiL2RJIXP6GQx2qBuqVH92j0wxg0_uXaewSaRcMZA4n9EBfytjX3a9vsuINBdR9WGhP8WcKfqQ10AZ_jcq4MRUy"}},
            ];
            const nodeSignatures = {"P-256":"6274959a6ba45c43f65b69198f8adf66d0f0385f0ddf87c860e36d55c87ec6670239fe4c744fc7f0014190440689083809b633f57d1d66b6b943b4160f0751dd","P-384":"d5d0404e50076f06196ce8e2d757fa56a3bae5a2a857052c1423c8bb4328b6fa6df331871bcf156c38f17bcf8a2725174e34f70ab27ed161705b973f440ab56b8bb002f690034e9ab43232560b7607a95e0da633e1ff67986f23809bd926746a","P-521":"0103907fe6efeca631e65e5415c15c390162fd541baaef875829b9d711c60704706ab36727a07954feda2f5d1b054c88a08342cc9d5f2bcd4159027bffd722bab6dd01b376240a73c11c4fd4db1f63f56da18f34b09c7ac2d69fef0a4eec4be6a6437841360eb1327da1a52377d91c86264cecee34ff4c667c72cde4d0130453eb5e7305"};
            (async () => {
              const hashes = { "P-256": "SHA-256", "P-384": "SHA-384", "P-521": "SHA-512" };
              for (const { curve, a, b } of ecKeys) {
                const ecdsa = { name: "ECDSA", namedCurve: curve };
                const priv = await subtle.importKey("jwk", { kty: "EC", crv: curve, ...a }, ecdsa, true, ["sign"]);
                const pub = await subtle.importKey("jwk", { kty: "EC", crv: curve, x: a.x, y: a.y }, ecdsa, true, ["verify"]);
                const spki = await subtle.exportKey("spki", pub), pkcs8 = await subtle.exportKey("pkcs8", priv), raw = await subtle.exportKey("raw", pub);
                console.log(curve, priv.type, pub.type, JSON.stringify(priv.algorithm), priv.usages.join(), hex(spki), hex(pkcs8), hex(raw));
                const fromSpki = await subtle.importKey("spki", spki, ecdsa, true, ["verify"]);
                const fromPkcs8 = await subtle.importKey("pkcs8", pkcs8, ecdsa, true, ["sign"]);
                const fromRaw = await subtle.importKey("raw", raw, ecdsa, true, ["verify"]);
                const jwk = await subtle.exportKey("jwk", fromPkcs8);
                console.log(curve, "jwk", jwk.kty, jwk.crv, jwk.x === a.x, jwk.y === a.y, jwk.d === a.d, JSON.stringify(jwk.key_ops), jwk.ext);
                const hash = hashes[curve];
                const data = text("signed by node");
                console.log(curve, "node-signature", await subtle.verify({ name: "ECDSA", hash }, fromSpki, unhex(nodeSignatures[curve]), data),
                  await subtle.verify({ name: "ECDSA", hash }, fromRaw, unhex(nodeSignatures[curve]), text("changed")));
                const signature = await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, fromPkcs8, text("mine"));
                console.log(curve, "round-trip", signature.byteLength, await subtle.verify({ name: "ECDSA", hash: "SHA-256" }, pub, signature, text("mine")));
                // ECDH between the two fixed keys, both ways.
                const ecdh = { name: "ECDH", namedCurve: curve };
                const pa = await subtle.importKey("jwk", { kty: "EC", crv: curve, ...a }, ecdh, false, ["deriveBits", "deriveKey"]);
                const qb = await subtle.importKey("jwk", { kty: "EC", crv: curve, x: b.x, y: b.y }, ecdh, false, []);
                const pb = await subtle.importKey("jwk", { kty: "EC", crv: curve, ...b }, ecdh, false, ["deriveBits"]);
                const qa = await subtle.importKey("raw", raw, ecdh, false, []);
                const ab = await subtle.deriveBits({ name: "ECDH", public: qb }, pa, null);
                const ba = await subtle.deriveBits({ name: "ECDH", public: qa }, pb, 128);
                console.log(curve, "ecdh", hex(ab), hex(ba));
                const aesKey = await subtle.deriveKey({ name: "ECDH", public: qb }, pa, { name: "AES-CBC", length: 256 }, true, ["encrypt"]);
                console.log(curve, "ecdh-key", hex(await subtle.exportKey("raw", aesKey)));
              }
              const pair = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, false, ["sign", "verify"]);
              const sig = await subtle.sign({ name: "ECDSA", hash: "SHA-384" }, pair.privateKey, text("x"));
              console.log("generated", pair.privateKey.extractable, pair.publicKey.extractable, pair.privateKey.usages.join(), pair.publicKey.usages.join(),
                sig.byteLength, await subtle.verify({ name: "ECDSA", hash: "SHA-384" }, pair.publicKey, sig, text("x")));
              const dh = await subtle.generateKey({ name: "ECDH", namedCurve: "P-521" }, true, ["deriveBits"]);
              const dh2 = await subtle.generateKey({ name: "ECDH", namedCurve: "P-521" }, true, ["deriveBits"]);
              const s1 = await subtle.deriveBits({ name: "ECDH", public: dh2.publicKey }, dh.privateKey, 528);
              const s2 = await subtle.deriveBits({ name: "ECDH", public: dh.publicKey }, dh2.privateKey, 528);
              console.log("generated-ecdh", s1.byteLength, hex(s1) === hex(s2), dh.publicKey.usages.length);
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "P-256 private public {\"name\":\"ECDSA\",\"namedCurve\":\"P-256\"} sign 3059301306072a8648ce3d020106082a8648ce3d03010703420004df4f3146959730c101bc272314567107bba5643f88b66c0739b8196adcac994ac748ef1833812eb525fbb731017690b36adbda4a55c16eafc9e77dfa610fdf24 308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b02010104206477b9680c67acfc22150a066de9ffb7dc9d93b4bb33d3c48249ac03c656cc01a14403420004df4f3146959730c101bc272314567107bba5643f88b66c0739b8196adcac994ac748ef1833812eb525fbb731017690b36adbda4a55c16eafc9e77dfa610fdf24 04df4f3146959730c101bc272314567107bba5643f88b66c0739b8196adcac994ac748ef1833812eb525fbb731017690b36adbda4a55c16eafc9e77dfa610fdf24",
                "P-256 jwk EC P-256 true true true [\"sign\"] true",
                "P-256 node-signature true false",
                "P-256 round-trip 64 true",
                "P-256 ecdh ca6a1b096ba3ab4c9cecc844b1a7b7e67ce8b843b87f6c5b041cbece12291ad9 ca6a1b096ba3ab4c9cecc844b1a7b7e6",
                "P-256 ecdh-key ca6a1b096ba3ab4c9cecc844b1a7b7e67ce8b843b87f6c5b041cbece12291ad9",
                "P-384 private public {\"name\":\"ECDSA\",\"namedCurve\":\"P-384\"} sign 3076301006072a8648ce3d020106052b8104002203620004c6aadde77097386fc0f2a106d2760f2a6e2b98b6f8bcaddd13178d1c17899fe46b30718aaf85eb1c0719c77c24da45d59de56e70af55fa0baaaad45dbab1a8d6e8f9e8118be2f768af8d7e11e4f308dde3795f3ecc7865993d8c30eb420c3292 3081b6020100301006072a8648ce3d020106052b8104002204819e30819b02010104306dd3b1700dfaa7bf077616d44e9eea98a1b3186617e720942d917cd9e7c7331361088a07b13d2111eef62c8319d2a30fa16403620004c6aadde77097386fc0f2a106d2760f2a6e2b98b6f8bcaddd13178d1c17899fe46b30718aaf85eb1c0719c77c24da45d59de56e70af55fa0baaaad45dbab1a8d6e8f9e8118be2f768af8d7e11e4f308dde3795f3ecc7865993d8c30eb420c3292 04c6aadde77097386fc0f2a106d2760f2a6e2b98b6f8bcaddd13178d1c17899fe46b30718aaf85eb1c0719c77c24da45d59de56e70af55fa0baaaad45dbab1a8d6e8f9e8118be2f768af8d7e11e4f308dde3795f3ecc7865993d8c30eb420c3292",
                "P-384 jwk EC P-384 true true true [\"sign\"] true",
                "P-384 node-signature true false",
                "P-384 round-trip 96 true",
                "P-384 ecdh e2a7c6fa75eae7855fb488d60a227f5c7cf84223dddd1e3b902c4fe6a888d785d4c8e36c4ca1d86bf108c93bda4c0feb e2a7c6fa75eae7855fb488d60a227f5c",
                "P-384 ecdh-key e2a7c6fa75eae7855fb488d60a227f5c7cf84223dddd1e3b902c4fe6a888d785",
                "P-521 private public {\"name\":\"ECDSA\",\"namedCurve\":\"P-521\"} sign 30819b301006072a8648ce3d020106052b8104002303818600040075f832120f03b51ae6c26a878677aaeee0dc1538505027b71c5e02dcd8953753a6c422e6574adc85aca4f5c4b222c45c6fd55f2b15c108e11c92c59f9c651f1e1e01123531423295bf16b7f022285d432778abb831990636eed59ba5511ff7a34d6ead1cfca1c401ea427990f0fb953b3a58bedfac623dda2a8a3a6492ec15fd981a9b 3081ee020100301006072a8648ce3d020106052b810400230481d63081d3020101044201343f1d89a988e564584154259c03f949f81dcb5e41c3f39b9fa281c8983468353f9e5bdc645b7af55c395067f67bc7016d6414cea4421fa4abaf549b53b489fc70a1818903818600040075f832120f03b51ae6c26a878677aaeee0dc1538505027b71c5e02dcd8953753a6c422e6574adc85aca4f5c4b222c45c6fd55f2b15c108e11c92c59f9c651f1e1e01123531423295bf16b7f022285d432778abb831990636eed59ba5511ff7a34d6ead1cfca1c401ea427990f0fb953b3a58bedfac623dda2a8a3a6492ec15fd981a9b 040075f832120f03b51ae6c26a878677aaeee0dc1538505027b71c5e02dcd8953753a6c422e6574adc85aca4f5c4b222c45c6fd55f2b15c108e11c92c59f9c651f1e1e01123531423295bf16b7f022285d432778abb831990636eed59ba5511ff7a34d6ead1cfca1c401ea427990f0fb953b3a58bedfac623dda2a8a3a6492ec15fd981a9b",
                "P-521 jwk EC P-521 true true true [\"sign\"] true",
                "P-521 node-signature true false",
                "P-521 round-trip 132 true",
                "P-521 ecdh 01c0f09faced512590a954aa9efd0dcc276d512656c61b2e93e9fe6e3f043d76ce11dcea42c8467b79f6a392983dec3b885fee258cd6cfb48655966e9693141ee8ce 01c0f09faced512590a954aa9efd0dcc",
                "P-521 ecdh-key 01c0f09faced512590a954aa9efd0dcc276d512656c61b2e93e9fe6e3f043d76",
                "generated false true sign verify 96 true",
                "generated-ecdh 66 true 0",
            ])
    }

    /// Ed25519 (RFC 8032 §7.1 tests 1 and 2) and X25519 (RFC 7748 §6.1), with their SPKI/PKCS #8/JWK forms.
    /// Expected lines: the vectors, and Node 20's output for the same script.
    @Test func ed25519AndX25519MatchTheRFCVectors() async {
        let result = await Self.run(
            #"""
            (async () => {
              // RFC 8032 section 7.1, test 1 (empty message) and test 2.
              const secret = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
              const publicKey = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
              const priv = await subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", d: b64u(secret), x: b64u(publicKey) }, "Ed25519", true, ["sign"]);
              const pub = await subtle.importKey("raw", unhex(publicKey), { name: "Ed25519" }, true, ["verify"]);
              const signature = await subtle.sign("Ed25519", priv, new Uint8Array(0));
              console.log("ed25519", hex(signature), await subtle.verify("Ed25519", pub, signature, new Uint8Array(0)), await subtle.verify("Ed25519", pub, signature, unhex("00")));
              const priv2 = await subtle.importKey("pkcs8", unhex("302e020100300506032b657004220420" + "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"), "Ed25519", false, ["sign"]);
              console.log("ed25519-2", hex(await subtle.sign("Ed25519", priv2, unhex("72"))));
              console.log("ed25519-spki", hex(await subtle.exportKey("spki", pub)), hex(await subtle.exportKey("pkcs8", priv)));
              const jwk = await subtle.exportKey("jwk", priv);
              console.log("ed25519-jwk", JSON.stringify([jwk.kty, jwk.crv, jwk.x, jwk.d, jwk.key_ops, jwk.ext]), JSON.stringify(pub.algorithm));
              const pair = await subtle.generateKey("Ed25519", true, ["sign", "verify"]);
              const s = await subtle.sign("Ed25519", pair.privateKey, text("hello"));
              console.log("ed25519-generated", s.byteLength, await subtle.verify("Ed25519", pair.publicKey, s, text("hello")), (await subtle.exportKey("raw", pair.publicKey)).byteLength);
              // RFC 7748 section 6.1.
              const alice = await subtle.importKey("pkcs8", unhex("302e020100300506032b656e04220420" + "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"), "X25519", true, ["deriveBits", "deriveKey"]);
              const bob = await subtle.importKey("raw", unhex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"), "X25519", true, []);
              console.log("x25519", hex(await subtle.deriveBits({ name: "X25519", public: bob }, alice, 256)));
              const aliceJwk = await subtle.exportKey("jwk", alice);
              console.log("x25519-jwk", aliceJwk.x, hex(await subtle.exportKey("spki", bob)));
              const x1 = await subtle.generateKey("X25519", false, ["deriveBits"]), x2 = await subtle.generateKey({ name: "X25519" }, false, ["deriveBits"]);
              const k1 = await subtle.deriveBits({ name: "X25519", public: x2.publicKey }, x1.privateKey, null);
              const k2 = await subtle.deriveBits({ name: "X25519", public: x1.publicKey }, x2.privateKey, null);
              console.log("x25519-generated", k1.byteLength, hex(k1) === hex(k2));
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "ed25519 e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b true false",
                "ed25519-2 92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
                "ed25519-spki 302a300506032b6570032100d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a 302e020100300506032b6570042204209d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
                "ed25519-jwk [\"OKP\",\"Ed25519\",\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\",\"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\",[\"sign\"],true] {\"name\":\"Ed25519\"}",
                "ed25519-generated 64 true 32",
                "x25519 4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
                "x25519-jwk hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo 302a300506032b656e032100de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
                "x25519-generated 32 true",
            ])
    }

    /// RSASSA-PKCS1-v1_5 (deterministic: the signature's digest equals Node's), RSA-PSS and RSA-OAEP with a 2048-bit key
    /// Node made: Node's PSS signature verifies, Node's OAEP ciphertext decrypts, SPKI/JWK export equal Node's,
    /// generated keys and key wrapping round-trip. Expected lines: Node 20's output for the same script.
    @Test func rsaSignaturesEncryptionAndKeysMatchNode() async {
        let result = await Self.run(
            #"""
            const rsaKey = {"pkcs8":"308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100bdc6a8c7f1e7717adb8f5a578b198dd11947abb7f14323bbe07b802c15b7709315517d003d6a17ac30ff5cc37bff167ef3d062ba1f815d217ec6e156208d922cd68e95452b582c404a36641d9f2e9da98e8ac30e60684996331a1d56e58651eb959d2ac373e15abd421375b27af5bb5dc1942bacf30a60dcb5efe0cdb14047024e6ce5e823d2033e99be5cea407d7fca6181bf3ebe65fbb040080491dc9636067d820594dba2cb99bc6e3b086bf07d4ccd849bdc4e51c79575a21a1d6c17056b0dfad44bda554faf9c4f5947ba3dfebbf881d9091b5813b3e451da60d93d6201162d647825e6bfccae7dec0e717b430ee530a5e7b958c37a962a1b6dfb6ea7a10203010001028201000d32f196fb77098c5e142fb83e41541cde8d5eaefbd19bbd03d14f2231cdf8ff4fd8a3b12634586a665b826a09b81d8a4d9e9919411af41d61e606f2e0af7c02d096e8e09f51c1fd2434397d1a6ec9722b2af1435116fbc43db063a9412c390b21b4254ee402c0d7002f1e8cdff2b29a041e5035d68f0a9adb30108279e122b71279bc197213f85d46ca6a4161bfc86a5f222e0ce975d1c4e700c425180fe60b09308471efcd0e850d56945d7434d1ab019d7525376a1849886d7547d95b66f753315bb1afcb92b422a3dbe4e78163db7555447045e70b6e3e5919829712a047c616576cf7441ef675fea08f3ee3b2c31254b54ddd850cee75a9a78a6ce2cfd902818100eddb70ade1a8bdd52e5261b02e432d689fb830c94cd94fcb4a675d6f18f985b90add93e62139a1a0ee96b2bb388747041a367e67eb5fd6056d1be970e8d07b3a6714264237382492ef184f80588f7cbbcbf342e24edfa1386fd93522dff3c8c0d7e4382e9e052dc3cc074ee72dce0e0d663cf0812c3515b61ee09574c727444902818100cc405a8bfcc3105d9874417fabe71ed61197baab143c27c1e5f103b375252725e7182219fc8cf6d436ec60f33e795123d1fabb99e2e3951fdce2bc5cfa4592eaefead5d3b159cf9a61125c8e55090eda62ecafea0d8667fa3fd578764ede521729001c5399f26480ab6b0fee3651e24141dbc84ba34b267f49d2d146f210189902818100c10ab8ef96568202f37e4ee453179851f256e5d96a32708d580c7e0b3da4bd7fc9aebd6b278a03807e42f639f68debf80b6230c31c878246931ff51cfb06c10c4c3e5132aa68395ebb07eaf60a6a21dcb490f0b68537003cb2a2017b1571607c0a7ba1914c147de90bbcdeafc74015ad904d63102315ce5229cb31e13e04c3690281800e52e506b42f29d2a68260a58774a9e0f152e6b060b6e742ddd14d2524adfa54da2403203769db557e948d2801d5982f1ee6aa895c34019d3e6c58315d0bcc05d5d56e316e5a92088d8e30177b372b677d5083f5b2051efd99c46ab2414dae0c19bffc3c90ab430912fc6b1d9589a0885b0a02bdeb31b5fd6f3bed99401888e102818042fc2f9d6c17b8dde8f37947601dba48a56ea6011f3e2a3e75cad110db2a9899ff0dbc1048d332dd71c059d092c08147202b4e928b43ff540130dcd2d40a88007d7920508e0812b5e808d23390bfdcb6adb9987d23844698b31d3499d98beb211964812acd970fa836142f8207465929f66e9b61217d10fa606bbfcfca357df1","spki":"30820122300d06092a864886f70d01010105000382010f003082010a0282010100bdc6a8c7f1e7717adb8f5a578b198dd11947abb7f14323bbe07b802c15b7709315517d003d6a17ac30ff5cc37bff167ef3d062ba1f815d217ec6e156208d922cd68e95452b582c404a36641d9f2e9da98e8ac30e60684996331a1d56e58651eb959d2ac373e15abd421375b27af5bb5dc1942bacf30a60dcb5efe0cdb14047024e6ce5e823d2033e99be5cea407d7fca6181bf3ebe65fbb040080491dc9636067d820594dba2cb99bc6e3b086bf07d4ccd849bdc4e51c79575a21a1d6c17056b0dfad44bda554faf9c4f5947ba3dfebbf881d9091b5813b3e451da60d93d6201162d647825e6bfccae7dec0e717b430ee530a5e7b958c37a962a1b6dfb6ea7a10203010001","jwk":{"n":"vcaox_HncXrbj1pXixmN0RlHq7fxQyO74HuALBW3cJMVUX0APWoXrDD_XMN7_xZ-89Biuh-BXSF-xuFWII2SLNaOlUUrWCxASjZkHZ8unamOisMOYGhJljMaHVblhlHrlZ0qw3PhWr1CE3WyevW7XcGUK6zzCmDcte_gzbFARwJObOXoI9IDPpm-XOpAfX_KYYG_Pr5l-7BACASR3JY2Bn2CBZTbosuZvG47CGvwfUzNhJvcTlHHlXWiGh1sFwVrDfrUS9pVT6-cT1lHuj3-u_iB2QkbWBOz5FHaYNk9YgEWLWR4Jea_zK597A5xe0MO5TCl57lYw3qWKhtt-26noQ","e":"AQAB","d":"DTLxlvt3CYxeFC-4PkFUHN6NXq770Zu9A9FPIjHN-P9P2KOxJjRYamZbgmoJuB2KTZ6ZGUEa9B1h5gby4K98AtCW6OCfUcH9JDQ5fRpuyXIrKvFDURb7xD2wY6lBLDkLIbQlTuQCwNcALx6M3_KymgQeUDXWjwqa2zAQgnnhIrcSebwZchP4XUbKakFhv8hqXyIuDOl10cTnAMQlGA_mCwkwhHHvzQ6FDVaUXXQ00asBnXUlN2oYSYhtdUfZW2b3UzFbsa_LkrQio9vk54Fj23VVRHBF5wtuPlkZgpcSoEfGFlds90Qe9nX-oI8-47LDElS1Td2FDO51qaeKbOLP2Q","p":"7dtwreGovdUuUmGwLkMtaJ-4MMlM2U_LSmddbxj5hbkK3ZPmITmhoO6Wsrs4h0cEGjZ-Z-tf1gVtG-lw6NB7OmcUJkI3OCSS7xhPgFiPfLvL80LiTt-hOG_ZNSLf88jA1-Q4Lp4FLcPMB07nLc4ODWY88IEsNRW2HuCVdMcnREk","q":"zEBai_zDEF2YdEF_q-ce1hGXuqsUPCfB5fEDs3UlJyXnGCIZ_Iz21DbsYPM-eVEj0fq7meLjlR_c4rxc-kWS6u_q1dOxWc-aYRJcjlUJDtpi7K_qDYZn-j_VeHZO3lIXKQAcU5nyZICraw_uNlHiQUHbyEujSyZ_SdLRRvIQGJk","dp":"wQq475ZWggLzfk7kUxeYUfJW5dlqMnCNWAx-Cz2kvX_Jrr1rJ4oDgH5C9jn2jev4C2IwwxyHgkaTH_Uc-wbBDEw-UTKqaDleuwfq9gpqIdy0kPC2hTcAPLKiAXsVcWB8CnuhkUwUfekLvN6vx0AVrZBNYxAjFc5SKcsx4T4Ew2k","dq":"DlLlBrQvKdKmgmClh3Sp4PFS5rBgtudC3dFNJSSt-lTaJAMgN2nbVX6UjSgB1ZgvHuaqiVw0AZ0-bFgxXQvMBdXVbjFuWpIIjY4wF3s3K2d9UIP1sgUe_ZnEarJBTa4MGb_8PJCrQwkS_GsdlYmgiFsKAr3rMbX9bzvtmUAYiOE","qi":"QvwvnWwXuN3o83lHYB26SKVupgEfPio-dcrRENsqmJn_DbwQSNMy3XHAWdCSwIFHICtOkotD_1QBMNzS1AqIAH15IFCOCBK16AjSM5C_3LatuZh9I4RGmLMdNJnZi-shGWSBKs2XD6g2FC-CB0ZZKfZum2EhfRD6YGu_z8o1ffE"},"pssSig":"0924669f884e7b3cce1366ebcc965f9678fdafa17b82e590b68e58e61b65a9dea80d15cc66743cd8c836604f320e1322b35e31b02cfd97b8227d536457f7aa82c3e91f43f2a9cf422090d7e9a92ae3e9651d2474e44f932082c60ce67bddcf92681ec17044156829e166682f88df63512d739843262011c2205497a2e19794b7dacedcfa0c7ce29ba305f6178ae9d3f78ebc53417d2a884cc4fad56feb60cb7d93567b12a45ed8967a168a738f0935152225265d6e81d35f9d6f975062e3563dc9f3e03abd964da7b40cd6307745d37f4e05f02af5321c168920ebc56dfb3355d2db3ebf7974e20ac0b9a866f72abec4f5359cd66f8932e2a2b13315a73ddd49","sealed":"7a5626b54cdb11b74217f9c0842cbba232545af67c421b20627850844db510e870e8cd0896e8d2d5a8850e8411aa2741366831cbbdab53b02f9fbc6160a6ca442709f26d4a71f7a0f80be25ae861453abbc40ba3633502c00d9aeb48dd2e58d6d8b54af5f6ad0739713886bcd676abc0bd80a4fdb8668f39a7e32d1d787f7242d5bb7434b3a526ca76b5cb517924e5904d81728e9bacb4ffeb90331deb28252bb7dc6ddec297e686b16e5913f4c8345df31e525fb8da19153d5b5e09dbc463a841158c1fc23436a4a8b4f919b57e6684f27a3630c31f94806a8f3c2848406a5f410790c021f252efd4c0f851b992127e362dbe2a256f354cd391c72375b231e3"};
            (async () => {
              const data = text("signed by node");
              const pkcs1 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
              const priv = await subtle.importKey("pkcs8", unhex(rsaKey.pkcs8), pkcs1, true, ["sign"]);
              const pub = await subtle.importKey("spki", unhex(rsaKey.spki), pkcs1, true, ["verify"]);
              console.log(JSON.stringify(priv.algorithm), hex(pub.algorithm.publicExponent), pub.algorithm.modulusLength);
              // PKCS #1 v1.5 signatures are deterministic: the digest of Node's, and it verifies.
              const signature = await subtle.sign("RSASSA-PKCS1-v1_5", priv, data);
              console.log("pkcs1", hex(await subtle.digest("SHA-256", signature)), await subtle.verify(pkcs1, pub, signature, data), await subtle.verify(pkcs1, pub, signature, text("x")));
              console.log("spki", hex(await subtle.exportKey("spki", pub)) === rsaKey.spki);
              const jwk = await subtle.exportKey("jwk", pub);
              console.log("jwk", jwk.kty, jwk.alg, jwk.n === rsaKey.jwk.n, jwk.e);
              const fromJwk = await subtle.importKey("jwk", { kty: "RSA", ...rsaKey.jwk }, { name: "RSA-PSS", hash: "SHA-256" }, true, ["sign"]);
              const privateJwk = await subtle.exportKey("jwk", fromJwk);
              console.log("private-jwk", privateJwk.alg, ["n", "e", "d", "p", "q", "dp", "dq", "qi"].every((k) => privateJwk[k] === rsaKey.jwk[k]));
              const pssPub = await subtle.importKey("jwk", { kty: "RSA", n: rsaKey.jwk.n, e: rsaKey.jwk.e }, { name: "RSA-PSS", hash: "SHA-256" }, false, ["verify"]);
              console.log("pss-node", await subtle.verify({ name: "RSA-PSS", saltLength: 32 }, pssPub, unhex(rsaKey.pssSig), data));
              const pssSig = await subtle.sign({ name: "RSA-PSS", saltLength: 32 }, fromJwk, text("mine"));
              console.log("pss-round-trip", pssSig.byteLength, await subtle.verify({ name: "RSA-PSS", saltLength: 32 }, pssPub, pssSig, text("mine")));
              const oaepPriv = await subtle.importKey("pkcs8", unhex(rsaKey.pkcs8), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["decrypt", "unwrapKey"]);
              const oaepPub = await subtle.importKey("spki", unhex(rsaKey.spki), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["encrypt", "wrapKey"]);
              console.log("oaep-node", new TextDecoder().decode(await subtle.decrypt({ name: "RSA-OAEP" }, oaepPriv, unhex(rsaKey.sealed))));
              const sealed = await subtle.encrypt({ name: "RSA-OAEP" }, oaepPub, text("round trip"));
              console.log("oaep-round-trip", sealed.byteLength, new TextDecoder().decode(await subtle.decrypt({ name: "RSA-OAEP" }, oaepPriv, sealed)));
              const aes = await subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
              const wrapped = await subtle.wrapKey("raw", aes, oaepPub, { name: "RSA-OAEP" });
              const unwrapped = await subtle.unwrapKey("raw", wrapped, oaepPriv, { name: "RSA-OAEP" }, "AES-GCM", true, ["encrypt"]);
              console.log("oaep-wrap", hex(await subtle.exportKey("raw", unwrapped)) === hex(await subtle.exportKey("raw", aes)));
              const pair = await subtle.generateKey({ name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-384" }, false, ["sign", "verify"]);
              const generated = await subtle.sign({ name: "RSA-PSS", saltLength: 48 }, pair.privateKey, text("g"));
              console.log("generated", JSON.stringify(pair.publicKey.algorithm), pair.privateKey.usages.join(), await subtle.verify({ name: "RSA-PSS", saltLength: 48 }, pair.publicKey, generated, text("g")));
              const attempt = async (label, body) => { try { await body(); console.log(label, "ok"); } catch (e) { console.log(label, fail(e)); } };
              await attempt("oaep-too-long", () => subtle.encrypt({ name: "RSA-OAEP" }, oaepPub, new Uint8Array(300)));
              await attempt("oaep-corrupt", () => subtle.decrypt({ name: "RSA-OAEP" }, oaepPriv, new Uint8Array(256)));
              await attempt("rsa-raw", () => subtle.importKey("raw", new Uint8Array(16), pkcs1, false, ["verify"]));
              await attempt("rsa-garbage", () => subtle.importKey("spki", new Uint8Array(16), pkcs1, false, ["verify"]));
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "{\"name\":\"RSASSA-PKCS1-v1_5\",\"modulusLength\":2048,\"publicExponent\":{\"0\":1,\"1\":0,\"2\":1},\"hash\":{\"name\":\"SHA-256\"}} 010001 2048",
                "pkcs1 605d723de3013766fe5dd1906b33dbc091149fd7412001ace33acf9c01e5da64 true false",
                "spki true",
                "jwk RSA RS256 true AQAB",
                "private-jwk PS256 true",
                "pss-node true",
                "pss-round-trip 256 true",
                "oaep-node secret message",
                "oaep-round-trip 256 round trip",
                "oaep-wrap true",
                "generated {\"name\":\"RSA-PSS\",\"modulusLength\":2048,\"publicExponent\":{\"0\":1,\"1\":0,\"2\":1},\"hash\":{\"name\":\"SHA-384\"}} sign true",
                "oaep-too-long DOMException OperationError",
                "oaep-corrupt DOMException OperationError",
                "rsa-raw DOMException NotSupportedError",
                "rsa-garbage DOMException DataError",
            ])
    }

    /// Each failure's error: TypeError for bad arguments, DOMExceptions by name. Expected lines: Node 20's output, except
    /// that Node 20 names InvalidAccessError "InvalidAccessException" where the spec says InvalidAccessError.
    @Test func failuresAreTheErrorsWebCryptoSpecifies() async {
        let result = await Self.run(
            #"""
            (async () => {
              const attempt = async (label, body) => {
                try { await body(); console.log(label, "ok"); } catch (e) { console.log(label, fail(e)); }
              };
              const aes = await subtle.importKey("raw", new Uint8Array(16), "AES-GCM", false, ["encrypt", "decrypt"]);
              const hmac = await subtle.importKey("raw", new Uint8Array(16), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
              await attempt("digest-md5", () => subtle.digest("MD5", new Uint8Array(1)));
              await attempt("digest-no-data", () => subtle.digest("SHA-256"));
              await attempt("digest-string-data", () => subtle.digest("SHA-256", "abc"));
              await attempt("algorithm-number", () => subtle.digest(5, new Uint8Array(1)));
              await attempt("import-bad-format", () => subtle.importKey("der", new Uint8Array(16), "AES-GCM", false, ["encrypt"]));
              await attempt("import-aes-length", () => subtle.importKey("raw", new Uint8Array(15), "AES-GCM", false, ["encrypt"]));
              await attempt("import-bad-usage", () => subtle.importKey("raw", new Uint8Array(16), "AES-GCM", false, ["sign"]));
              await attempt("import-unknown-usage", () => subtle.importKey("raw", new Uint8Array(16), "AES-GCM", false, ["fly"]));
              await attempt("import-ec-garbage", () => subtle.importKey("spki", new Uint8Array(20), { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]));
              await attempt("import-ec-curve", () => subtle.importKey("raw", new Uint8Array(65), { name: "ECDSA", namedCurve: "P-255" }, false, ["verify"]));
              await attempt("import-pbkdf2-extractable", () => subtle.importKey("raw", new Uint8Array(4), "PBKDF2", true, ["deriveBits"]));
              await attempt("export-not-extractable", () => subtle.exportKey("raw", aes));
              await attempt("sign-wrong-usage", () => subtle.sign("HMAC", hmac, new Uint8Array(1)));
              await attempt("sign-wrong-algorithm", () => subtle.sign("HMAC", aes, new Uint8Array(1)));
              await attempt("sign-not-a-key", () => subtle.sign("HMAC", {}, new Uint8Array(1)));
              await attempt("generate-empty-usages", () => subtle.generateKey({ name: "AES-CBC", length: 128 }, false, []));
              await attempt("generate-aes-length", () => subtle.generateKey({ name: "AES-CBC", length: 100 }, false, ["encrypt"]));
              await attempt("generate-unknown", () => subtle.generateKey({ name: "AES-XYZ", length: 128 }, false, ["encrypt"]));
              await attempt("generate-hmac-no-hash", () => subtle.generateKey({ name: "HMAC" }, false, ["sign"]));
              await attempt("generate-ecdsa-only-verify", () => subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]));
              const sealed = new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, aes, text("hello")));
              sealed[0] ^= 1;
              await attempt("gcm-tampered", () => subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, aes, sealed));
              await attempt("gcm-no-iv", () => subtle.encrypt({ name: "AES-GCM" }, aes, text("hello")));
              const cbc = await subtle.importKey("raw", new Uint8Array(16), "AES-CBC", false, ["decrypt"]);
              await attempt("cbc-iv-length", () => subtle.decrypt({ name: "AES-CBC", iv: new Uint8Array(8) }, cbc, new Uint8Array(16)));
              await attempt("cbc-partial-block", () => subtle.decrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, cbc, new Uint8Array(15)));
              const pbkdf2 = await subtle.importKey("raw", text("pw"), "PBKDF2", false, ["deriveBits"]);
              await attempt("pbkdf2-zero-iterations", () => subtle.deriveBits({ name: "PBKDF2", salt: new Uint8Array(4), iterations: 0, hash: "SHA-256" }, pbkdf2, 128));
              await attempt("pbkdf2-null-length", () => subtle.deriveBits({ name: "PBKDF2", salt: new Uint8Array(4), iterations: 1, hash: "SHA-256" }, pbkdf2, null));
              await attempt("pbkdf2-odd-length", () => subtle.deriveBits({ name: "PBKDF2", salt: new Uint8Array(4), iterations: 1, hash: "SHA-256" }, pbkdf2, 12));
              const x = await subtle.generateKey("X25519", false, ["deriveBits"]);
              const e = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
              await attempt("derive-other-algorithm", () => subtle.deriveBits({ name: "X25519", public: e.publicKey }, x.privateKey, 256));
              await attempt("derive-private-as-public", () => subtle.deriveBits({ name: "X25519", public: x.privateKey }, x.privateKey, 256));
              await attempt("wrap-not-extractable", async () => {
                const kw = await subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["wrapKey"]);
                await subtle.wrapKey("raw", aes, kw, "AES-KW");
              });
              await attempt("unwrap-corrupt", async () => {
                const kw = await subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["unwrapKey"]);
                await subtle.unwrapKey("raw", new Uint8Array(24), kw, "AES-KW", "AES-GCM", false, ["encrypt"]);
              });
              await attempt("new-CryptoKey", () => new CryptoKey());
              await attempt("new-SubtleCrypto", () => new SubtleCrypto());
              await attempt("new-Crypto", () => new Crypto());
              await attempt("getRandomValues-float", () => crypto.getRandomValues(new Float32Array(4)));
              await attempt("getRandomValues-too-big", () => crypto.getRandomValues(new Uint8Array(65537)));
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "digest-md5 DOMException NotSupportedError",
                "digest-no-data TypeError TypeError",
                "digest-string-data TypeError TypeError",
                "algorithm-number DOMException NotSupportedError",
                "import-bad-format TypeError TypeError",
                "import-aes-length DOMException DataError",
                "import-bad-usage DOMException SyntaxError",
                "import-unknown-usage TypeError TypeError",
                "import-ec-garbage DOMException DataError",
                "import-ec-curve DOMException NotSupportedError",
                "import-pbkdf2-extractable DOMException SyntaxError",
                "export-not-extractable DOMException InvalidAccessError",
                "sign-wrong-usage DOMException InvalidAccessError",
                "sign-wrong-algorithm DOMException InvalidAccessError",
                "sign-not-a-key TypeError TypeError",
                "generate-empty-usages DOMException SyntaxError",
                "generate-aes-length DOMException OperationError",
                "generate-unknown DOMException NotSupportedError",
                "generate-hmac-no-hash TypeError TypeError",
                "generate-ecdsa-only-verify DOMException SyntaxError",
                "gcm-tampered DOMException OperationError",
                "gcm-no-iv TypeError TypeError",
                "cbc-iv-length DOMException OperationError",
                "cbc-partial-block DOMException OperationError",
                "pbkdf2-zero-iterations DOMException OperationError",
                "pbkdf2-null-length DOMException OperationError",
                "pbkdf2-odd-length DOMException OperationError",
                "derive-other-algorithm DOMException InvalidAccessError",
                "derive-private-as-public DOMException InvalidAccessError",
                "wrap-not-extractable DOMException InvalidAccessError",
                "unwrap-corrupt DOMException OperationError",
                "new-CryptoKey TypeError TypeError",
                "new-SubtleCrypto TypeError TypeError",
                "new-Crypto TypeError TypeError",
                "getRandomValues-float DOMException TypeMismatchError",
                "getRandomValues-too-big DOMException QuotaExceededError",
            ])
    }

    /// node:crypto: createHash/createHmac over swift-crypto (md5 … sha512, copy, long keys), timingSafeEqual, webcrypto
    /// and subtle are the global's, and the interfaces' brands. Expected lines: Node 20's output.
    @Test func nodeCryptoHashesHmacsAndWebcrypto() async {
        let result = await Self.run(
            #"""
            (async () => {
              const nodeCrypto = require("node:crypto");
              console.log(nodeCrypto.webcrypto === globalThis.crypto, nodeCrypto.subtle === crypto.subtle, typeof nodeCrypto.webcrypto.subtle.digest);
              for (const name of ["md5", "sha1", "sha256", "sha384", "sha512", "SHA-256"]) {
                console.log(name, nodeCrypto.createHash(name).update("ab").update(Buffer.from("c")).digest("hex"));
              }
              const h = nodeCrypto.createHash("sha256").update("a");
              const copy = h.copy();
              console.log("copy", h.update("bc").digest("base64"), copy.update("x").digest("hex"));
              console.log("hmac", nodeCrypto.createHmac("sha256", "Jefe").update("what do ya want for nothing?").digest("hex"));
              console.log("hmac-long-key", nodeCrypto.createHmac("sha512", Buffer.alloc(200, 1)).update("data").digest("hex"));
              console.log("hmac-md5", nodeCrypto.createHmac("md5", "").update("").digest("hex"));
              console.log("timingSafeEqual", nodeCrypto.timingSafeEqual(Buffer.from("abc"), Buffer.from("abc")), nodeCrypto.timingSafeEqual(Buffer.from("abc"), Buffer.from("abd")));
              console.log(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(nodeCrypto.randomUUID()), /^[0-9a-f-]{36}$/.test(crypto.randomUUID()));
              console.log(Object.prototype.toString.call(crypto), Object.prototype.toString.call(crypto.subtle), crypto instanceof Crypto, crypto.subtle instanceof SubtleCrypto);
              const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
              console.log(Object.prototype.toString.call(key), key instanceof CryptoKey, (() => { try { return CryptoKey.prototype.algorithm; } catch (e) { return e.constructor.name; } })());
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "true true function",
                "md5 900150983cd24fb0d6963f7d28e17f72",
                "sha1 a9993e364706816aba3e25717850c26c9cd0d89d",
                "sha256 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "sha384 cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
                "sha512 ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
                "SHA-256 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "copy ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0= 5e85370e555e95d27df68f93c0ccaa4edfc1da5e281b47a2ebba2649a13ea5f4",
                "hmac 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                "hmac-long-key f7a5a5cda4805a584d99213728b50f8cc40e7b703e6d49a65cc7343970201a433f7967631ca624d7147bbfcb8830b1d260a5a5bb76b0c709b8b1fcbfe207620d",
                "hmac-md5 74e6f7298a9c2d168935f58c001bad88",
                "timingSafeEqual true false",
                "true true",
                "[object Crypto] [object SubtleCrypto] true true",
                "[object CryptoKey] true TypeError",
            ])
    }

    /// node:crypto's createCipheriv/createDecipheriv for aes-128/192/256 in cbc, ctr and gcm: each update's output
    /// (CBC holding back a block when decrypting), final, GCM's AAD and tag, no padding, and the errors' codes.
    /// Expected lines: Node 20's output for the same script.
    @Test func nodeCiphersGiveNodesOutputPerCall() async {
        let result = await Self.run(
            #"""
            (() => {
              const nodeCrypto = require("node:crypto");
              const key = Buffer.from("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "hex");
              const iv16 = Buffer.from("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", "hex"), iv12 = iv16.subarray(0, 12);
              const chunks = ["The quick brown", " fox jumps over the lazy dog", "", ". And again: the quick brown fox!"];
              for (const bits of [128, 192, 256]) {
                for (const mode of ["cbc", "ctr", "gcm"]) {
                  const name = `aes-${bits}-${mode}`;
                  const k = key.subarray(0, bits / 8), iv = mode === "gcm" ? iv12 : iv16;
                  const cipher = nodeCrypto.createCipheriv(name, k, iv);
                  if (mode === "gcm") cipher.setAAD(Buffer.from("header"));
                  const parts = chunks.map((c) => cipher.update(c, "utf8", "hex"));
                  parts.push(cipher.final("hex"));
                  const tag = mode === "gcm" ? cipher.getAuthTag().toString("hex") : "";
                  console.log(name, parts.join("|"), tag);
                  const decipher = nodeCrypto.createDecipheriv(name, k, iv);
                  if (mode === "gcm") { decipher.setAAD(Buffer.from("header")); decipher.setAuthTag(Buffer.from(tag, "hex")); }
                  const whole = Buffer.from(parts.join(""), "hex");
                  const back = [decipher.update(whole.subarray(0, 7)), decipher.update(whole.subarray(7, 40)), decipher.update(whole.subarray(40))];
                  back.push(decipher.final());
                  console.log(name, back.map((b) => b.length).join(","), Buffer.concat(back).toString());
                }
              }
              const noPad = nodeCrypto.createCipheriv("aes-128-cbc", key.subarray(0, 16), iv16).setAutoPadding(false);
              console.log("nopad", noPad.update(Buffer.alloc(32, 7)).toString("hex"), noPad.final().length);
              const attempt = (label, body) => { try { body(); console.log(label, "ok"); } catch (e) { console.log(label, e.constructor.name, e.code); } };
              attempt("unknown", () => nodeCrypto.createCipheriv("aes-128-xyz", key.subarray(0, 16), iv16));
              attempt("key-length", () => nodeCrypto.createCipheriv("aes-256-cbc", key.subarray(0, 16), iv16));
              attempt("iv-length", () => nodeCrypto.createCipheriv("aes-128-cbc", key.subarray(0, 16), iv12));
              attempt("nopad-partial", () => nodeCrypto.createCipheriv("aes-128-cbc", key.subarray(0, 16), iv16).setAutoPadding(false).update("abc") && null);
              attempt("bad-tag", () => {
                const d = nodeCrypto.createDecipheriv("aes-128-gcm", key.subarray(0, 16), iv12);
                d.setAuthTag(Buffer.alloc(16));
                d.update(Buffer.from("abcdef"));
                d.final();
              });
              attempt("bad-padding", () => {
                const d = nodeCrypto.createDecipheriv("aes-128-cbc", key.subarray(0, 16), iv16);
                d.update(Buffer.alloc(16));
                d.final();
              });
              console.log(nodeCrypto.getCiphers().includes("aes-256-gcm"));
            })();
            """#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "aes-128-cbc |639dd4c509b902e13dd2ee7500cf3af9be0e128e87ffefd09f0b8132b71d1d57||67e7a057d0f7906e1ecacdb9f17f9a0f8ac0126414856ca64e85ac1941d5e50c|5a44789f0c20e50d076e584ae1b7c7fd ",
                "aes-128-cbc 0,32,32,12 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-128-ctr 32cfa2c84527582bfc71bc755c61c3|8dd4eeaf20ddeb51ddd78d1ccd0bee3f9eba14b23a1d2192bd9feeec||776fd33b1550b9013b55d16267230566383e155ef90021c05a42e13d42e2eda133| ",
                "aes-128-ctr 7,33,36,0 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-128-gcm 457283534bad0c1758dc5dc2b877c3|5723e05b1481be9a3dab91ba3d01c338d67a03cd6d0de18045f27717||7c94349fb41927cbe5e67963cefaf0fd36bc18f5b2184960445326f75f128fc7c0| 575c3da2a01e6c96c1c033016b04d123",
                "aes-128-gcm 7,33,36,0 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-192-cbc |227a8bf0a95ed1de5f17d5ab73dd1345a54bfb499f80cc2eb3b17a041d9c5801||40c7942626171e908d85f539d51e78ac556750261320c36065604837006f9477|386442e0f77346cd3526d54b9c783588 ",
                "aes-192-cbc 0,32,32,12 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-192-ctr 7fea2d72258700f3d8f954709f92c6|d3bd6753a3a3e19a41f44fe7b24eb38970b71f5baa23b065c6dfc23a||98d2c123a99a2fd88ade25472702d732d0a6a4758f40cfc0b63c58d2fe0f762253| ",
                "aes-192-ctr 7,33,36,0 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-192-gcm b891681dfd1513792ec1a423605928|ffc5973e8513224bd73945434eef954578dba85efde8713b51c5af46||f3c3bb26741617fdf2b0633f639d18b87aa95af7cd2189eebcad844cf2db9a6a24| 04fca6a807e2d11abe058d704cb052e8",
                "aes-192-gcm 7,33,36,0 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-256-cbc |84f474f35a3090a82aae847eff728ab2c6d8dc5cfb3695e68937cb12ec50264e||273174ca47598b86f98c6d6eb606afb75fdc01d41e3c1afde8ef538389e9be5e|5c75c7a411636cc7b7cf8a6519c96f75 ",
                "aes-256-cbc 0,32,32,12 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-256-ctr c668a8ad52e3e9a8314984262f450d|34ac3003609b5f59b11d873a572f05a6faf109013775628cb81cea47||3eb5159ceb6909a44cbf9edd026773b9d48d1631c7dd2419ab160b94c29ce267f8| ",
                "aes-256-ctr 7,33,36,0 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "aes-256-gcm 3d6e26200d4fbb17f4d795e8e13d0c|96768e21e2527222e825765cd63c41f273747536e821f9c8b9fc37a9||5d37789debeb3d60151f1a2aa03ebe0bfe2c1e85c4641b10b6541e6a57571f554d| cd4813ae8af79b9bc2a52ac797b9f68a",
                "aes-256-gcm 7,33,36,0 The quick brown fox jumps over the lazy dog. And again: the quick brown fox!",
                "nopad af4e616233416cc573d45d573ac3f88eee6d0300c35d43b25d33c806e531bb44 0",
                "unknown Error ERR_CRYPTO_UNKNOWN_CIPHER",
                "key-length RangeError ERR_CRYPTO_INVALID_KEYLEN",
                "iv-length TypeError ERR_CRYPTO_INVALID_IV",
                "nopad-partial ok",
                "bad-tag Error undefined",
                "bad-padding Error ERR_OSSL_BAD_DECRYPT",
                "true",
            ])
    }

    /// WinterTC's `self` is the global object; `reportError` needs an argument and reports its error as uncaught
    /// (printed with its stack, exit code 1), as Node 22 does.
    @Test func selfAndReportError() async {
        let result = await ScriptRunner.run(
            #"""
            console.log(self === globalThis, typeof reportError, reportError.length);
            try { reportError(); } catch (e) { console.log(e.constructor.name); }
            setTimeout(() => console.log("timer"), 5000);
            reportError(new RangeError("reported"));
            """#)
        #expect(result.exitCode == 1)
        #expect(result.lines == ["true function 1", "TypeError"])
        #expect(result.stderr.contains("RangeError: reported"), "\(result.stderr)")
    }
}

import Crypto
import Foundation
import _CryptoExtras

/// A failed WebCrypto operation: `name` is the `DOMException` name `crypto.js` throws (`OperationError`,
/// `DataError`, `NotSupportedError`, …).
struct CryptoFailure: Error, Sendable {
    let name: String
    let message: String

    static func operation(_ message: String) -> Self { Self(name: "OperationError", message: message) }
    static func data(_ message: String) -> Self { Self(name: "DataError", message: message) }
    static func notSupported(_ message: String) -> Self { Self(name: "NotSupportedError", message: message) }
}

/// One WebCrypto operation over bytes, as `crypto.js` asks for it: the algorithm's choices already checked
/// in JavaScript (names normalized, lengths in range), the keys' material as bytes.
///
/// Every primitive is swift-crypto's (BoringSSL underneath); this type only routes bytes to it and maps
/// its errors to WebCrypto's names. It holds no JavaScript value, so it runs on any thread.
struct CryptoRequest: Sendable {
    /// The operation (`digest`, `hmacSign`, `aesGcmEncrypt`, …: see ``run()``).
    let operation: String
    /// A hash (`SHA-256`), a curve (`P-256`) or a format (`spki`), as the operation reads it.
    let name: String
    /// Numbers the operation reads: a tag or counter length, an iteration count, an output length in bits.
    let first: Int
    let second: Int
    /// The byte inputs: key material first, then data, in the order each operation lists.
    let inputs: [[UInt8]]

    /// Total bytes of input: large requests run off the JS thread.
    var size: Int { inputs.reduce(0) { $0 + $1.count } }

    func input(_ index: Int) -> [UInt8] { index < inputs.count ? inputs[index] : [] }

    /// Runs the operation; its outputs are byte strings (a verification answers one byte, 1 or 0).
    func run() throws(CryptoFailure) -> [[UInt8]] {
        do {
            return try dispatch()
        } catch let failure as CryptoFailure {
            throw failure
        } catch {
            throw .operation("The operation failed for an operation-specific reason (\(error))")
        }
    }

    private func dispatch() throws -> [[UInt8]] {
        switch operation {
        case "digest":
            return [try CryptoHash(name).digest(input(0))]
        case "hmacSign":
            return [try CryptoHash(name).hmac(key: input(0), data: input(1))]
        case "hmacVerify":
            return [verdict(try CryptoHash(name).hmacVerify(key: input(0), data: input(1), mac: input(2)))]
        case "aesGcmEncrypt", "aesGcmDecrypt":
            return [try aesGCM(encrypt: operation == "aesGcmEncrypt")]
        // `second` 1: no padding (node:crypto's setAutoPadding(false), and its blocks before `final()`).
        case "aesCbcEncrypt":
            let iv = try AES._CBC.IV(ivBytes: input(1))
            return [Array(try AES._CBC.encrypt(input(2), using: try aesKey(), iv: iv, noPadding: second == 1))]
        case "aesCbcDecrypt":
            do {
                let iv = try AES._CBC.IV(ivBytes: input(1))
                return [Array(try AES._CBC.decrypt(input(2), using: try aesKey(), iv: iv, noPadding: second == 1))]
            } catch let failure as CryptoFailure {
                throw failure
            } catch {
                throw CryptoFailure.operation("The provided data is not a whole number of blocks or its padding is bad")
            }
        case "aesCtr":
            return [try aesCTR()]
        case "aesKwWrap":
            guard input(1).count >= 16, input(1).count % 8 == 0 else {
                throw CryptoFailure.operation("AES-KW wraps a multiple of 8 bytes, at least 16")
            }
            return [Array(try AES.KeyWrap.wrap(SymmetricKey(data: input(1)), using: try aesKey()))]
        case "aesKwUnwrap":
            let key = try AES.KeyWrap.unwrap(input(1), using: try aesKey())
            return [key.withUnsafeBytes { Array($0) }]
        case "pbkdf2":
            guard second > 0, second % 8 == 0, first > 0 else {
                throw CryptoFailure.operation("PBKDF2 needs iterations and a length that is a positive multiple of 8")
            }
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: input(0), salt: input(1), using: try CryptoHash(name).pbkdf2, outputByteCount: second / 8,
                unsafeUncheckedRounds: first)
            return [key.withUnsafeBytes { Array($0) }]
        case "hkdf":
            guard second >= 0, second % 8 == 0 else {
                throw CryptoFailure.operation("HKDF's length must be a multiple of 8")
            }
            return [try CryptoHash(name).hkdf(ikm: input(0), salt: input(1), info: input(2), count: second / 8)]
        default:
            return try CryptoAsymmetric(request: self).run()
        }
    }

    private func verdict(_ valid: Bool) -> [UInt8] { [valid ? 1 : 0] }

    private func aesKey() throws(CryptoFailure) -> SymmetricKey {
        guard [16, 24, 32].contains(input(0).count) else { throw .data("An AES key is 128, 192 or 256 bits long") }
        return SymmetricKey(data: input(0))
    }

    /// AES-GCM with the tag (`first` bits) appended to the ciphertext (WebCrypto's layout). Inputs: key, iv,
    /// data, additional data.
    ///
    /// swift-crypto opens only full 128-bit tags. For a shorter one the ciphertext is decrypted as GCM defines it
    /// (NIST SP 800-38D: AES-CTR from the block after iv || 1, with a 32-bit counter; for a 12-byte iv), sealed again
    /// and the tags' first bytes compared in constant time.
    private func aesGCM(encrypt: Bool) throws -> [UInt8] {
        let key = try aesKey()
        guard [32, 64, 96, 104, 112, 120, 128].contains(first) else {
            throw CryptoFailure.operation("AES-GCM's tagLength is not valid")
        }
        let tagCount = first / 8
        guard input(1).count >= 12 else { throw CryptoFailure.notSupported("AES-GCM's iv must be at least 12 bytes") }
        let nonce = try AES.GCM.Nonce(data: input(1))
        if encrypt {
            let box = try AES.GCM.seal(input(2), using: key, nonce: nonce, authenticating: input(3))
            return Array(box.ciphertext) + Array(box.tag.prefix(tagCount))
        }
        let data = input(2)
        guard data.count >= tagCount else { throw CryptoFailure.operation("The data is shorter than the tag") }
        let ciphertext = data[..<(data.count - tagCount)]
        let tag = data[(data.count - tagCount)...]
        if tagCount < 16 {
            guard input(1).count == 12 else {
                throw CryptoFailure.notSupported("AES-GCM tags shorter than 128 bits need a 12-byte iv")
            }
            let counter = CryptoRequest(
                operation: "aesCtr", name: "", first: 32, second: 0,
                inputs: [input(0), input(1) + [0, 0, 0, 2], Array(ciphertext)])
            let plaintext = try counter.run()[0]
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: input(3))
            var difference: UInt8 = 0
            for (expected, given) in zip(box.tag.prefix(tagCount), tag) { difference |= expected ^ given }
            guard difference == 0 else {
                throw CryptoFailure.operation("The data could not be authenticated (wrong key, iv, data or tag)")
            }
            return plaintext
        }
        do {
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
            return Array(try AES.GCM.open(box, using: key, authenticating: input(3)))
        } catch {
            throw CryptoFailure.operation("The data could not be authenticated (wrong key, iv, data or tag)")
        }
    }

    /// AES-CTR where only the counter block's low `first` bits count: when they wrap, they wrap to zero without
    /// carrying into the nonce bits, so the data is split at the wrap. Inputs: key, counter block, data.
    private func aesCTR() throws -> [UInt8] {
        let key = try aesKey()
        let counter = input(1)
        let data = input(2)
        guard counter.count == 16 else { throw CryptoFailure.operation("AES-CTR's counter must be 16 bytes") }
        guard (1...128).contains(first) else { throw CryptoFailure.operation("AES-CTR's length must be 1 to 128") }
        let blocks = (data.count + 15) / 16
        // Blocks left before the counter bits wrap. Only a counter of at most 64 bits can wrap within an input;
        // a longer one would need 2⁶⁴ blocks, and carries between its bits as swift-crypto's 128-bit one does.
        if first <= 64 {
            var value: UInt64 = 0
            for byte in counter[8...] { value = value << 8 | UInt64(byte) }
            let mask: UInt64 = first == 64 ? .max : (1 << UInt64(first)) - 1
            if first < 64, UInt64(blocks) > mask + 1 {
                throw CryptoFailure.operation("The data is too long for the counter's length")
            }
            // Blocks after the first before the wrap.
            let after = mask - (value & mask)
            if after < UInt64.max, UInt64(blocks) > after + 1 {
                let left = Int(after + 1)
                var wrapped = counter
                var zeroed = value & ~mask
                for index in stride(from: 15, through: 8, by: -1) {
                    wrapped[index] = UInt8(truncatingIfNeeded: zeroed)
                    zeroed >>= 8
                }
                let head = try AES._CTR.encrypt(
                    data[..<(left * 16)], using: key, nonce: try AES._CTR.Nonce(nonceBytes: counter))
                let tail = try AES._CTR.encrypt(
                    data[(left * 16)...], using: key, nonce: try AES._CTR.Nonce(nonceBytes: wrapped))
                return Array(head) + Array(tail)
            }
        }
        return Array(try AES._CTR.encrypt(data, using: key, nonce: try AES._CTR.Nonce(nonceBytes: counter)))
    }
}

/// SHA-1 and the SHA-2 family by their WebCrypto names, and what each is used for here.
struct CryptoHash {
    enum Kind { case sha1, sha256, sha384, sha512, md5 }
    let kind: Kind

    init(_ name: String) throws(CryptoFailure) {
        switch name {
        case "SHA-1": kind = .sha1
        case "SHA-256": kind = .sha256
        case "SHA-384": kind = .sha384
        case "SHA-512": kind = .sha512
        // node:crypto's createHash only: WebCrypto has no MD5.
        case "MD5": kind = .md5
        default: throw .notSupported("Unrecognized hash \(name)")
        }
    }

    func digest(_ data: [UInt8]) -> [UInt8] {
        switch kind {
        case .sha1: Array(Insecure.SHA1.hash(data: data))
        case .sha256: Array(SHA256.hash(data: data))
        case .sha384: Array(SHA384.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        case .md5: Array(Insecure.MD5.hash(data: data))
        }
    }

    func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        switch kind {
        case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: key))
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
        case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: key))
        case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: data, using: key))
        case .md5: return Array(HMAC<Insecure.MD5>.authenticationCode(for: data, using: key))
        }
    }

    /// Compares in constant time (swift-crypto's `isValidAuthenticationCode`).
    func hmacVerify(key: [UInt8], data: [UInt8], mac: [UInt8]) -> Bool {
        let key = SymmetricKey(data: key)
        switch kind {
        case .sha1: return HMAC<Insecure.SHA1>.isValidAuthenticationCode(mac, authenticating: data, using: key)
        case .sha256: return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: data, using: key)
        case .sha384: return HMAC<SHA384>.isValidAuthenticationCode(mac, authenticating: data, using: key)
        case .sha512: return HMAC<SHA512>.isValidAuthenticationCode(mac, authenticating: data, using: key)
        case .md5: return HMAC<Insecure.MD5>.isValidAuthenticationCode(mac, authenticating: data, using: key)
        }
    }

    var pbkdf2: KDF.Insecure.PBKDF2.HashFunction {
        switch kind {
        case .sha1: .insecureSHA1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        case .md5: .insecureMD5
        }
    }

    func hkdf(ikm: [UInt8], salt: [UInt8], info: [UInt8], count: Int) throws(CryptoFailure) -> [UInt8] {
        let key = SymmetricKey(data: ikm)
        let output: SymmetricKey
        switch kind {
        case .sha1:
            guard count <= 255 * 20 else { throw .operation("HKDF's length is too long for the hash") }
            output = HKDF<Insecure.SHA1>.deriveKey(
                inputKeyMaterial: key, salt: salt, info: info, outputByteCount: count)
        case .sha256:
            guard count <= 255 * 32 else { throw .operation("HKDF's length is too long for the hash") }
            output = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: count)
        case .sha384:
            guard count <= 255 * 48 else { throw .operation("HKDF's length is too long for the hash") }
            output = HKDF<SHA384>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: count)
        case .sha512:
            guard count <= 255 * 64 else { throw .operation("HKDF's length is too long for the hash") }
            output = HKDF<SHA512>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: count)
        case .md5: throw .notSupported("HKDF does not take MD5")
        }
        return output.withUnsafeBytes { Array($0) }
    }

    /// The digest of `data` as swift-crypto's signing APIs take it (they sign a digest of any of these types).
    func withDigest<R>(_ data: [UInt8], _ body: (any Digest) throws -> R) rethrows -> R {
        switch kind {
        case .sha1: try body(Insecure.SHA1.hash(data: data))
        case .sha256: try body(SHA256.hash(data: data))
        case .sha384: try body(SHA384.hash(data: data))
        case .sha512: try body(SHA512.hash(data: data))
        case .md5: try body(Insecure.MD5.hash(data: data))
        }
    }
}

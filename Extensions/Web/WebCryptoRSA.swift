import Crypto
import Foundation
import SwiftASN1
import _CryptoExtras

/// The RSA operations of ``CryptoRequest`` on _CryptoExtras: RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP. Keys are
/// kept as DER: a private key as PKCS #8, a public key as SPKI.
///
/// The `unsafe` initializers accept moduli below 2048 bits, which Web Crypto (and Node) allow; the script chose
/// the key. Imports answer `[pkcs8, spki, modulus, publicExponent]`, the first empty for a public key.
struct CryptoRSA {
    let request: CryptoRequest

    func run() throws -> [[UInt8]] {
        let input = request.input
        switch request.operation {
        case "rsaGenerate":
            let key = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: request.first))
            return try describe(key)
        case "rsaImport":
            return try importKey()
        case "rsaPrivateParts":
            return try privateParts(input(0))
        case "rsaSign":
            let key = try _RSA.Signing.PrivateKey(unsafeDERRepresentation: input(0))
            let (padding, hash) = try signingChoices()
            return [
                Array(try hash.withDigest(input(1)) { try key.signature(for: $0, padding: padding).rawRepresentation })
            ]
        case "rsaVerify":
            let key = try _RSA.Signing.PublicKey(unsafeDERRepresentation: input(0))
            let (padding, hash) = try signingChoices()
            let signature = _RSA.Signing.RSASignature(rawRepresentation: input(2))
            return [
                hash.withDigest(input(1)) { key.isValidSignature(signature, for: $0, padding: padding) } ? [1] : [0]
            ]
        case "rsaEncrypt":
            let key = try _RSA.Encryption.PublicKey(unsafeDERRepresentation: input(0))
            let padding = try oaepPadding()
            guard input(1).count <= key.maximumEncryptSize(with: padding) else {
                throw CryptoFailure.operation("The data is too long for the key and padding")
            }
            return [Array(try key.encrypt(input(1), padding: padding))]
        case "rsaDecrypt":
            let key = try _RSA.Encryption.PrivateKey(unsafeDERRepresentation: input(0))
            let padding = try oaepPadding()
            do {
                return [Array(try key.decrypt(input(1), padding: padding))]
            } catch {
                throw CryptoFailure.operation("The data could not be decrypted")
            }
        default:
            throw CryptoFailure.notSupported("Unrecognized operation \(request.operation)")
        }
    }

    /// `first`: 1 SPKI, 2 PKCS #8, 3 a private JWK's n, e, d, p, q; 0 a public JWK's n, e.
    private func importKey() throws -> [[UInt8]] {
        let input = request.input
        do {
            switch request.first {
            case 0:
                return try describe(_RSA.Signing.PublicKey(n: input(0), e: input(1)))
            case 1:
                return try describe(_RSA.Signing.PublicKey(unsafeDERRepresentation: input(0)))
            case 2:
                return try describe(_RSA.Signing.PrivateKey(unsafeDERRepresentation: input(0)))
            default:
                return try describe(
                    _RSA.Signing.PrivateKey(n: input(0), e: input(1), d: input(2), p: input(3), q: input(4)))
            }
        } catch {
            throw CryptoFailure.data("Invalid RSA key data")
        }
    }

    /// A PKCS #8 RSA key's d, p, q, dp, dq and qi (RFC 8017's RSAPrivateKey inside RFC 5208's PrivateKeyInfo),
    /// which swift-crypto does not expose, as unsigned big-endian bytes without leading zeros (a JWK's form).
    private func privateParts(_ pkcs8: [UInt8]) throws -> [[UInt8]] {
        let inner = try DER.sequence(try DER.parse(pkcs8), identifier: .sequence) { nodes in
            _ = try ArraySlice<UInt8>(derEncoded: &nodes)
            _ = nodes.next()
            return try ASN1OctetString(derEncoded: &nodes).bytes
        }
        let parts = try DER.sequence(try DER.parse(inner), identifier: .sequence) { nodes in
            // version, n, e, d, p, q, dp, dq, qi
            try (0..<9).map { _ in try ArraySlice<UInt8>(derEncoded: &nodes) }
        }
        return parts[3...].map { part in
            let trimmed = part.drop { $0 == 0 }
            return trimmed.isEmpty ? [0] : Array(trimmed)
        }
    }

    private func describe(_ key: _RSA.Signing.PrivateKey) throws -> [[UInt8]] {
        let primitives = try key.publicKey.getKeyPrimitives()
        return [
            Array(key.pkcs8DERRepresentation), Array(key.publicKey.derRepresentation), Array(primitives.modulus),
            Array(primitives.publicExponent),
        ]
    }

    private func describe(_ key: _RSA.Signing.PublicKey) throws -> [[UInt8]] {
        let primitives = try key.getKeyPrimitives()
        return [[], Array(key.derRepresentation), Array(primitives.modulus), Array(primitives.publicExponent)]
    }

    /// `name` is "PSS SHA-256" or "PKCS1 SHA-256"; PSS's salt (`second`) must be the hash's length, the one
    /// salt length swift-crypto signs with.
    private func signingChoices() throws(CryptoFailure) -> (_RSA.Signing.Padding, CryptoHash) {
        let parts = request.name.split(separator: " ")
        let hash = try CryptoHash(String(parts.last ?? ""))
        guard parts.first == "PSS" else { return (.insecurePKCS1v1_5, hash) }
        guard request.second == hash.digest([]).count else {
            throw .notSupported("RSA-PSS's saltLength must be the hash's length in bytes")
        }
        return (.PSS, hash)
    }

    private func oaepPadding() throws(CryptoFailure) -> _RSA.Encryption.Padding {
        switch request.name {
        case "SHA-1": .PKCS1_OAEP
        case "SHA-256": .PKCS1_OAEP_SHA256
        default: throw .notSupported("RSA-OAEP supports SHA-1 and SHA-256 only")
        }
    }
}

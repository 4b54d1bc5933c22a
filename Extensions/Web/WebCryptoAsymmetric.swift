import Crypto
import Foundation
import _CryptoExtras

/// The elliptic-curve operations of ``CryptoRequest``: ECDSA and ECDH on P-256/384/521 (keys kept as the
/// private scalar and the uncompressed public point), Ed25519 and X25519 (keys kept as their 32 raw bytes).
///
/// Key formats: `format` is 0 for a raw public key, 1 for SPKI, 2 for PKCS #8, 3 for a raw private key (a
/// JWK's `d`). Imports answer `[private, public]`, the private part empty for a public key.
struct CryptoAsymmetric {
    let request: CryptoRequest

    func run() throws -> [[UInt8]] {
        let input = request.input
        switch request.operation {
        case "ecGenerate":
            let (d, point) = try curve().generate()
            return [d, point]
        case "ecImport":
            let curve = try curve()
            switch request.first {
            case 0: return [[], try data { try curve.publicFromRaw(input(0)) }]
            case 1: return [[], try data { try curve.publicFromDER(input(0)) }]
            case 2:
                let (d, point) = try data { try curve.privateFromDER(input(0)) }
                return [d, point]
            default:
                let (d, point) = try data { try curve.privateFromRaw(input(0)) }
                return [d, point]
            }
        case "ecExport":
            let curve = try curve()
            return [request.first == 2 ? try curve.privateDER(input(0)) : try curve.publicDER(input(0))]
        case "ecdsaSign":
            let curve = try curve()
            return [try hash().withDigest(input(1)) { digest in try curve.sign(input(0), digest) }]
        case "ecdsaVerify":
            let curve = try curve()
            return [
                try hash().withDigest(input(1)) { digest in try curve.verify(input(0), digest, input(2)) } ? [1] : [0]
            ]
        case "ecdhDerive":
            return [try curve().derive(input(0), input(1))]
        case "okpGenerate":
            if request.name == "Ed25519" {
                let key = Curve25519.Signing.PrivateKey()
                return [Array(key.rawRepresentation), Array(key.publicKey.rawRepresentation)]
            }
            let key = Curve25519.KeyAgreement.PrivateKey()
            return [Array(key.rawRepresentation), Array(key.publicKey.rawRepresentation)]
        case "okpImport":
            return try data { try okpImport() }
        case "okpExport":
            return [try okpExport()]
        case "ed25519Sign":
            return [Array(try Curve25519.Signing.PrivateKey(rawRepresentation: input(0)).signature(for: input(1)))]
        case "ed25519Verify":
            let key = try Curve25519.Signing.PublicKey(rawRepresentation: input(0))
            return [key.isValidSignature(input(2), for: input(1)) ? [1] : [0]]
        case "x25519Derive":
            let secret = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: input(0))
                .sharedSecretFromKeyAgreement(with: try Curve25519.KeyAgreement.PublicKey(rawRepresentation: input(1)))
            let bytes = secret.withUnsafeBytes { Array($0) }
            // RFC 7748 §6.1: an all-zero secret means the peer's key was of small order.
            guard bytes.contains(where: { $0 != 0 }) else { throw CryptoFailure.operation("The shared secret is zero") }
            return [bytes]
        default:
            guard request.operation.hasPrefix("rsa") else {
                throw CryptoFailure.notSupported("Unrecognized operation \(request.operation)")
            }
            return try CryptoRSA(request: request).run()
        }
    }

    private func curve() throws(CryptoFailure) -> NISTCurve {
        switch request.name.split(separator: " ").first {
        case "P-256": .p256
        case "P-384": .p384
        case "P-521": .p521
        default: throw .notSupported("Unrecognized curve \(request.name)")
        }
    }

    /// The hash after the curve in `name` ("P-256 SHA-256").
    private func hash() throws(CryptoFailure) -> CryptoHash {
        try CryptoHash(String(request.name.split(separator: " ").last ?? ""))
    }

    /// Runs a key parse, answering a `DataError` when swift-crypto rejects the bytes.
    private func data<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let failure as CryptoFailure {
            throw failure
        } catch {
            throw CryptoFailure.data("Invalid key data")
        }
    }

    private func okpImport() throws -> [[UInt8]] {
        let bytes = request.input(0)
        let signing = request.name == "Ed25519"
        switch (request.first, signing) {
        case (0, true):
            return [[], Array(try Curve25519.Signing.PublicKey(rawRepresentation: bytes).rawRepresentation)]
        case (0, false):
            return [[], Array(try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes).rawRepresentation)]
        case (1, true):
            return [[], Array(try Curve25519.Signing.PublicKey(derRepresentation: bytes).rawRepresentation)]
        case (1, false):
            return [[], Array(try Curve25519.KeyAgreement.PublicKey(derRepresentation: bytes).rawRepresentation)]
        case (2, true):
            let key = try Curve25519.Signing.PrivateKey(derRepresentation: bytes)
            return [Array(key.rawRepresentation), Array(key.publicKey.rawRepresentation)]
        case (2, false):
            let key = try Curve25519.KeyAgreement.PrivateKey(derRepresentation: bytes)
            return [Array(key.rawRepresentation), Array(key.publicKey.rawRepresentation)]
        case (_, true):
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: bytes)
            return [Array(key.rawRepresentation), Array(key.publicKey.rawRepresentation)]
        case (_, false):
            let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes)
            return [Array(key.rawRepresentation), Array(key.publicKey.rawRepresentation)]
        }
    }

    private func okpExport() throws -> [UInt8] {
        let bytes = request.input(0)
        switch (request.first, request.name == "Ed25519") {
        case (2, true): return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: bytes).derRepresentation)
        case (2, false):
            return Array(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes).derRepresentation)
        case (_, true): return Array(try Curve25519.Signing.PublicKey(rawRepresentation: bytes).derRepresentation)
        case (_, false): return Array(try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes).derRepresentation)
        }
    }
}

/// One NIST curve's operations over bytes (the three curves' swift-crypto types share no protocol).
struct NISTCurve: Sendable {
    let generate: @Sendable () -> ([UInt8], [UInt8])
    let privateFromRaw: @Sendable ([UInt8]) throws -> ([UInt8], [UInt8])
    let privateFromDER: @Sendable ([UInt8]) throws -> ([UInt8], [UInt8])
    let publicFromRaw: @Sendable ([UInt8]) throws -> [UInt8]
    let publicFromDER: @Sendable ([UInt8]) throws -> [UInt8]
    let privateDER: @Sendable ([UInt8]) throws -> [UInt8]
    let publicDER: @Sendable ([UInt8]) throws -> [UInt8]
    let sign: @Sendable ([UInt8], any Digest) throws -> [UInt8]
    let verify: @Sendable ([UInt8], any Digest, [UInt8]) throws -> Bool
    let derive: @Sendable ([UInt8], [UInt8]) throws -> [UInt8]

    static let p256 = NISTCurve(
        generate: {
            let key = P256.Signing.PrivateKey(compactRepresentable: false)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        privateFromRaw: { d in
            let key = try P256.Signing.PrivateKey(rawRepresentation: d)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        privateFromDER: { der in
            let key = try P256.Signing.PrivateKey(derRepresentation: der)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        publicFromRaw: { point in
            let key =
                point.first == 4
                ? try P256.Signing.PublicKey(x963Representation: point)
                : try P256.Signing.PublicKey(compressedRepresentation: point)
            return Array(key.x963Representation)
        },
        publicFromDER: { der in Array(try P256.Signing.PublicKey(derRepresentation: der).x963Representation) },
        privateDER: { d in Array(try P256.Signing.PrivateKey(rawRepresentation: d).derRepresentation) },
        publicDER: { point in Array(try P256.Signing.PublicKey(x963Representation: point).derRepresentation) },
        sign: { d, digest in
            Array(try P256.Signing.PrivateKey(rawRepresentation: d).signature(for: digest).rawRepresentation)
        },
        verify: { point, digest, signature in
            guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return try P256.Signing.PublicKey(x963Representation: point).isValidSignature(signature, for: digest)
        },
        derive: { d, point in
            let secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: d).sharedSecretFromKeyAgreement(
                with: try P256.KeyAgreement.PublicKey(x963Representation: point))
            return secret.withUnsafeBytes { Array($0) }
        })
    static let p384 = NISTCurve(
        generate: {
            let key = P384.Signing.PrivateKey(compactRepresentable: false)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        privateFromRaw: { d in
            let key = try P384.Signing.PrivateKey(rawRepresentation: d)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        privateFromDER: { der in
            let key = try P384.Signing.PrivateKey(derRepresentation: der)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        publicFromRaw: { point in
            let key =
                point.first == 4
                ? try P384.Signing.PublicKey(x963Representation: point)
                : try P384.Signing.PublicKey(compressedRepresentation: point)
            return Array(key.x963Representation)
        },
        publicFromDER: { der in Array(try P384.Signing.PublicKey(derRepresentation: der).x963Representation) },
        privateDER: { d in Array(try P384.Signing.PrivateKey(rawRepresentation: d).derRepresentation) },
        publicDER: { point in Array(try P384.Signing.PublicKey(x963Representation: point).derRepresentation) },
        sign: { d, digest in
            Array(try P384.Signing.PrivateKey(rawRepresentation: d).signature(for: digest).rawRepresentation)
        },
        verify: { point, digest, signature in
            guard let signature = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return try P384.Signing.PublicKey(x963Representation: point).isValidSignature(signature, for: digest)
        },
        derive: { d, point in
            let secret = try P384.KeyAgreement.PrivateKey(rawRepresentation: d).sharedSecretFromKeyAgreement(
                with: try P384.KeyAgreement.PublicKey(x963Representation: point))
            return secret.withUnsafeBytes { Array($0) }
        })
    static let p521 = NISTCurve(
        generate: {
            let key = P521.Signing.PrivateKey(compactRepresentable: false)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        privateFromRaw: { d in
            let key = try P521.Signing.PrivateKey(rawRepresentation: d)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        privateFromDER: { der in
            let key = try P521.Signing.PrivateKey(derRepresentation: der)
            return (Array(key.rawRepresentation), Array(key.publicKey.x963Representation))
        },
        publicFromRaw: { point in
            let key =
                point.first == 4
                ? try P521.Signing.PublicKey(x963Representation: point)
                : try P521.Signing.PublicKey(compressedRepresentation: point)
            return Array(key.x963Representation)
        },
        publicFromDER: { der in Array(try P521.Signing.PublicKey(derRepresentation: der).x963Representation) },
        privateDER: { d in Array(try P521.Signing.PrivateKey(rawRepresentation: d).derRepresentation) },
        publicDER: { point in Array(try P521.Signing.PublicKey(x963Representation: point).derRepresentation) },
        sign: { d, digest in
            Array(try P521.Signing.PrivateKey(rawRepresentation: d).signature(for: digest).rawRepresentation)
        },
        verify: { point, digest, signature in
            guard let signature = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return try P521.Signing.PublicKey(x963Representation: point).isValidSignature(signature, for: digest)
        },
        derive: { d, point in
            let secret = try P521.KeyAgreement.PrivateKey(rawRepresentation: d).sharedSecretFromKeyAgreement(
                with: try P521.KeyAgreement.PublicKey(x963Representation: point))
            return secret.withUnsafeBytes { Array($0) }
        })
}

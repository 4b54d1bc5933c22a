import FileSystemCore
import JSBridgeCore

/// The actions' argument and result types (their typings: `jsbridge --typings FileSystem`).
///
/// Arguments decode as types only; what depends on more than a type — a path's capability and NUL bytes, an
/// encoding's or flag's name, a mode's range, a negative position — is checked by the action, in the order
/// it reads them, so that a path not granted is reported before a bad option.
extension FileSystemPlugin {
    // MARK: Arguments

    /// A path alone: `readdir`, `stat`, `lstat`, `rmdir`, `unlink`, `exists`, `realpath`, `readlink`.
    struct PathArguments: Decodable, Sendable {
        var path: String
    }

    struct ReadFileArguments: Decodable, Sendable {
        var path: String
        /// Without one the answer is the file's bytes.
        var encoding: EncodingName?
    }

    /// `writeFile`'s options; the contents are bytes or text at `data`, or text staged under `token` (`stage`).
    struct WriteFileArguments: Decodable, Sendable {
        var path: String
        var data: WriteData?
        var token: Int?
        /// The encoding of text `data` (default utf8).
        var encoding: EncodingName?
        var flag: WriteFlag?
        /// The permissions of a file created (default 0o666, before the umask).
        var mode: Int?
    }

    struct MkdirArguments: Decodable, Sendable {
        var path: String
        var recursive: Bool?
        var mode: Int?
    }

    struct RmArguments: Decodable, Sendable {
        var path: String
        var recursive: Bool?
        var force: Bool?
    }

    /// `rename`'s two paths.
    struct RenameArguments: Decodable, Sendable {
        var from: String
        var to: String
    }

    struct CopyFileArguments: Decodable, Sendable {
        var from: String
        var to: String
        /// Fail with `EEXIST` when `to` exists (`COPYFILE_EXCL`).
        var exclusive: Bool?
    }

    struct AccessArguments: Decodable, Sendable {
        var path: String
        /// `F_OK` (0, the default) or a combination of `R_OK` (4), `W_OK` (2), `X_OK` (1).
        var mode: Int?
    }

    struct SymlinkArguments: Decodable, Sendable {
        /// Stored in the link as written (not checked: it is only text until the link is followed).
        var target: String
        var path: String
    }

    struct ChmodArguments: Decodable, Sendable {
        var path: String
        var mode: Int
    }

    struct TruncateArguments: Decodable, Sendable {
        var path: String
        /// Default 0.
        var length: Int?
    }

    struct OpenArguments: Decodable, Sendable {
        var path: String
        /// Default `r`.
        var flags: OpenFlags?
        var mode: Int?
    }

    /// An open file's handle (`open`'s answer) alone: `close`, `fstat`.
    struct HandleArguments: Decodable, Sendable {
        var fd: Int
    }

    struct ReadArguments: Decodable, Sendable {
        var fd: Int
        /// At most this many bytes (default 65536, at most 2^30).
        var length: Int?
        /// Where to read (default: at the handle's position, which then advances).
        var position: Int?
        /// Without one the answer is the bytes read.
        var encoding: EncodingName?
    }

    /// `write`'s options; the contents are bytes or text at `data`, or text staged under `token` (`stage`).
    struct WriteArguments: Decodable, Sendable {
        var fd: Int
        var data: WriteData?
        var token: Int?
        /// The encoding of text `data` (default utf8).
        var encoding: EncodingName?
        /// Where to write (default: at the handle's position, which then advances).
        var position: Int?
    }

    struct FtruncateArguments: Decodable, Sendable {
        var fd: Int
        /// Default 0.
        var length: Int?
    }

    /// The arguments of an action that writes contents (`writeFile`, `write`): `Options`, or — the form the
    /// plugin's JavaScript uses for sync calls, where the text need not be copied into the JSON — the array
    /// `[options, text]`. Typed as `Options`.
    struct Writing<Options: Decodable & Sendable>: Decodable, Sendable, TypeScriptDescribable {
        var options: Options
        /// The text of the array form.
        var text: String?
        /// Where the options are in the arguments: `""`, or `"[0]"` in the array form.
        var at: String

        init(from decoder: any Decoder) throws {
            do {
                options = try Options(from: decoder)
                text = nil
                at = ""
            } catch {
                guard var parts = try? decoder.unkeyedContainer(), parts.count == 2 else { throw error }
                options = try parts.decode(Options.self)
                text = try parts.decode(String.self)
                at = "[0]"
            }
        }

        static var typeScript: TypeScriptType { .describing(Options.self) }

        /// The path of member `key` of the options.
        func path(of key: String) -> String { at.isEmpty ? key : at + "." + key }
    }

    /// Contents to write at `data`: text (in the `encoding`), or bytes (a script's `Uint8Array`, `ArrayBuffer`
    /// or other view, which cross beside the JSON: there the JSON holds `{}`).
    enum WriteData: Decodable, Sendable, TypeScriptDescribable {
        case text(String)
        case bytes(Bytes)

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            do {
                self = .text(try value.decode(String.self))
            } catch {
                // Not text: bytes, where the JSON holds an object. Anything else is reported as not a string.
                guard (try? decoder.container(keyedBy: NoKeys.self)) != nil, let bytes = try? value.decode(Bytes.self)
                else { throw error }
                self = .bytes(bytes)
            }
        }

        static let typeScript = TypeScriptType.raw("string | Uint8Array")
    }

    private enum NoKeys: CodingKey {}

    /// An encoding's name (`TextEncoding(named:)`: any case; `utf-8` and `binary` too), checked by the action.
    struct EncodingName: Decodable, Sendable, TypeScriptDescribable {
        var name: String

        init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }

        static let typeScript = TypeScriptType.raw(
            #""utf8" | "utf-8" | "base64" | "base64url" | "hex" | "latin1" | "binary""#)
    }

    /// How `writeFile` opens its file (Node's `flag`), checked by the action: `w` (default), `a`, `wx`, `ax`.
    struct WriteFlag: Decodable, Sendable, TypeScriptDescribable {
        var name: String

        init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }

        static let typeScript = TypeScriptType.raw(#""w" | "a" | "wx" | "xw" | "ax" | "xa""#)
    }

    /// Node's `flags` for `open` (``FileHandles/openFlags(_:)``), checked by the action.
    struct OpenFlags: Decodable, Sendable, TypeScriptDescribable {
        var name: String

        init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }

        static let typeScript = TypeScriptType.raw(
            [
                "r", "rs", "sr", "r+", "rs+", "sr+", "w", "wx", "xw", "w+", "wx+", "xw+", "a", "as", "sa", "ax", "xa",
                "a+", "as+", "sa+", "ax+", "xa+",
            ].map { "\"\($0)\"" }.joined(separator: " | "))
    }

    // MARK: Results

    /// What actions without an answer answer: `null`.
    struct Done: Encodable, Sendable, TypeScriptDescribable {
        func encode(to encoder: any Encoder) throws {
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        }

        static let typeScript = TypeScriptType.null
    }

    /// Contents read (`readFileSync`, `readSync`; written, for `writeFile` and `write`): bytes — a `Uint8Array`
    /// over the buffer they were read into — or text, which a sync action's string answer carries without JSON.
    enum Contents: Encodable, Sendable, TypeScriptDescribable {
        case bytes(Bytes)
        case text(String)

        func encode(to encoder: any Encoder) throws {
            var value = encoder.singleValueContainer()
            switch self {
            case .bytes(let bytes): try value.encode(bytes)
            case .text(let text): try value.encode(text)
            }
        }

        static let typeScript = TypeScriptType.raw("Uint8Array | string")

        /// The answer of an async action: text inside it up to ``FileSystemPlugin/inlineLimit`` bytes, else
        /// staged for `take`.
        func answer(_ context: PluginContext<FileSystemPlugin>) -> ContentsAnswer {
            switch self {
            case .bytes(let bytes): .bytes(bytes)
            case .text(let text) where text.utf8.count <= inlineLimit: .inline(text)
            case .text(let text): .staged(context.state.staged.insert(text))
            }
        }
    }

    /// Contents read, as `readFile` and `read` answer them: bytes, `{data}` (text), or `{token}` for text the
    /// plugin's JavaScript takes with the private `take`.
    enum ContentsAnswer: Encodable, Sendable, TypeScriptDescribable {
        case bytes(Bytes)
        case inline(String)
        case staged(Int)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .bytes(let bytes):
                var value = encoder.singleValueContainer()
                try value.encode(bytes)
            // As JSON values: the bridge's encoder takes one as it is.
            case .inline(let text): try JSONValue.object(["data": .string(text)]).encode(to: encoder)
            case .staged(let token): try JSONValue.object(["token": .number(Double(token))]).encode(to: encoder)
            }
        }

        static let typeScript = TypeScriptType.raw("Uint8Array | { data: string } | { token: number }")
    }
}

extension FileSystemPlugin {
    /// What `readdir` answers: its entries as `[name, type]` pairs.
    struct DirectoryListing: Encodable, Sendable, TypeScriptDescribable {
        var entries: [DirectoryEntry]

        /// The entries as one JSON array (the bridge's encoder takes it as it is, rather than entry by entry).
        func encode(to encoder: any Encoder) throws { try JSONValue.array(entries.map(\.json)).encode(to: encoder) }

        static var typeScript: TypeScriptType { .array(.describing(DirectoryEntry.self)) }
    }
}

/// `stat`, `lstat` and `fstat` answer Node's `fs.Stats` fields, with the entry type's name.
extension FileStats: TypeScriptDescribable {
    public static var typeScript: TypeScriptType {
        let numbers = [
            "dev", "ino", "mode", "nlink", "uid", "gid", "rdev", "size", "blksize", "blocks", "atimeMs", "mtimeMs",
            "ctimeMs", "birthtimeMs",
        ]
        return .interface(
            name: "FileStats",
            properties: numbers.map { TypeScriptType.Property($0, .number) }
                + [TypeScriptType.Property("type", .describing(EntryType.self))])
    }
}

/// `readdir` answers each entry as `[name, type]`.
extension DirectoryEntry: TypeScriptDescribable {
    public static var typeScript: TypeScriptType {
        .raw("[name: string, type: \(TypeScriptType.describing(EntryType.self).text())]")
    }
}

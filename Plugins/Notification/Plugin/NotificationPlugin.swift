import JSBridgeCore
@_exported import NotificationCore

/// `Notification`: the exec service of cordova-plugin-dialogs, on the terminal the script runs in (its
/// controlling terminal, `/dev/tty`); a thin adapter over ``Dialogs`` (docs/cordova.md, "Core services").
///
/// | action | arguments | answer |
/// |---|---|---|
/// | `alert` | `[message, title, buttonLabel]` | `1` once Enter is pressed (`0`: dismissed with Ctrl-D) |
/// | `confirm` | `[message, title, buttonLabels]` | the button chosen, 1-based (`0`: dismissed) |
/// | `prompt` | `[message, title, buttonLabels, defaultText]` | `{buttonIndex, input1}` |
/// | `beep` | `[count]` | nothing, after ringing the bell `count` times |
///
/// Button labels are an array or, as the plugin's `www/` code sends them on platforms it does not list, one
/// comma-separated string. The arguments may also be an object (`{message, title, buttonLabels, …}`) for
/// `bridge.call`. Dialogs run one at a time, in the order asked. A process without a terminal fails each call
/// at once with `NO_TERMINAL`.
public struct NotificationPlugin: BridgePlugin {
    public static let name = "Notification"

    private let dialogs: Dialogs

    /// Dialogs on the process's terminal.
    public init() {
        self.init(dialogs: Dialogs())
    }

    /// Dialogs on `dialogs`' terminal (a scripted one in tests).
    public init(dialogs: Dialogs) {
        self.dialogs = dialogs
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> Dialogs { dialogs }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.async("alert", args: JSONValue.self, on: .serial) { context, args in
            let given = Positional(args, ["message", "title", "buttonLabel"])
            let (dialogs, message, title, button) = (
                context.state, given.text(0), given.text(1, or: "Alert"), given.text(2, or: "OK")
            )
            return try await onOwnThread { () throws(BridgeError) in
                try dialogs.alert(message: message, title: title, button: button)
            }
        }
        plugin.async("confirm", args: JSONValue.self, on: .serial) { context, args in
            let given = Positional(args, ["message", "title", "buttonLabels"])
            let (dialogs, message, title, buttons) = (
                context.state, given.text(0), given.text(1, or: "Confirm"), given.labels(2)
            )
            return try await onOwnThread { () throws(BridgeError) in
                try dialogs.confirm(message: message, title: title, buttons: buttons)
            }
        }
        plugin.async("prompt", args: JSONValue.self, on: .serial) { context, args in
            let given = Positional(args, ["message", "title", "buttonLabels", "defaultText"])
            let (dialogs, message, title, buttons, text) = (
                context.state, given.text(0, or: "Prompt message"), given.text(1, or: "Prompt"), given.labels(2),
                given.text(3)
            )
            return try await onOwnThread { () throws(BridgeError) in
                try dialogs.prompt(message: message, title: title, buttons: buttons, defaultText: text)
            }
        }
        plugin.async("beep", args: JSONValue.self, on: .serial) { context, args in
            let given = Positional(args, ["count"]).number(0) ?? 1
            let (dialogs, count) = (context.state, given.isFinite ? Int(min(max(given, 1), 20)) : 1)
            try await onOwnThread { () throws(BridgeError) in try dialogs.beep(count: count) }
            return JSONValue.null
        }
    }
}

/// Arguments given by position (Cordova's exec array; one argument alone, as exec passes a one-element array's
/// element) or by name (an object).
struct Positional {
    let values: [JSONValue]

    init(_ args: JSONValue, _ names: [String]) {
        switch args {
        case .array(let list): values = list
        case .object(let object): values = names.map { object[$0] ?? .null }
        case .null: values = []
        default: values = [args]
        }
    }

    func value(_ index: Int) -> JSONValue { index < values.count ? values[index] : .null }

    /// The text at `index` (a number or boolean as its text); `fallback` when absent, null or empty.
    func text(_ index: Int, or fallback: String = "") -> String {
        switch value(index) {
        case .string(let text): text.isEmpty ? fallback : text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        default: fallback
        }
    }

    func number(_ index: Int) -> Double? { value(index).doubleValue }

    /// Button labels at `index`: an array, or one comma-separated string; `["OK", "Cancel"]` when absent.
    func labels(_ index: Int) -> [String] {
        switch value(index) {
        case .array(let list): list.compactMap(\.stringValue)
        case .string(let text) where !text.isEmpty: text.split(separator: ",").map(String.init)
        default: ["OK", "Cancel"]
        }
    }
}

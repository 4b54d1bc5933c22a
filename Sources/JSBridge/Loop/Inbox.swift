import CJavaScriptCore
import JSBridgeCore
import Synchronization

/// One message for the JS thread, posted from any thread.
struct InboxMessage: Sendable {
    enum Kind: UInt8 {
        case value = 0, item = 1, finished = 2, failed = 3, event = 4, diagnostic = 5
    }

    /// The call id (0 for events and diagnostics).
    let callID: UInt64
    let kind: Kind
    /// A JSON array fragment for the JS dispatcher (`[id,kind,payload]`), or the diagnostic text.
    let text: String
    /// The error code of a `.failed` message (for `--trace`).
    var errorCode: String? = nil
}

/// The completion queue: a mutex-protected list drained by the JS thread, which sleeps on a condition
/// variable and is woken once per batch (the coalesced wake-up of DESIGN §1).
final class Inbox: @unchecked Sendable {
    // Invariant: `messages` and `waiting` are only touched with `waiter`'s mutex held.
    private let waiter = jsb_waiter_create()!
    private var messages: [InboxMessage] = []
    private var waiting = false
    /// Mirrors `messages.count > 0` for lock-free polling while spinning.
    private let hasMessages = Atomic<Bool>(false)

    /// The longest the JS thread polls for answers before it sleeps, while calls are in flight.
    static let spinNanoseconds: UInt64 = 50_000
    /// How long it polls now (JS thread only): halved after each poll that found nothing, back to the maximum
    /// whenever an answer arrives within the maximum anyway — so answers that take longer than a spin (network
    /// requests) stop costing a core, and quick ones (in-process actions) keep saving the wake-up.
    private var spinBudget = spinNanoseconds

    deinit { jsb_waiter_destroy(waiter) }

    /// Appends a message; wakes the JS thread only if it is asleep.
    func post(_ message: InboxMessage) {
        jsb_waiter_lock(waiter)
        messages.append(message)
        hasMessages.store(true, ordering: .releasing)
        if waiting {
            waiting = false
            jsb_waiter_signal(waiter)
        }
        jsb_waiter_unlock(waiter)
    }

    /// Wakes the JS thread without a message (e.g. to notice a stop request).
    func wake() {
        jsb_waiter_lock(waiter)
        waiting = false
        jsb_waiter_signal(waiter)
        jsb_waiter_unlock(waiter)
    }

    /// Takes every pending message (JS thread).
    func takeAll(into buffer: inout [InboxMessage]) {
        buffer.removeAll(keepingCapacity: true)
        jsb_waiter_lock(waiter)
        swap(&buffer, &messages)
        hasMessages.store(false, ordering: .relaxed)
        jsb_waiter_unlock(waiter)
    }

    /// Sleeps until a message arrives or the monotonic `deadline` (ns; 0 = none) passes (JS thread).
    ///
    /// With `spinning`, it first polls for up to ``spinNanoseconds``: an answer that is microseconds away
    /// then costs no thread wake-up.
    func wait(until deadline: UInt64, spinning: Bool) {
        if spinning, spinBudget > 0 {
            let until = jsb_monotonic_ns() + spinBudget
            while !hasMessages.load(ordering: .acquiring), jsb_monotonic_ns() < until {}
            if hasMessages.load(ordering: .acquiring) { return }
            spinBudget = spinBudget < 4_000 ? 0 : spinBudget / 2
        }
        let asleep = spinning ? jsb_monotonic_ns() : 0
        jsb_waiter_lock(waiter)
        if messages.isEmpty {
            waiting = true
            jsb_waiter_wait_until(waiter, deadline)
            waiting = false
        }
        let arrived = !messages.isEmpty
        jsb_waiter_unlock(waiter)
        if spinning, arrived, jsb_monotonic_ns() - asleep < Self.spinNanoseconds { spinBudget = Self.spinNanoseconds }
    }
}

extension InboxMessage {
    /// The message delivering `outcome` of call `id`, serialised off the JS thread.
    init(callID id: UInt64, outcome: CallOutcome) {
        var text = "[\(id),"
        switch outcome {
        case .value(let value):
            text += "0,"
            value.serialize(into: &text)
            self.init(callID: id, kind: .value, text: text + "]")
        case .item(let value):
            text += "1,"
            value.serialize(into: &text)
            self.init(callID: id, kind: .item, text: text + "]")
        case .finished:
            self.init(callID: id, kind: .finished, text: text + "2]")
        case .failed(let error):
            text += "3,"
            error.jsonValue.serialize(into: &text)
            self.init(callID: id, kind: .failed, text: text + "]", errorCode: error.code)
        }
    }

    /// The message delivering a plugin event.
    init(plugin: String, event: String, payload: JSONValue) {
        var text = "[0,4,"
        JSONValue.string(plugin).serialize(into: &text)
        text += ","
        JSONValue.string(event).serialize(into: &text)
        text += ","
        payload.serialize(into: &text)
        self.init(callID: 0, kind: .event, text: text + "]")
    }
}

extension BridgeError {
    /// `{code, message, data?}` as sent to JavaScript.
    var jsonValue: JSONValue {
        var object: JSONObject = ["code": .string(code), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}

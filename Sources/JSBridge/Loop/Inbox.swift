import CJavaScriptCore
import CProcess
import JSBridgeCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One message for the JS thread, posted from any thread.
struct InboxMessage: Sendable {
    enum Kind: UInt8 {
        case value = 0, item = 1, finished = 2, failed = 3, event = 4, diagnostic = 5
        /// A process signal (its number is the call id), for the runtime itself.
        case signal = 6
    }

    /// The call id (0 for events and diagnostics).
    let callID: UInt64
    let kind: Kind
    /// A JSON array fragment for the JS dispatcher (`[id,kind,payload]`), or the diagnostic text.
    let text: String
    /// The error code of a `.failed` message (for `--trace`).
    var errorCode: String? = nil
    /// Bytes that go beside the text (a value or item with ``Bytes`` in it), in the order of the paths that
    /// end the fragment: `[id,kind,payload,[path,…]]`.
    var bytes: [Bytes] = []
}

/// The completion queue: a mutex-protected list drained by the JS thread. While the JS thread's event loop
/// sleeps, the first message posted wakes it, once per batch (the coalesced wake-up of DESIGN §1).
final class Inbox: @unchecked Sendable {
    private struct State {
        var messages: [InboxMessage] = []
        /// Whether the JS thread went to sleep with no message pending (the next post wakes it).
        var asleep = false
        var waker: (@Sendable () -> Void)?
        /// The JS thread (set with the waker).
        var jsThread: pthread_t?
        /// Whether a message was posted from another thread since the JS thread last took the messages.
        var postedElsewhere = false
    }

    private let state = Locked(State())
    /// Mirrors `messages.count > 0` for lock-free polling while spinning.
    private let hasMessages = Atomic<Bool>(false)

    /// The longest the JS thread polls for answers before it sleeps, while calls are in flight.
    static let spinNanoseconds: UInt64 = 50_000

    // Invariant: `spinBudget` and `asleepSince` are touched only on the JS thread (hence `@unchecked Sendable`).
    /// How long it polls now (JS thread only): halved after each poll that found nothing, back to the maximum
    /// whenever an answer posted from another thread arrives within the maximum anyway — so answers that take
    /// longer than a spin (network requests) stop costing a core, and quick ones (in-process actions) keep
    /// saving the wake-up. Answers posted on the JS thread itself (work that completes on its event loop) never
    /// arrive during a spin, so they do not restore it: measured at 64 requests in flight, spins that always
    /// failed took ~5% of the JS thread's samples (Benchmarks/README.md, "HTTP").
    private(set) var spinBudget = spinNanoseconds
    /// When the JS thread last went to sleep with calls in flight (0: it did not).
    private var asleepSince: UInt64 = 0
    /// How soon after the JS thread went to sleep an answer must arrive to restore the spin (ns).
    private let restoreWindow: UInt64
    /// Whether the JS thread spins at all (``Spinning``: not in a process allowed one CPU).
    let spins: Bool

    /// An inbox; `restoreWindow` is for tests (the spin's maximum otherwise); `spins`: whether the JS thread
    /// polls before it sleeps.
    init(restoreWindow: UInt64 = spinNanoseconds, spins: Bool = true) {
        self.restoreWindow = restoreWindow
        self.spins = spins
        if !spins { spinBudget = 0 }
    }

    /// Sets what wakes the sleeping JS thread, or nil once it never sleeps again (JS thread).
    ///
    /// The waker is called on the posting thread, at most once per sleep.
    func setWaker(_ waker: (@Sendable () -> Void)?) {
        state.withLock { state in
            state.waker = waker
            state.jsThread = waker == nil ? nil : pthread_self()
            state.asleep = false
        }
    }

    /// Appends a message; wakes the JS thread only if it is asleep.
    func post(_ message: consuming InboxMessage) {
        // Moved into the queue, not copied: the posting thread keeps no reference to the message's bytes.
        var pending = Optional(message)
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.messages.append(pending.take()!)
            hasMessages.store(true, ordering: .releasing)
            if !state.postedElsewhere, state.jsThread.map({ pthread_equal($0, pthread_self()) == 0 }) ?? true {
                state.postedElsewhere = true
            }
            guard state.asleep else { return nil }
            state.asleep = false
            return state.waker
        }
        wake?()
    }

    /// Whether a message waits.
    var isEmpty: Bool { !hasMessages.load(ordering: .acquiring) }

    /// Takes every pending message (JS thread).
    func takeAll(into buffer: inout [InboxMessage]) {
        buffer.removeAll(keepingCapacity: true)
        let postedElsewhere = state.withLock { state in
            swap(&buffer, &state.messages)
            state.asleep = false
            hasMessages.store(false, ordering: .relaxed)
            defer { state.postedElsewhere = false }
            return state.postedElsewhere
        }
        if asleepSince != 0 {
            if spins, postedElsewhere, jsb_monotonic_ns() - asleepSince < restoreWindow {
                spinBudget = Self.spinNanoseconds
            }
            asleepSince = 0
        }
    }

    /// Polls for up to the spin budget for a message (JS thread, with calls in flight); true if one arrived.
    ///
    /// An answer that is microseconds away then costs no thread wake-up.
    func spin() -> Bool {
        guard spinBudget > 0 else { return false }
        let until = jsb_monotonic_ns() + spinBudget
        while !hasMessages.load(ordering: .acquiring), jsb_monotonic_ns() < until {}
        if hasMessages.load(ordering: .acquiring) { return true }
        spinBudget = spinBudget < 4_000 ? 0 : spinBudget / 2
        return false
    }

    /// Marks the JS thread asleep unless a message is pending (JS thread); false if one is.
    ///
    /// After a true return the next ``post(_:)`` calls the waker.
    func sleep(withCallsInFlight: Bool) -> Bool {
        let slept = state.withLock { state in
            guard state.messages.isEmpty else { return false }
            state.asleep = true
            return true
        }
        if slept, withCallsInFlight, spins { asleepSince = jsb_monotonic_ns() }
        return slept
    }
}

extension JSONPathComponent {
    /// The component as JavaScript names it: a key string or an index number.
    var jsonValue: JSONValue {
        switch self {
        case .key(let key): .string(key)
        case .index(let index): .number(Double(index))
        }
    }
}

extension InboxMessage {
    /// The message delivering `outcome` of call `id`, serialised off the JS thread.
    init(callID id: UInt64, outcome: consuming CallOutcome) {
        var text = "[\(id),"
        switch consume outcome {
        case .value(let value):
            text += "0,"
            value.serialize(into: &text)
            self.init(callID: id, kind: .value, text: text + "]")
        case .encoded(let value):
            text.reserveCapacity(text.utf8.count + value.text.utf8.count + 3)
            text += "0,"
            text += value.text
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
        case .valueWithBytes(let value):
            text += "0,"
            self.init(callID: id, kind: .value, withBytes: consume value, text: text)
        case .encodedWithBytes(let value, let bytes):
            text.reserveCapacity(text.utf8.count + value.text.utf8.count + 16 * bytes.count + 8)
            text += "0,"
            text += value.text
            self.init(callID: id, kind: .value, text: text, bytes: consume bytes)
        case .itemWithBytes(let value):
            text += "1,"
            self.init(callID: id, kind: .item, withBytes: consume value, text: text)
        }
    }

    /// `text` (`[id,kind,`) completed with the value's JSON and the paths of its bytes.
    private init(callID id: UInt64, kind: Kind, withBytes value: consuming BridgeValue, text start: String) {
        var text = start
        value.json.serialize(into: &text)
        self.init(callID: id, kind: kind, text: text, bytes: (consume value).bytes)
    }

    /// `text` (`[id,kind,payload`) completed with the paths of `bytes`, which go beside it.
    private init(callID id: UInt64, kind: Kind, text start: String, bytes: consuming [ByteAttachment]) {
        var text = start
        text += ","
        JSONValue.array(bytes.map { .array($0.path.map(\.jsonValue)) }).serialize(into: &text)
        self.init(callID: id, kind: kind, text: text + "]", bytes: bytes.map(\.bytes))
    }

    /// The message delivering event `event` of `plugin` ("" for the engine's own): `[0,4,plugin,event,payload]`,
    /// and with bytes `[0,4,plugin,event,payload,[paths]]`, the bytes beside the text.
    init(plugin: String, event: String, payload: BridgeValue) {
        var text = "[0,4,"
        JSONValue.string(plugin).serialize(into: &text)
        text += ","
        JSONValue.string(event).serialize(into: &text)
        text += ","
        payload.json.serialize(into: &text)
        guard !payload.bytes.isEmpty else {
            self.init(callID: 0, kind: .event, text: text + "]")
            return
        }
        text += ","
        JSONValue.array(payload.bytes.map { .array($0.path.map(\.jsonValue)) }).serialize(into: &text)
        self.init(callID: 0, kind: .event, text: text + "]", bytes: payload.bytes.map(\.bytes))
    }
}

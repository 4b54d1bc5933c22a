import Foundation
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import JSBridge

/// The inbox's spin budget: restored only by answers that a spin could have caught (posted by another
/// thread, soon after the JS thread went to sleep).
@Suite struct InboxTests {
    /// An inbox whose JS thread is the current one, its spin budget used up by polls that found nothing.
    /// The window for a quick answer is a minute, so that the scheduler cannot make an answer late.
    private static func drainedInbox() -> Inbox {
        let inbox = Inbox(restoreWindow: 60_000_000_000)
        inbox.setWaker {}
        while inbox.spinBudget > 0 { #expect(!inbox.spin()) }
        return inbox
    }

    private static func answer(_ id: UInt64) -> InboxMessage {
        InboxMessage(callID: id, outcome: .value(.number(Double(id))))
    }

    @Test func anAnswerPostedOnTheJSThreadDoesNotRestoreTheSpin() {
        let inbox = Self.drainedInbox()
        #expect(inbox.sleep(withCallsInFlight: true))
        inbox.post(Self.answer(1))
        var batch: [InboxMessage] = []
        inbox.takeAll(into: &batch)
        #expect(batch.map(\.callID) == [1])
        #expect(inbox.spinBudget == 0)
    }

    @Test func anAnswerFromAnotherThreadRestoresTheSpin() {
        let inbox = Self.drainedInbox()
        #expect(inbox.sleep(withCallsInFlight: true))
        let posted = DispatchSemaphore(value: 0)
        Thread {
            inbox.post(Self.answer(2))
            posted.signal()
        }.start()
        posted.wait()
        var batch: [InboxMessage] = []
        inbox.takeAll(into: &batch)
        #expect(batch.map(\.callID) == [2])
        #expect(inbox.spinBudget == Inbox.spinNanoseconds)
    }
}

/// An inbox that never spins (``Spinning``: a process allowed one CPU): the JS thread goes straight to sleep,
/// and answers still arrive and wake it.
@Suite(.blocking) struct NonSpinningInboxTests {
    @Test func itNeverPollsAndAQuickAnswerDoesNotStartTheSpin() {
        let inbox = Inbox(restoreWindow: 60_000_000_000, spins: false)
        inbox.setWaker {}
        #expect(inbox.spinBudget == 0)
        #expect(!inbox.spin())
        #expect(inbox.sleep(withCallsInFlight: true))
        let posted = DispatchSemaphore(value: 0)
        Thread {
            inbox.post(InboxMessage(callID: 3, outcome: .value(.number(3))))
            posted.signal()
        }.start()
        posted.wait()
        var batch: [InboxMessage] = []
        inbox.takeAll(into: &batch)
        #expect(batch.map(\.callID) == [3])
        #expect(inbox.spinBudget == 0)
    }

    @Test func anAnswerPostedWhileAsleepCallsTheWakerOnce() {
        let inbox = Inbox(spins: false)
        let wakes = Locked(0)
        inbox.setWaker { wakes.withLock { $0 += 1 } }
        #expect(inbox.sleep(withCallsInFlight: true))
        inbox.post(InboxMessage(callID: 1, outcome: .value(.number(1))))
        inbox.post(InboxMessage(callID: 2, outcome: .value(.number(2))))
        #expect(wakes.withLock { $0 } == 1)
        var batch: [InboxMessage] = []
        inbox.takeAll(into: &batch)
        #expect(batch.map(\.callID) == [1, 2])
    }
}

/// Bytes in an answer reach the JS thread held by the message alone, so that the engine takes their memory
/// over instead of copying it (``Bytes/takeMallocedBuffer()``): the replying thread keeps no reference, even
/// while it is still inside `resolve` when the JS thread takes the message (here: from the wake-up call).
@Suite struct AnswerBytesTests {
    @Test func theAnswersBytesAreHeldOnlyByTheMessage() throws {
        let inbox = Inbox(restoreWindow: 60_000_000_000)
        let seen = Locked<(pointer: UnsafeMutableRawPointer?, count: Int)?>(nil)
        inbox.setWaker {
            var batch: [InboxMessage] = []
            inbox.takeAll(into: &batch)
            guard batch.count == 1, batch[0].bytes.count == 1 else { return }
            var delivered = batch[0].bytes[0]
            batch[0].bytes = []
            let taken = delivered.takeMallocedBuffer()
            seen.withLock { $0 = taken }
        }
        #expect(inbox.sleep(withCallsInFlight: false))
        let reply = CallReply(callID: 7, plugin: "P", action: "a", sink: InboxSink(inbox: inbox))
        let bytes = Bytes(capacity: 1 << 20) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 1)
            return buffer.count
        }
        let base = bytes.withUnsafeBytes { $0.baseAddress }
        reply.resolve(BridgeValue(bytes: consume bytes))
        let taken = try #require(seen.withLock { $0 })
        defer { free(taken.pointer) }
        #expect(taken.count == 1 << 20)
        #expect(UnsafeRawPointer(taken.pointer) == base, "the bytes were copied: another reference was left behind")
    }
}

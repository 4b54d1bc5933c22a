import Foundation
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

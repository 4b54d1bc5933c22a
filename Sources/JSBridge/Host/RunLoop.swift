import CJavaScriptCore
import CProcess
import NIOCore

/// The JS thread's SwiftNIO event loop during a run, and the one loop timer that wakes it for the next JS
/// timer (or the `--timeout` deadline).
struct LoopState {
    var eventLoop: (any EventLoop)?
    /// The timer for `deadline` (monotonic ns) and the generation it was armed in.
    var wakeTimer: (deadline: UInt64, task: Scheduled<Void>, generation: UInt64)?
    /// Numbers the wake timers. A timer cancelled during the loop tick that runs it still runs; it must then
    /// do nothing rather than take the place of its successor (which would stay scheduled, untracked).
    var wakeGeneration: UInt64 = 0
    /// The inbox's messages being delivered (kept to reuse its storage).
    var batch: [InboxMessage] = []

    mutating func cancelWakeTimer() {
        wakeTimer?.task.cancel()
        wakeTimer = nil
    }
}

extension JSRuntime {
    /// Queues one turn of the loop on the event loop, after the I/O it is handling now: JavaScript that a
    /// SwiftNIO callback on the JS thread ran (a server's request) may have set timers, made calls or left
    /// nothing alive. Requests made before that turn runs share it.
    func requestTurn() {
        guard !turnRequested, !ended, let eventLoop = extensionLoop else { return }
        turnRequested = true
        let runtime = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.execute {
            runtime.value.turnRequested = false
            runtime.value.turn()
        }
    }

    /// Runs the loop until it must wait: due timers, the calls the script made, the inbox's messages. Then
    /// it returns to the event loop, having armed the inbox's waker and a timer for the next deadline; when
    /// nothing keeps the process alive any more, it ends the run.
    func turn() {
        guard !ended else { return }
        while !stopping {
            options.debugger?.pump()
            readSignals()
            handleQueuedSignals()
            if stopping { break }
            // Timers due now, in deadline order; microtasks drain after each callback.
            let now = jsb_monotonic_ns()
            while !stopping, let id = timers.popDue(now: now), let fire = hook(\.fireTimer, "fireTimer", "timers.js") {
                callJS(fire, [JSValueMakeNumber(engine.context, Double(id))])
            }
            flushSubmissions()
            inbox.takeAll(into: &loop.batch)
            engine.lent.drain(engine.context)
            if !loop.batch.isEmpty {
                deliver(&loop.batch)
                handleQueuedSignals()
                flushSubmissions()
                continue
            }
            if stopping || termination.timedOut.load(ordering: .relaxed) { break }
            guard isAlive else { break }
            output.flush()
            var deadline = timers.nextDeadline() ?? 0
            if let limit = termination.deadline {
                if jsb_monotonic_ns() >= limit {
                    termination.timedOut.store(true, ordering: .relaxed)
                    break
                }
                deadline = deadline == 0 ? limit : min(deadline, limit)
            }
            let waiting = calls.holdRun
            if waiting, inbox.spin() { continue }
            guard inbox.sleep(withCallsInFlight: waiting) else { continue }
            wake(at: deadline)
            return
        }
        end(ranScript: true)
    }

    /// Keeps one loop timer for the monotonic `deadline` (ns; 0 = none), replacing one for another deadline.
    private func wake(at deadline: UInt64) {
        if let current = loop.wakeTimer {
            if current.deadline == deadline { return }
            loop.cancelWakeTimer()
        }
        guard deadline != 0, let eventLoop = loop.eventLoop else { return }
        let runtime = NIOLoopBound(self, eventLoop: eventLoop)
        loop.wakeGeneration &+= 1
        let generation = loop.wakeGeneration
        let task = eventLoop.scheduleTask(deadline: .uptimeNanoseconds(deadline)) {
            guard runtime.value.loop.wakeTimer?.generation == generation else { return }
            runtime.value.loop.wakeTimer = nil
            runtime.value.turn()
        }
        loop.wakeTimer = (deadline, task, generation)
    }
}

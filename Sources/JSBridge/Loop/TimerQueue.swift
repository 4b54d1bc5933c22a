/// The runtime's timers: a min-heap of deadlines (monotonic ns) with lazy deletion (JS thread only).
struct TimerQueue {
    private struct Timer {
        var deadline: UInt64
        var interval: UInt64?
        var referenced: Bool
        var generation: UInt64
    }

    private struct Entry {
        let deadline: UInt64
        let sequence: UInt64
        let id: Int
        let generation: UInt64
    }

    private var timers: [Int: Timer] = [:]
    private var heap: [Entry] = []
    private var sequence: UInt64 = 0
    /// How many live timers keep the process alive.
    private(set) var referencedCount = 0

    /// Schedules timer `id` after `delay` ns, repeating every `delay` when `repeats`.
    mutating func start(id: Int, delay: UInt64, repeats: Bool, now: UInt64) {
        cancel(id: id)
        sequence += 1
        let timer = Timer(
            deadline: now + delay, interval: repeats ? delay : nil, referenced: true, generation: sequence)
        timers[id] = timer
        referencedCount += 1
        push(Entry(deadline: timer.deadline, sequence: sequence, id: id, generation: sequence))
    }

    /// Removes timer `id` if it exists.
    mutating func cancel(id: Int) {
        guard let timer = timers.removeValue(forKey: id) else { return }
        if timer.referenced { referencedCount -= 1 }
    }

    /// Marks whether timer `id` keeps the process alive (`ref()` / `unref()`).
    mutating func setReferenced(id: Int, _ referenced: Bool) {
        guard var timer = timers[id], timer.referenced != referenced else { return }
        timer.referenced = referenced
        timers[id] = timer
        referencedCount += referenced ? 1 : -1
    }

    /// The earliest live deadline, if any.
    mutating func nextDeadline() -> UInt64? {
        dropStale()
        return heap.first?.deadline
    }

    /// Pops the next timer due at `now`; repeating timers are rescheduled from `now`.
    mutating func popDue(now: UInt64) -> Int? {
        dropStale()
        guard let top = heap.first, top.deadline <= now else { return nil }
        pop()
        guard var timer = timers[top.id] else { return nil }
        if let interval = timer.interval {
            sequence += 1
            timer.deadline = now + interval
            timer.generation = sequence
            timers[top.id] = timer
            push(Entry(deadline: timer.deadline, sequence: sequence, id: top.id, generation: sequence))
        } else {
            timers.removeValue(forKey: top.id)
            if timer.referenced { referencedCount -= 1 }
        }
        return top.id
    }

    private mutating func dropStale() {
        while let top = heap.first, timers[top.id]?.generation != top.generation { pop() }
    }

    private static func less(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, Self.less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

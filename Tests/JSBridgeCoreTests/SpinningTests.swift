import Testing

@testable import JSBridgeCore

/// The rule of ``Spinning``: a thread waiting for another's work spins only when the process may run on more
/// than one CPU.
@Suite struct SpinningTests {
    @Test func aProcessAllowedOneCPUNeverSpins() {
        #expect(!Spinning.pays(usableCPUs: 1))
    }

    @Test func aProcessAllowedSeveralCPUsSpins() {
        #expect(Spinning.pays(usableCPUs: 2))
        #expect(Spinning.pays(usableCPUs: 64))
    }

    @Test func anUnknownCountKeepsTheSpin() {
        #expect(Spinning.pays(usableCPUs: nil))
    }

    @Test func theAffinityMaskIsRead() throws {
        let count = try #require(Spinning.usableCPUs())
        #expect(count >= 1)
        #expect(Spinning.pays == Spinning.pays(usableCPUs: count))
    }

    /// A pool whose workers never spin still runs every job it is given (they sleep between jobs instead).
    @Test func aPoolThatNeverSpinsRunsItsJobs() async {
        let pool = ActionExecutor(threads: 2, spins: false)
        let sums = await withTaskGroup(of: Int.self) { group in
            for i in 0..<200 { group.addTask(executorPreference: pool) { i * 2 } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sums.sorted() == (0..<200).map { $0 * 2 })
    }
}

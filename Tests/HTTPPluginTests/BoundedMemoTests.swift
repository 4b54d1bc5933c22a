import HTTPPlugin
import JSBridgeBase
import Testing

@testable import HTTPCore

@Suite struct BoundedMemoTests {
    struct Failure: Error, Equatable {}

    @Test func remembersUpToItsCapacityThenStartsOver() {
        let memo = BoundedMemo<Int>(capacity: 2)
        let made = Locked(0)
        func value(_ key: String) -> Int {
            memo.value(for: key) {
                made.withLock { $0 += 1 }
                return key.count
            }
        }
        #expect(value("a") == 1)
        #expect(value("bb") == 2)
        #expect(value("a") == 1)
        #expect(made.withLock { $0 } == 2)
        #expect(value("ccc") == 3)  // full: everything forgotten, then "ccc" remembered
        #expect(value("a") == 1)
        #expect(made.withLock { $0 } == 4)
        #expect(value("ccc") == 3)
        #expect(made.withLock { $0 } == 4)
    }

    @Test func anErrorIsNotRemembered() throws {
        let memo = BoundedMemo<Int>()
        #expect(throws: Failure()) { try memo.value(for: "x") { () throws(Failure) -> Int in throw Failure() } }
        #expect(memo.value(for: "x") { 7 } == 7)
        #expect(memo.value(for: "x") { 8 } == 7)
    }
}

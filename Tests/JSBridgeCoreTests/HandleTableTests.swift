import Testing

@testable import JSBridgeBase

/// The one table of handles plugins lend to scripts.
@Suite struct HandleTableTests {
    @Test func handlesCountUpAndAreNeverReused() {
        let table = HandleTable<String>()
        let first = table.insert("a")
        let second = table.insert("b")
        #expect((first, second) == (1, 2))
        #expect(table.remove(first) == "a")
        #expect(table[first] == nil)
        #expect(table.insert("c") == 3)
        #expect(table.count == 2)
    }

    @Test func updateChangesInPlaceAndReportsAMissingHandle() {
        let table = HandleTable<Int>()
        let handle = table.insert(1)
        #expect(table.update(handle) { $0 += 41 })
        #expect(table[handle] == 42)
        #expect(!table.update(99) { $0 = 0 })
        #expect(table[99] == nil)
    }

    @Test func aLimitDropsTheOldestLiveEntries() {
        let table = HandleTable<Int>(limit: 3)
        let handles = (1...5).map { table.insert($0) }
        #expect(table.count == 3)
        #expect(table[handles[0]] == nil && table[handles[1]] == nil)
        #expect(table[handles[4]] == 5)
        // Removing one makes room; the next insert drops nothing.
        table.remove(handles[3])
        let next = table.insert(6)
        #expect(table.count == 3 && table[handles[2]] == 3 && table[next] == 6)
        #expect(Set(table.removeAll()) == [3, 5, 6])
        #expect(table.count == 0)
    }
}

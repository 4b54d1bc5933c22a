#if canImport(Glibc)
    import Glibc
#endif

/// Splits bytes read in chunks into lines (LF or CRLF), each byte scanned once, none longer than a cap: a
/// longer line is dropped — reported once, with its length so far — and reading goes on after its end. What gpsd
/// sends and what an NMEA file holds are read through it, so neither a missing newline nor a huge line can
/// grow memory or time without bound.
package struct LineSplitter {
    /// The longest line kept, in bytes (without its line break).
    package let maxLength: Int
    private var pending: [UInt8] = []
    /// Set while the bytes of a too-long line are being skipped up to its end.
    private var skipping = false

    package init(maxLength: Int) { self.maxLength = maxLength }

    /// Feeds `bytes`; calls `line` with each complete line, and `tooLong` with the length reached by a line
    /// over the cap (once per such line).
    package mutating func feed(
        _ bytes: some Collection<UInt8>, line: ([UInt8]) throws -> Void, tooLong: (Int) -> Void
    ) rethrows {
        try Array(bytes).withUnsafeBufferPointer { buffer in
            try feed(buffer, line: line, tooLong: tooLong)
        }
    }

    private mutating func feed(
        _ buffer: UnsafeBufferPointer<UInt8>, line: ([UInt8]) throws -> Void, tooLong: (Int) -> Void
    ) rethrows {
        guard let base = buffer.baseAddress else { return }
        var start = 0
        while start < buffer.count {
            // memchr: the search for the line break runs at memory speed, in any build.
            let found = memchr(base + start, 10, buffer.count - start)
            let end = found.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
            if !skipping {
                let count = end - start
                if pending.count + count > maxLength + 1 {  // + 1: a CR before the LF
                    tooLong(pending.count + count)
                    pending.removeAll(keepingCapacity: true)
                    skipping = true
                } else {
                    pending.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
                }
            }
            guard found != nil else { return }
            if skipping {
                skipping = false
            } else {
                try deliver(line: line, tooLong: tooLong)
            }
            pending.removeAll(keepingCapacity: true)
            start = end + 1
        }
    }

    /// The last line, when the input ended without a line break (`tooLong` when it is one byte over the cap;
    /// a longer one was reported while it was fed).
    package mutating func finish(line: ([UInt8]) throws -> Void, tooLong: (Int) -> Void = { _ in }) rethrows {
        defer { pending.removeAll() }
        if !skipping, !pending.isEmpty { try deliver(line: line, tooLong: tooLong) }
        skipping = false
    }

    /// Hands over the pending line without its CR. The cap on pending bytes leaves room for that CR, so a line
    /// of `maxLength + 1` bytes without one is too long here (reported like any other).
    private mutating func deliver(line: ([UInt8]) throws -> Void, tooLong: (Int) -> Void) rethrows {
        if pending.last == 13 { pending.removeLast() }
        if pending.count > maxLength {
            tooLong(pending.count)
        } else {
            try line(pending)
        }
    }
}

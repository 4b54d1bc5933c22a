/// Waits until `condition` holds and returns `true`, or returns `false` once `timeout` has passed.
///
/// For effects that land on another thread after the call under test returned: a cancelled task's clean-up,
/// a removed file, a stream the plugin opened. The default deadline is long because a loaded CI machine can
/// stall a thread for seconds; a passing test returns as soon as the condition holds.
///
///     #expect(await eventually { log.contains("cancelled") })
@discardableResult
public func eventually(
    timeout: Duration = .seconds(30), polling interval: Duration = .milliseconds(10),
    _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: interval)
    }
    return true
}

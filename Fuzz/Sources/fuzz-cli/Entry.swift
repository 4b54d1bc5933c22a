import FuzzTargets

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer's driver (SwiftPM names an executable's entry point itself, so libFuzzer's own `main` is not
/// used: this one hands over to the driver).
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs the `cli` fuzz target under libFuzzer (`fuzz-cli -help=1` lists libFuzzer's options).
@main enum FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(
            runDriver(&argc, &argv) { data, size in
                FuzzTarget.cli.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                return 0
            })
    }
}

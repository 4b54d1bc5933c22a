import CJavaScriptCore
import Foundation
import JSBridge
import JSBridgeBase
import JSBridgeWeb

/// The `node` engine extension: Node's globals (`process`, `Buffer`, `global`, and the error constructors with
/// Node's `stack`, `captureStackTrace` and `prepareStackTrace`) and built-in modules (`node:path`,
/// `node:events`, `node:util`, `node:os`, `node:buffer`, `node:timers`, `node:assert`, `node:url`,
/// `node:string_decoder`, `node:crypto`, `node:process`, `node:stream`, `node:readline`, `node:async_hooks`,
/// `node:diagnostics_channel`, `node:perf_hooks`, `node:console`, `node:constants`, `node:zlib`,
/// `node:child_process` behind the `run` capability, `node:vm`, `node:http`, `node:https`, `node:net` and
/// `node:dns` behind the `net` capability), with `process.on` for signals and `exit`, and
/// `process.stdin`. Plugins add modules of their own (`node:fs` is the FileSystem plugin's).
public enum NodeExtension {
    static let declaration = EngineExtension("node", requires: [.web], state: NodeState.init) { ext in
        ext.script(
            .lazy(
                "process.js", PackageResources.process_js, globals: ["process", "global"],
                internals: ["runExit", "process", "emitSignal"]))
        ext.script(
            .lazy(
                "node-builtins.js", PackageResources.node_builtins_js,
                internals: ["nodeBuiltin", "nodeExport", "nodeErrors"]))
        ext.script(
            .lazy(
                "node-errors.js", PackageResources.node_errors_js,
                globals: [
                    "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError",
                ],
                internals: ["nodeStack"]))
        ext.script(
            .lazy("node-buffer.js", PackageResources.node_buffer_js, globals: ["Buffer"], internals: ["Buffer"]))
        ext.script(.onDemand("node-crypto.js", PackageResources.node_crypto_js))
        ext.script(.onDemand("node-path.js", PackageResources.node_path_js))
        ext.script(.onDemand("node-events.js", PackageResources.node_events_js))
        ext.script(.onDemand("node-util.js", PackageResources.node_util_js))
        ext.script(.lazy("node-os.js", PackageResources.node_os_js, internals: ["archName"]))
        ext.script(.onDemand("node-timers.js", PackageResources.node_timers_js))
        ext.script(.onDemand("node-assert.js", PackageResources.node_assert_js))
        ext.script(.onDemand("node-url.js", PackageResources.node_url_js))
        ext.script(.onDemand("node-string-decoder.js", PackageResources.node_string_decoder_js))
        ext.script(.onDemand("node-process.js", PackageResources.node_process_js))
        ext.script(.onDemand("node-stdin.js", PackageResources.node_stdin_js))
        ext.script(.onDemand("node-hash.js", PackageResources.node_hash_js))
        ext.script(.onDemand("node-stream.js", PackageResources.node_stream_js))
        ext.script(.onDemand("node-async.js", PackageResources.node_async_js))
        ext.script(.onDemand("node-readline.js", PackageResources.node_readline_js))
        ext.script(.onDemand("node-zlib.js", PackageResources.node_zlib_js))
        ext.script(.onDemand("node-child-process.js", PackageResources.node_child_process_js))
        ext.script(.onDemand("node-vm.js", PackageResources.node_vm_js))
        ext.script(.onDemand("node-http.js", PackageResources.node_http_js))
        ext.script(.onDemand("node-net.js", PackageResources.node_net_js))
        ext.script(.onDemand("node-dns.js", PackageResources.node_dns_js))
        declareBufferNatives(&ext)
        declareProcessNatives(&ext)
        declareZlibNatives(&ext)
        declareChildProcessNatives(&ext)
        declareVMNatives(&ext)
        declareHTTPServerNatives(&ext)
        declareNetNatives(&ext)
        declareDNSNatives(&ext)
    }
}

extension EngineExtension {
    /// Node's globals and built-in modules (``NodeExtension``).
    public static var node: EngineExtension { NodeExtension.declaration }
}

/// The node extension's part of a run: stdin's reader, the zlib writes and name lookups on worker threads, the
/// child processes, the servers and sockets, and the hooks through which `process` hears the end of the run (its `exit` listeners) and signals (its
/// `process.on("SIGINT", …)` listeners).
final class NodeState {
    let host: ExtensionHost
    let zlibJobs = ZlibJobs()
    let children = ChildRegistry()
    let http: HTTPServers
    let net: NetSockets
    let dnsLookups = DNSLookups()
    /// Whether the reader thread runs (it is started once and reads until end of input).
    private var stdinStarted = false
    /// Whether the loop waits for stdin's data (JavaScript has a listener and has not paused).
    var stdinReferenced = false

    init(host: ExtensionHost) {
        self.host = host
        http = HTTPServers(host: host)
        net = NetSockets(host: host)
        host.keepAlive { [unowned self] in stdinReferenced }
        // A listening server not unref()'d, and a request waiting for its response.
        host.keepAlive { [http] in http.keepsAlive }
        host.onShutdown { [http] in http.closeAll() }
        // A listening server or an open socket not unref()'d, a connect not answered, a name being looked up.
        host.keepAlive { [net] in net.keepsAlive }
        host.onShutdown { [net] in net.closeAll() }
        host.keepAlive { [dnsLookups] in dnsLookups.pending }
        // A zlib write on a worker thread: the script awaits its output.
        host.keepAlive { [zlibJobs] in zlibJobs.pending }
        // A child process not unref()'d, until its 'close'.
        host.keepAlive { [children] in children.keepsAlive }
        host.onShutdown { [children] in children.killAll() }
        host.onRunEnd { [unowned self] code in runExit(code) }
        host.onSignal { [unowned self] signo in emitSignal(signo) }
    }

    /// Runs `process`'s exit listeners (if `process.js` ran); at the natural end (`code` nil), answers the
    /// exit code they leave in `process.exitCode`.
    private func runExit(_ code: Int32?) -> Int32? {
        guard let runExit = host.hook("runExit", definedBy: "process.js") else { return nil }
        let engine = host.engine
        let arguments = code.map { [JSValueMakeNumber(engine.context, Double($0))] } ?? []
        guard let result = host.callJS(runExit, arguments), code == nil, !host.isStopping else { return nil }
        return JSRuntime.exitCode(fromJS: JSValueToNumber(engine.context, result, nil))
    }

    /// Emits `signo` to `process`'s listeners; true when it had any (they took the signal).
    private func emitSignal(_ signo: Int32) -> Bool {
        let names: [Int32: String] = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGTSTP: "SIGTSTP", SIGCONT: "SIGCONT"]
        guard let name = names[signo], let emit = host.hook("emitSignal", definedBy: "process.js"),
            let result = host.callJS(emit, [host.engine.makeString(name)])
        else { return false }
        return JSValueToBoolean(host.engine.context, result)
    }

    /// Starts the thread that reads fd 0 to its end, posting each chunk to JavaScript as bytes.
    func startReadingStdin() {
        guard !stdinStarted else { return }
        stdinStarted = true
        let events = host.events
        let thread = Thread {
            while true {
                var count = 0
                let chunk = Bytes(capacity: 65536) { buffer in
                    count = read(0, buffer.baseAddress, buffer.count)
                    return max(0, count)
                }
                if count > 0 {
                    events.post(
                        "stdin", BridgeValue(["data": [:]], bytes: [ByteAttachment(path: [.key("data")], bytes: chunk)])
                    )
                    continue
                }
                if count < 0, errno == EINTR { continue }
                let payload: JSONValue =
                    count == 0 ? ["end": true] : ["error": .string(String(cString: strerror(errno)))]
                events.post("stdin", BridgeValue(payload))
                return
            }
        }
        thread.name = "jsbridge-stdin"
        thread.start()
    }
}

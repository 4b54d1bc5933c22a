// The inspector's C side (docs/debugging.md): the relay that JavaScriptCore's RemoteInspector connects to,
// serving the WebKit Inspector Protocol and the Chrome DevTools Protocol over WebSocket (relay.c), the CDP
// translation's context (cdp.c, running js/cdp.js), and the engine's undocumented steps, reached with dlsym so
// that a library without them means a clear message, never a crash (engine.c).
// No state in this header: it lives in the .c files.
#ifndef JSB_INSPECTOR_H
#define JSB_INSPECTOR_H

#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>
#include <stddef.h>

/// Looks up the library's inspector symbols; the name of the first one missing, or NULL when all are there.
const char *jsb_inspector_missing_symbol(void);

/// On the JS thread, before its engine starts: WTF's main thread is this one (its run loop is GLib's default
/// main context, which this thread then runs), the RemoteInspector connects to `relay_address`
/// ("127.0.0.1:port"), and the pause loop's poll waits instead of spinning. Call after
/// `jsb_inspector_missing_symbol` returned NULL.
void jsb_inspector_prepare_engine(const char *relay_address);

/// Marks `context` inspectable and starts the RemoteInspector (it connects to the relay).
void jsb_inspector_attach(JSGlobalContextRef context);

/// Runs GLib's default main context on the JS thread: every ready source, without waiting (`block` false), or
/// one iteration that waits for one (`block` true).
void jsb_inspector_pump(bool block);

/// Wakes a JS thread blocked in `jsb_inspector_pump(true)` (any thread).
void jsb_inspector_wake_pump(void);

/// Called on the relay thread after it forwarded a frontend's message to the engine: the JS thread should run
/// `jsb_inspector_pump(false)` soon.
typedef void (*jsb_inspector_waker)(void *context);

/// Marks a context of the inspector's own (cdp.c's) not inspectable, so it is no target.
void jsb_inspector_hide(JSGlobalContextRef context);

/// Whether a frontend asked for a pause since the last call (any thread; clears the request): the JS thread,
/// busy in JavaScript that does not return to its loop, then hands the engine its messages
/// (`jsb_inspector_pump`) from the engine's watchdog.
bool jsb_inspector_take_pause_request(void);

/// The CDP translation's source (js/cdp.js), copied; before `jsb_inspector_start`.
void jsb_cdp_set_source(const char *text);

/// Where a translated message goes: 'E' the engine (a WebKit message), 'F' the frontend (a CDP message).
typedef void (*jsb_cdp_emit)(char destination, const char *json);

/// Translates one message (inspector thread): `from` "frontend" (CDP) or "engine" (WebKit); `emit` gets each
/// message it makes, in order. False when the translation could not run (no source, an exception).
bool jsb_cdp_translate(const char *from, const char *json, jsb_cdp_emit emit);

/// Ends the translation's state (its session ended): the next session starts afresh.
void jsb_cdp_reset(void);

/// Starts the relay thread: a loopback listener for the RemoteInspector (its address in `relay_address`, of
/// `relay_address_size` bytes) and the HTTP/WebSocket endpoint on `host`:`port` (port 0: any). `mode`: 0
/// --inspect, 1 --inspect-wait, 2 --inspect-brk. 0 on success, else an errno (`message` says what failed).
int jsb_inspector_start(const char *host, int port, int mode, const char *title, const char *url,
                        const char *version, char *relay_address, size_t relay_address_size, char *message,
                        size_t message_size);

/// The WebSocket URL the endpoint serves (valid after `jsb_inspector_start`).
const char *jsb_inspector_websocket_url(void);

/// Sets the function the relay thread calls after each message it hands the engine.
void jsb_inspector_set_waker(jsb_inspector_waker waker, void *context);

/// Whether the run may go on (--inspect: always; --inspect-wait and --inspect-brk: once a frontend sent
/// `Inspector.initialized` or `Runtime.runIfWaitingForDebugger` — for --inspect-brk, once the engine has
/// answered the relay's breakpoint at the main script's first line — or the frontend left).
bool jsb_inspector_may_run(void);

#endif

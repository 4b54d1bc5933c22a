// What the host needs of JavaScriptCore beyond its shipped C API: two functions the library exports but
// whose headers are not installed (reached with dlsym, looked up once, with a fallback when missing), and
// the engine options it reads from the environment once, when the first engine starts.
#ifndef JSB_JAVASCRIPTCORE_EXTRAS_H
#define JSB_JAVASCRIPTCORE_EXTRAS_H

#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

/// Installs `function(promise, reason)` as the context's unhandled-rejection callback
/// (`JSGlobalContextSetUnhandledRejectionCallback`); false when the library lacks it.
bool jsb_set_unhandled_rejection_callback(JSGlobalContextRef context, JSObjectRef function);

/// Asked every `seconds` of uninterrupted JavaScript whether to terminate it.
typedef bool (*jsb_should_terminate_callback)(JSContextRef, void *);

/// Arms JavaScriptCore's watchdog (`JSContextGroupSetExecutionTimeLimit`): `callback` is asked every
/// `seconds` of uninterrupted JS execution whether to terminate it. False when the library lacks it.
bool jsb_set_execution_time_limit(JSContextGroupRef group, double seconds, jsb_should_terminate_callback callback,
                                  void *context);

/// Tunes JavaScriptCore for short-lived scripts, before its first use (it reads `JSC_*` variables once):
/// code tiers up to the FTL compiler after 10x the default warm-up, and traps are polled rather than
/// signalled (docs/architecture.md, "JIT tiers" and "Interrupting JavaScript"). A variable already set wins.
void jsb_tune_javascriptcore(void);

/// Signalled traps, for a process that runs one engine (the `jsbridge` CLI): its JIT code then carries no
/// polling checks (Benchmarks/README.md, "Polling traps"). Call before the first runtime; a variable already
/// set wins.
void jsb_prefer_signalled_traps(void);

#endif

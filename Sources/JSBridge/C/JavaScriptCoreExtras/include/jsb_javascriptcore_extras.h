// What the runtime needs of JavaScriptCore beyond its shipped C API: functions the library exports but whose
// headers are not installed (reached with dlsym, looked up once, with a fallback when missing), the engine
// options it reads from the environment once, when the first engine starts (javascriptcore_extras.c), and
// node:vm's contexts (contexts.c).
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

// MARK: - Contexts (node:vm)

/// A global object in a new context of `group` that is `sandbox` contextified, as node:vm's: reading a global
/// name gives `sandbox`'s property when it has one (else the context's own built-ins), and writing or deleting
/// one changes `sandbox`. The global keeps `sandbox` alive, and the context lives as long as the global is
/// reachable (where the library lacks `JSObjectGetGlobalContext`, for the run: the context is not released).
JSObjectRef jsb_vm_context_create(JSContextGroupRef group, JSObjectRef sandbox);

/// The context whose global object is `object`'s realm's (`JSObjectGetGlobalContext`), or NULL when the
/// library lacks it.
JSGlobalContextRef jsb_object_global_context(JSObjectRef object);

#endif

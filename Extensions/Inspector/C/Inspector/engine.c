// The engine's inspector steps that its C API does not ship (docs/debugging.md, "How it works"): exported C++
// symbols reached with dlsym (RTLD_DEFAULT), so a library without them means a message, never a crash at
// start-up; and GLib's default main context, which the JS thread runs for the RemoteInspector's socket.
#include "jsb_inspector.h"

#include <dlfcn.h>
#include <glib.h>
#include <stdint.h>

typedef void (*cstring_constructor)(void *self, const char *text);
typedef void (*set_server_address)(void *cstring_rvalue);
typedef void (*initialize_main_thread)(void);
typedef void (*set_inspectable)(JSGlobalContextRef, bool);
typedef void (*remote_inspector_start)(void);

static cstring_constructor make_cstring;
static set_server_address set_address;
static initialize_main_thread initialize_main;
static set_inspectable make_inspectable;
static remote_inspector_start start_inspector;

/// Whether the JS thread itself runs the context (its own pump), rather than the engine's pause loop.
static int host_pumping;
static GPollFunc default_poll;

const char *jsb_inspector_missing_symbol(void) {
    static const char *names[] = {
        "_ZN3WTF7CStringC1EPKc",
        "_ZN9Inspector15RemoteInspector25setInspectorServerAddressEON3WTF7CStringE",
        "_ZN3WTF20initializeMainThreadEv",
        "JSGlobalContextSetInspectable",
        "JSRemoteInspectorStart",
    };
    void *found[5];
    for (int i = 0; i < 5; i++) {
        found[i] = dlsym(RTLD_DEFAULT, names[i]);
        if (!found[i]) return names[i];
    }
    make_cstring = (cstring_constructor)found[0];
    set_address = (set_server_address)found[1];
    initialize_main = (initialize_main_thread)found[2];
    make_inspectable = (set_inspectable)found[3];
    start_inspector = (remote_inspector_start)found[4];
    return NULL;
}

/// The engine's pause loop iterates the context without waiting, in a loop: a poll that would not wait waits
/// up to 20 ms for the frontend's socket instead, so a paused script costs no CPU. The JS thread's own pumps
/// keep their timeouts.
static gint waiting_poll(GPollFD *fds, guint count, gint timeout) {
    // A pause inside a source the JS thread's pump dispatched (a frontend's evaluation) is the engine's too.
    if ((!host_pumping || g_main_depth() > 0) && timeout == 0) timeout = 20;
    return default_poll(fds, count, timeout);
}

void jsb_inspector_prepare_engine(const char *relay_address) {
    initialize_main();
    // A WTF::CString (one pointer: its buffer), moved into the inspector's static.
    struct {
        void *buffer;
    } address = {0};
    make_cstring(&address, relay_address);
    set_address(&address);
    GMainContext *context = g_main_context_default();
    default_poll = g_main_context_get_poll_func(context);
    g_main_context_set_poll_func(context, waiting_poll);
}

void jsb_inspector_attach(JSGlobalContextRef context) {
    make_inspectable(context, true);
    start_inspector();
}

void jsb_inspector_hide(JSGlobalContextRef context) {
    if (make_inspectable) make_inspectable(context, false);
}

void jsb_inspector_pump(bool block) {
    host_pumping = 1;
    if (block) {
        g_main_context_iteration(NULL, TRUE);
    }
    while (g_main_context_iteration(NULL, FALSE)) {
    }
    host_pumping = 0;
}

void jsb_inspector_wake_pump(void) { g_main_context_wakeup(NULL); }

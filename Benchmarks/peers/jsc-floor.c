/*
 * jsc-floor.c — the engine's floor for a synchronous JS -> native call.
 *
 * A bare JavaScriptCore context (C API, the same API jsbridge uses) with two
 * native functions made by JSObjectMakeFunctionWithCallback:
 *
 *   ping(n)                      -> n + 1   (the raw floor: one number in, one out)
 *   bridge.execSync(p, a, [n])   -> n + 1   (the same call shape as the jsbridge
 *                                            script: two string arguments, an args
 *                                            array allocated per call, element 0 read
 *                                            back in C; informational)
 *
 * and a native now() (CLOCK_MONOTONIC, ms as a double) standing in for
 * performance.now(). The JS loop below has the same shape as
 * Benchmarks/scripts/execsync.js: warm-up, then the best of RUNS runs of N calls.
 *
 * Build: gcc -O2 jsc-floor.c $(pkg-config --cflags --libs javascriptcoregtk-4.1)
 * Usage: jsc-floor [N] [RUNS]     prints one line of JSON.
 */
#include <JavaScriptCore/JavaScript.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static JSValueRef fn_now(JSContextRef ctx, JSObjectRef f, JSObjectRef self,
                         size_t argc, const JSValueRef argv[], JSValueRef *exc) {
    (void)f; (void)self; (void)argc; (void)argv; (void)exc;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return JSValueMakeNumber(ctx, (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6);
}

static JSValueRef fn_ping(JSContextRef ctx, JSObjectRef f, JSObjectRef self,
                          size_t argc, const JSValueRef argv[], JSValueRef *exc) {
    (void)f; (void)self;
    if (argc < 1) return JSValueMakeUndefined(ctx);
    double n = JSValueToNumber(ctx, argv[0], exc);
    return JSValueMakeNumber(ctx, n + 1);
}

/* execSync(plugin, action, [n]) -> n + 1. Checks that the arguments are strings and
 * that args is an object, like a dispatcher would, but does not look plugins up. */
static JSValueRef fn_exec_sync(JSContextRef ctx, JSObjectRef f, JSObjectRef self,
                               size_t argc, const JSValueRef argv[], JSValueRef *exc) {
    (void)f; (void)self;
    if (argc < 3 || !JSValueIsString(ctx, argv[0]) || !JSValueIsString(ctx, argv[1]) ||
        !JSValueIsObject(ctx, argv[2]))
        return JSValueMakeUndefined(ctx);
    JSObjectRef args = JSValueToObject(ctx, argv[2], exc);
    if (!args) return JSValueMakeUndefined(ctx);
    JSValueRef v = JSObjectGetPropertyAtIndex(ctx, args, 0, exc);
    double n = JSValueToNumber(ctx, v, exc);
    return JSValueMakeNumber(ctx, n + 1);
}

static void set_fn(JSContextRef ctx, JSObjectRef on, const char *name,
                   JSObjectCallAsFunctionCallback cb) {
    JSStringRef s = JSStringCreateWithUTF8CString(name);
    JSObjectRef fn = JSObjectMakeFunctionWithCallback(ctx, s, cb);
    JSObjectSetProperty(ctx, on, s, fn, kJSPropertyAttributeNone, NULL);
    JSStringRelease(s);
}

/* The loop: the same shape as Benchmarks/scripts/execsync.js. */
static const char *script =
    "function runRaw(N) {\n"
    "  let x = 0;\n"
    "  const t0 = now();\n"
    "  for (let i = 0; i < N; i++) x = ping(i);\n"
    "  const t1 = now();\n"
    "  if (x !== N) throw new Error('bad result ' + x);\n"
    "  return (t1 - t0) * 1e6 / N;\n"
    "}\n"
    "function runShape(N) {\n"
    "  let x = 0;\n"
    "  const t0 = now();\n"
    "  for (let i = 0; i < N; i++) x = bridge.execSync('Echo', 'ping', [i]);\n"
    "  const t1 = now();\n"
    "  if (x !== N) throw new Error('bad result ' + x);\n"
    "  return (t1 - t0) * 1e6 / N;\n"
    "}\n"
    "function best(run, N, RUNS) {\n"
    "  run(Math.min(N, 200000));\n" /* warm-up */
    "  let b = Infinity;\n"
    "  for (let r = 0; r < RUNS; r++) b = Math.min(b, run(N));\n"
    "  return b;\n"
    "}\n"
    "JSON.stringify({ nsPerCall: best(runRaw, N, RUNS), nsPerCallSameShape: best(runShape, N, RUNS),\n"
    "                 n: N, runs: RUNS })\n";

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    long runs = argc > 2 ? atol(argv[2]) : 5;
    if (n <= 0 || runs <= 0) { fprintf(stderr, "usage: jsc-floor [N] [RUNS]\n"); return 2; }

    JSGlobalContextRef ctx = JSGlobalContextCreate(NULL);
    JSObjectRef global = JSContextGetGlobalObject(ctx);
    set_fn(ctx, global, "now", fn_now);
    set_fn(ctx, global, "ping", fn_ping);
    JSObjectRef bridge = JSObjectMake(ctx, NULL, NULL);
    set_fn(ctx, bridge, "execSync", fn_exec_sync);
    JSStringRef bname = JSStringCreateWithUTF8CString("bridge");
    JSObjectSetProperty(ctx, global, bname, bridge, kJSPropertyAttributeNone, NULL);
    JSStringRelease(bname);

    char prelude[128];
    snprintf(prelude, sizeof prelude, "const N = %ld, RUNS = %ld;\n", n, runs);
    size_t len = strlen(prelude) + strlen(script) + 1;
    char *src = malloc(len);
    strcpy(src, prelude);
    strcat(src, script);

    JSStringRef code = JSStringCreateWithUTF8CString(src);
    JSValueRef exc = NULL;
    JSValueRef result = JSEvaluateScript(ctx, code, NULL, NULL, 1, &exc);
    JSStringRelease(code);
    free(src);

    JSValueRef out = result ? result : exc;
    JSStringRef str = JSValueToStringCopy(ctx, out, NULL);
    size_t cap = JSStringGetMaximumUTF8CStringSize(str);
    char *buf = malloc(cap);
    JSStringGetUTF8CString(str, buf, cap);
    JSStringRelease(str);
    if (!result) {
        fprintf(stderr, "jsc-floor: exception: %s\n", buf);
        free(buf);
        JSGlobalContextRelease(ctx);
        return 1;
    }
    printf("%s\n", buf);
    free(buf);
    JSGlobalContextRelease(ctx);
    return 0;
}

/*
 * echo.c — Node-API peer for `await bridge.call("Echo", "echo", {i})`.
 *
 * echo(obj) -> Promise<object equal to obj>
 *
 * What it does per call, mirroring what a plugin bridge does with one call
 * (jsbridge's wire format is a JSON string built in JS, see DESIGN.md §1):
 *   JS thread   JSON.stringify(obj) (the real global, called through napi),
 *               copy the UTF-8 string out of the engine into a malloc'd request,
 *               create a deferred promise and an async work item, queue it;
 *   libuv pool  execute(): the "plugin" — copies the request bytes into a fresh
 *               result buffer (the echo), nothing touches the engine;
 *   JS thread   complete(): make a JS string from the result, JSON.parse it (the
 *               real global) and resolve the promise with the new object; free.
 *
 * So both sides pay: one serialization, one string crossing into native code, a
 * hop to a worker thread and back (libuv coalesces completions through a single
 * uv_async per loop, like jsbridge's batched wake-up), one parse into a fresh
 * object and one promise resolution. The JS side of the benchmark passes the
 * object itself, exactly as a jsbridge script does.
 *
 * Build (no node-gyp needed; undefined napi_* symbols resolve against the node binary):
 *   gcc -O2 -shared -fPIC -I/usr/include/node echo.c -o echo.node
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    napi_ref json_stringify;
    napi_ref json_parse;
} addon_state;

typedef struct {
    napi_async_work work;
    napi_deferred deferred;
    char *request;
    size_t request_len;
    char *result;
    size_t result_len;
    addon_state *state;
} echo_call;

#define CHECK(env, expr)                                                     \
    do {                                                                     \
        if ((expr) != napi_ok) {                                             \
            napi_throw_error((env), NULL, "echo addon: " #expr " failed");   \
            return NULL;                                                     \
        }                                                                    \
    } while (0)

static void echo_execute(napi_env env, void *data) {
    (void)env; /* never touch the engine here: this runs on a libuv pool thread */
    echo_call *c = data;
    c->result = malloc(c->request_len + 1);
    if (c->result) {
        memcpy(c->result, c->request, c->request_len + 1);
        c->result_len = c->request_len;
    }
}

static void echo_complete(napi_env env, napi_status status, void *data) {
    echo_call *c = data;
    napi_value str, parse, global, parsed, err, msg;
    int ok = status == napi_ok && c->result != NULL;
    if (ok) {
        ok = napi_create_string_utf8(env, c->result, c->result_len, &str) == napi_ok &&
             napi_get_reference_value(env, c->state->json_parse, &parse) == napi_ok &&
             napi_get_global(env, &global) == napi_ok &&
             napi_call_function(env, global, parse, 1, &str, &parsed) == napi_ok;
    }
    if (ok) {
        napi_resolve_deferred(env, c->deferred, parsed);
    } else {
        bool pending = false;
        napi_is_exception_pending(env, &pending);
        if (pending) {
            napi_get_and_clear_last_exception(env, &err);
        } else {
            napi_create_string_utf8(env, "echo failed", NAPI_AUTO_LENGTH, &msg);
            napi_create_error(env, NULL, msg, &err);
        }
        napi_reject_deferred(env, c->deferred, err);
    }
    napi_delete_async_work(env, c->work);
    free(c->request);
    free(c->result);
    free(c);
}

static napi_value echo(napi_env env, napi_callback_info info) {
    size_t argc = 1;
    napi_value argv[1], global, stringify, json, promise, name;
    addon_state *state;
    CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, (void **)&state));
    if (argc < 1) {
        napi_throw_type_error(env, NULL, "echo(obj): one argument expected");
        return NULL;
    }
    CHECK(env, napi_get_global(env, &global));
    CHECK(env, napi_get_reference_value(env, state->json_stringify, &stringify));
    CHECK(env, napi_call_function(env, global, stringify, 1, argv, &json));

    size_t len = 0;
    CHECK(env, napi_get_value_string_utf8(env, json, NULL, 0, &len));
    echo_call *c = calloc(1, sizeof *c);
    if (!c || !(c->request = malloc(len + 1))) {
        free(c);
        napi_throw_error(env, NULL, "out of memory");
        return NULL;
    }
    CHECK(env, napi_get_value_string_utf8(env, json, c->request, len + 1, &c->request_len));
    c->state = state;

    CHECK(env, napi_create_promise(env, &c->deferred, &promise));
    CHECK(env, napi_create_string_utf8(env, "echo", NAPI_AUTO_LENGTH, &name));
    CHECK(env, napi_create_async_work(env, NULL, name, echo_execute, echo_complete, c, &c->work));
    CHECK(env, napi_queue_async_work(env, c->work));
    return promise;
}

static void state_finalize(napi_env env, void *data, void *hint) {
    (void)hint;
    addon_state *s = data;
    napi_delete_reference(env, s->json_stringify);
    napi_delete_reference(env, s->json_parse);
    free(s);
}

static napi_value init(napi_env env, napi_value exports) {
    napi_value global, json, stringify, parse, fn;
    addon_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    CHECK(env, napi_get_global(env, &global));
    CHECK(env, napi_get_named_property(env, global, "JSON", &json));
    CHECK(env, napi_get_named_property(env, json, "stringify", &stringify));
    CHECK(env, napi_get_named_property(env, json, "parse", &parse));
    CHECK(env, napi_create_reference(env, stringify, 1, &s->json_stringify));
    CHECK(env, napi_create_reference(env, parse, 1, &s->json_parse));
    CHECK(env, napi_set_instance_data(env, s, state_finalize, NULL));
    CHECK(env, napi_create_function(env, "echo", NAPI_AUTO_LENGTH, echo, s, &fn));
    CHECK(env, napi_set_named_property(env, exports, "echo", fn));
    return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)

// The inspector thread (docs/debugging.md, "How it works"). JavaScriptCore's RemoteInspector is a TCP client of
// a relay: framed GVariant messages (a 4-byte big-endian size, a flags byte, the name and a NUL, the GVariant
// data). It sends SetTargetList (a(tsssb)b) and SendMessageToFrontend (ts); it receives GetTargetList,
// Setup (t), SendMessageToTarget (ts) and FrontendDidClose (t). This thread is that relay, and it serves the
// debugger's side: HTTP (/json/version, /json/list) and one WebSocket session, either at ws://host:port/<uuid>,
// speaking the Chrome DevTools Protocol (translated by js/cdp.js, cdp.c), or at ws://host:port/<uuid>/webkit,
// whose text messages (the WebKit Inspector Protocol's JSON) it passes through.
#define _GNU_SOURCE
#include "jsb_inspector.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_CLIENTS 16
/// The ids of the relay's own commands to the engine (their answers are not the frontend's).
#define OWN_ID_ENABLE 2147480001
#define OWN_ID_PAUSE 2147480002
#define OWN_ID_DEFAULTS 2147480003

typedef struct {
    char *data;
    size_t length, capacity;
} buffer;

typedef struct {
    int fd;
    bool websocket;
    bool closing;
    bool cdp; // the session speaks the Chrome DevTools Protocol (translated), not the WebKit protocol
    buffer in;
    buffer message; // a fragmented WebSocket message being assembled
} client;

static struct {
    int mode;
    int relay_listener, engine, http_listener;
    buffer engine_in;
    unsigned char engine_flags;
    bool have_target;
    uint64_t target;
    bool session_set_up;
    int session; // index in clients of the WebSocket session, or -1
    client clients[MAX_CLIENTS];
    char uuid[40];
    char host[256];     // as given (for URLs)
    char url_host[300]; // host:port as it appears in URLs
    char websocket_url[400];
    char *title, *script_url, *version;
    jsb_inspector_waker waker;
    void *waker_context;
    pthread_mutex_t lock;
    atomic_bool may_run;
    char *start_breakpoint;   // --inspect-brk's breakpoint at the main script's first line, until hit
    int trace;                // JSB_INSPECTOR_DEBUG: the engine's messages on stderr (2: and every message)
    GPtrArray *early;         // the frontend's messages before its session was set up (the target not listed yet)
    bool paused;              // between the engine's Debugger.paused and Debugger.resumed
    bool breakpoints_active;  // as the frontend last set them (true after Debugger.enable)
    atomic_bool pause_requested; // a frontend's Debugger.pause, until the JS thread took it
} relay = {.relay_listener = -1, .engine = -1, .http_listener = -1, .session = -1,
           .lock = PTHREAD_MUTEX_INITIALIZER};

static void append(buffer *b, const void *data, size_t length) {
    if (b->length + length > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->length + length) capacity *= 2;
        b->data = realloc(b->data, capacity);
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, data, length);
    b->length += length;
}

static void consume(buffer *b, size_t count) {
    memmove(b->data, b->data + count, b->length - count);
    b->length -= count;
}

static void write_all(int fd, const void *data, size_t length) {
    const char *p = data;
    while (length > 0) {
        ssize_t n = send(fd, p, length, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) {
                struct pollfd w = {.fd = fd, .events = POLLOUT};
                poll(&w, 1, 1000);
                continue;
            }
            return;
        }
        p += n;
        length -= (size_t)n;
    }
}

// MARK: - The engine's side

static void wake_engine(void) {
    pthread_mutex_lock(&relay.lock);
    jsb_inspector_waker waker = relay.waker;
    void *context = relay.waker_context;
    pthread_mutex_unlock(&relay.lock);
    if (waker) waker(context);
    jsb_inspector_wake_pump();
}

static void send_to_engine(const char *name, GVariant *parameters) {
    if (relay.engine < 0) return;
    size_t name_length = strlen(name) + 1;
    gsize size = parameters ? g_variant_get_size(parameters) : 0;
    uint32_t body = htonl((uint32_t)(name_length + size));
    unsigned char header[5];
    memcpy(header, &body, 4);
    header[4] = relay.engine_flags;
    buffer frame = {0};
    append(&frame, header, 5);
    append(&frame, name, name_length);
    if (parameters) {
        g_variant_ref_sink(parameters);
        append(&frame, g_variant_get_data(parameters), size);
        g_variant_unref(parameters);
    }
    write_all(relay.engine, frame.data, frame.length);
    free(frame.data);
    wake_engine();
}

static void send_to_target(const char *json) {
    send_to_engine("SendMessageToTarget", g_variant_new("(ts)", (guint64)relay.target, json));
}

static void send_text_frame(int fd, const char *text, size_t length);
static void frontend_message(const char *json);

/// A message the translation (cdp.js) made: to the engine through the relay's own handling of WebKit
/// messages, or to the frontend.
static void cdp_emit(char destination, const char *json) {
    if (relay.trace > 1) fprintf(stderr, "[inspector] %s %s\n", destination == 'E' ? "cdp->engine" : "cdp->frontend", json);
    if (destination == 'E') {
        frontend_message(json);
    } else if (relay.session >= 0) {
        send_text_frame(relay.clients[relay.session].fd, json, strlen(json));
    }
}

/// The engine's message (WebKit protocol) to the session's frontend, translated when it speaks CDP.
static void to_frontend(const char *json) {
    if (relay.session < 0) return;
    if (relay.trace > 1) fprintf(stderr, "[inspector] engine %s\n", json);
    if (!relay.clients[relay.session].cdp) {
        send_text_frame(relay.clients[relay.session].fd, json, strlen(json));
    } else if (!jsb_cdp_translate("engine", json, cdp_emit)) {
        fprintf(stderr, "jsbridge: the inspector's CDP translation failed on the engine's message\n");
    }
}

static void set_up_session(void) {
    if (relay.session < 0 || !relay.have_target || relay.session_set_up) return;
    relay.session_set_up = true;
    send_to_engine("Setup", g_variant_new("(t)", (guint64)relay.target));
    if (relay.early) {
        GPtrArray *early = relay.early;
        relay.early = NULL;
        for (guint i = 0; i < early->len; i++) frontend_message(g_ptr_array_index(early, i));
        g_ptr_array_free(early, TRUE);
    }
}

/// After the frontend's `Debugger.enable`, Node's defaults, which JavaScriptCore's are not: breakpoints
/// active, `debugger;` statements pause, and the engine's own JavaScript (jsbridge:internal/…) is neither
/// stepped into nor paused in.
static void debugger_defaults(void) {
    relay.breakpoints_active = true;
    char command[256];
    snprintf(command, sizeof command,
             "{\"id\":%d,\"method\":\"Debugger.setBreakpointsActive\",\"params\":{\"active\":true}}",
             OWN_ID_DEFAULTS);
    send_to_target(command);
    snprintf(command, sizeof command,
             "{\"id\":%d,\"method\":\"Debugger.setPauseOnDebuggerStatements\",\"params\":{\"enabled\":true}}",
             OWN_ID_DEFAULTS);
    send_to_target(command);
    snprintf(command, sizeof command,
             "{\"id\":%d,\"method\":\"Debugger.setShouldBlackboxURL\",\"params\":{\"url\":\"^jsbridge:\","
             "\"shouldBlackbox\":true,\"isRegex\":true}}",
             OWN_ID_DEFAULTS);
    send_to_target(command);
}


/// Whether `json` answers one of the relay's own commands; starts the run once --inspect-brk's pause is set.
static bool is_own_answer(const char *json) {
    const char *id = strstr(json, "\"id\":2147480");
    if (!id) return false;
    long value = strtol(id + 5, NULL, 10);
    if (value < OWN_ID_ENABLE || value > OWN_ID_DEFAULTS) return false;
    if (value == OWN_ID_PAUSE) {
        // The breakpoint at the main script's first line (--inspect-brk), removed once hit.
        const char *breakpoint = strstr(json, "\"breakpointId\":\"");
        if (breakpoint) {
            breakpoint += 16;
            const char *end = strchr(breakpoint, '"');
            if (end) relay.start_breakpoint = g_strndup(breakpoint, (gsize)(end - breakpoint));
        }
        atomic_store(&relay.may_run, true);
        jsb_inspector_wake_pump();
    }
    return true;
}

/// A GVariant of `type` over a copy of the message body `data` (the receive buffer is reused), which the
/// variant owns: freed with its last reference.
static GVariant *variant_of(const char *type, const char *data, size_t size) {
    GBytes *bytes = g_bytes_new(data, size);
    GVariant *variant = g_variant_new_from_bytes(G_VARIANT_TYPE(type), bytes, FALSE);
    g_bytes_unref(bytes);
    return variant;
}

static void engine_message(const char *name, const char *data, size_t size) {
    if (relay.trace) fprintf(stderr, "[inspector] engine: %s (%zu bytes)\n", name, size);
    if (strcmp(name, "SetTargetList") == 0) {
        GVariant *list = variant_of("(a(tsssb)b)", data, size);
        if (relay.engine_flags != ((G_BYTE_ORDER == G_LITTLE_ENDIAN) ? 1 : 0)) {
            GVariant *swapped = g_variant_byteswap(list);
            g_variant_unref(list);
            list = swapped;
        }
        GVariantIter *targets;
        gboolean remote;
        g_variant_get(list, "(a(tsssb)b)", &targets, &remote);
        guint64 id;
        const char *type, *target_name, *url;
        gboolean local;
        relay.have_target = false;
        while (g_variant_iter_next(targets, "(t&s&s&sb)", &id, &type, &target_name, &url, &local)) {
            if (relay.trace)
                fprintf(stderr, "[inspector] target %llu %s '%s' '%s'\n", (unsigned long long)id, type, target_name, url);
            // The first target, or the one already set up if it is still listed.
            if (!relay.have_target || id == relay.target) {
                if (relay.target != id) relay.session_set_up = false;
                relay.have_target = true;
                relay.target = id;
            }
        }
        g_variant_iter_free(targets);
        g_variant_unref(list);
        set_up_session();
    } else if (strcmp(name, "SendMessageToFrontend") == 0) {
        GVariant *message = variant_of("(ts)", data, size);
        guint64 id;
        const char *json;
        g_variant_get(message, "(t&s)", &id, &json);
        if (strncmp(json, "{\"method\":\"Debugger.paused\"", 27) == 0) relay.paused = true;
        if (strncmp(json, "{\"method\":\"Debugger.resumed\"", 28) == 0) relay.paused = false;
        if (relay.start_breakpoint && strstr(json, relay.start_breakpoint)) {
            if (strncmp(json, "{\"method\":\"Debugger.breakpointResolved\"", 37) == 0) {
                g_variant_unref(message);
                return; // not the frontend's breakpoint
            }
            if (relay.paused) {
                char *command = g_strdup_printf(
                    "{\"id\":%d,\"method\":\"Debugger.removeBreakpoint\",\"params\":{\"breakpointId\":\"%s\"}}",
                    OWN_ID_DEFAULTS, relay.start_breakpoint);
                send_to_target(command);
                g_free(command);
                g_free(relay.start_breakpoint);
                relay.start_breakpoint = NULL;
            }
        }
        if (!is_own_answer(json) && id == relay.target) to_frontend(json);
        g_variant_unref(message);
    }
}

static void read_engine(void) {
    char chunk[65536];
    ssize_t n = recv(relay.engine, chunk, sizeof chunk, 0);
    if (n <= 0) {
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
        close(relay.engine);
        relay.engine = -1;
        relay.have_target = false;
        return;
    }
    append(&relay.engine_in, chunk, (size_t)n);
    while (relay.engine_in.length >= 5) {
        uint32_t body;
        memcpy(&body, relay.engine_in.data, 4);
        body = ntohl(body);
        if (relay.engine_in.length < 5 + (size_t)body) break;
        relay.engine_flags = (unsigned char)relay.engine_in.data[4];
        const char *name = relay.engine_in.data + 5;
        size_t name_length = strnlen(name, body);
        if (name_length < body) engine_message(name, name + name_length + 1, body - name_length - 1);
        consume(&relay.engine_in, 5 + (size_t)body);
    }
}

// MARK: - HTTP and WebSocket

static void send_text_frame(int fd, const char *text, size_t length) {
    unsigned char header[10];
    size_t header_length;
    header[0] = 0x81;
    if (length < 126) {
        header[1] = (unsigned char)length;
        header_length = 2;
    } else if (length < 65536) {
        header[1] = 126;
        header[2] = (unsigned char)(length >> 8);
        header[3] = (unsigned char)length;
        header_length = 4;
    } else {
        header[1] = 127;
        for (int i = 0; i < 8; i++) header[2 + i] = (unsigned char)((uint64_t)length >> (56 - 8 * i));
        header_length = 10;
    }
    buffer frame = {0};
    append(&frame, header, header_length);
    append(&frame, text, length);
    write_all(fd, frame.data, frame.length);
    free(frame.data);
}

static void respond(client *c, const char *status, const char *type, const char *body) {
    char header[512];
    snprintf(header, sizeof header,
             "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-cache\r\n"
             "Connection: close\r\n\r\n",
             status, type, strlen(body));
    write_all(c->fd, header, strlen(header));
    write_all(c->fd, body, strlen(body));
    c->closing = true;
}

/// A request header's value (`name` without the colon), copied into `out`; false when absent.
static bool header_value(const char *request, const char *name, char *out, size_t size) {
    size_t name_length = strlen(name);
    const char *line = strstr(request, "\r\n");
    while (line && line[2] != '\r') {
        line += 2;
        if (strncasecmp(line, name, name_length) == 0 && line[name_length] == ':') {
            const char *value = line + name_length + 1;
            while (*value == ' ' || *value == '\t') value++;
            const char *end = strstr(value, "\r\n");
            size_t length = (size_t)(end - value);
            while (length > 0 && (value[length - 1] == ' ' || value[length - 1] == '\t')) length--;
            if (length >= size) length = size - 1;
            memcpy(out, value, length);
            out[length] = 0;
            return true;
        }
        line = strstr(line, "\r\n");
    }
    return false;
}

/// Whether `host` (a Host header's value, or an Origin's host, with any port) names this machine's loopback
/// or is an IP address: a DNS name other than localhost could be rebound to us (Node's CVE-2018-7160).
static bool is_safe_host(const char *host) {
    char name[300];
    snprintf(name, sizeof name, "%s", host);
    if (name[0] == '[') {
        char *end = strchr(name, ']');
        if (!end) return false;
        *end = 0;
        struct in6_addr v6;
        return inet_pton(AF_INET6, name + 1, &v6) == 1;
    }
    char *colon = strrchr(name, ':');
    if (colon) *colon = 0;
    if (strcasecmp(name, "localhost") == 0) return true;
    struct in_addr v4;
    return inet_pton(AF_INET, name, &v4) == 1;
}

/// Whether a WebSocket's Origin may connect: none (a command-line client), a local page, or DevTools.
static bool is_safe_origin(const char *origin) {
    if (strncmp(origin, "devtools://", 11) == 0) return true;
    const char *host = strstr(origin, "://");
    if (!host) return false;
    host += 3;
    char name[300];
    snprintf(name, sizeof name, "%s", host);
    char *slash = strchr(name, '/');
    if (slash) *slash = 0;
    char *bracket = strchr(name, ']');
    char *colon = strrchr(bracket ? bracket : name, ':');
    if (colon) *colon = 0;
    return strcasecmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0 || strcmp(name, "[::1]") == 0;
}

static char *json_escape(const char *text) {
    GString *out = g_string_new(NULL);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\') {
            g_string_append_c(out, '\\');
            g_string_append_c(out, (char)*p);
        } else if (*p < 0x20) {
            g_string_append_printf(out, "\\u%04x", *p);
        } else {
            g_string_append_c(out, (char)*p);
        }
    }
    return g_string_free(out, FALSE);
}

static void serve_list(client *c) {
    char *title = json_escape(relay.title), *url = json_escape(relay.script_url);
    char *body = g_strdup_printf(
        "[ {\n  \"description\": \"jsbridge instance\",\n"
        "  \"devtoolsFrontendUrl\": \"devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=%s/%s\",\n"
        "  \"devtoolsFrontendUrlCompat\": \"devtools://devtools/bundled/inspector.html?experiments=true&v8only=true&ws=%s/%s\",\n"
        "  \"faviconUrl\": \"https://nodejs.org/static/images/favicons/favicon.ico\",\n"
        "  \"id\": \"%s\",\n  \"title\": \"%s\",\n  \"type\": \"node\",\n  \"url\": \"%s\",\n"
        "  \"webSocketDebuggerUrl\": \"%s\"\n} ]\n",
        relay.url_host, relay.uuid, relay.url_host, relay.uuid, relay.uuid, title, url, relay.websocket_url);
    respond(c, "200 OK", "application/json; charset=UTF-8", body);
    g_free(body);
    g_free(title);
    g_free(url);
}

static void upgrade(client *c, int index, const char *request) {
    char key[128], origin[512];
    if (!header_value(request, "Sec-WebSocket-Key", key, sizeof key)) {
        respond(c, "400 Bad Request", "text/plain", "WebSocket upgrade expected\n");
        return;
    }
    if (header_value(request, "Origin", origin, sizeof origin) && !is_safe_origin(origin)) {
        respond(c, "403 Forbidden", "text/plain", "Origin not allowed\n");
        return;
    }
    if (relay.session >= 0) {
        respond(c, "409 Conflict", "text/plain", "A debugger is already attached\n");
        return;
    }
    char *keyed = g_strconcat(key, "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", NULL);
    GChecksum *sha1 = g_checksum_new(G_CHECKSUM_SHA1);
    g_checksum_update(sha1, (const guchar *)keyed, (gssize)strlen(keyed));
    guint8 digest[20];
    gsize digest_length = sizeof digest;
    g_checksum_get_digest(sha1, digest, &digest_length);
    g_checksum_free(sha1);
    g_free(keyed);
    char *accept = g_base64_encode(digest, digest_length);
    char response[512];
    snprintf(response, sizeof response,
             "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Accept: %s\r\n\r\n",
             accept);
    g_free(accept);
    write_all(c->fd, response, strlen(response));
    c->websocket = true;
    relay.session = index;
    relay.session_set_up = false;
    if (relay.engine >= 0 && !relay.have_target) send_to_engine("GetTargetList", NULL);
    set_up_session();
}

/// Handles one complete request in `c->in` (its headers end at `end`).
static void http_request(client *c, int index, size_t end) {
    char *request = g_strndup(c->in.data, end);
    consume(&c->in, end);
    char method[16] = {0}, path[1024] = {0}, host[300];
    sscanf(request, "%15s %1023s", method, path);
    if (!header_value(request, "Host", host, sizeof host) || !is_safe_host(host)) {
        respond(c, "403 Forbidden", "text/plain",
                "Host header is not an IP address or localhost: refused (DNS rebinding)\n");
    } else if (strcmp(method, "GET") != 0) {
        respond(c, "405 Method Not Allowed", "text/plain", "GET only\n");
    } else if (strcmp(path, "/json") == 0 || strcmp(path, "/json/list") == 0 || strcmp(path, "/json/list/") == 0) {
        serve_list(c);
    } else if (strcmp(path, "/json/version") == 0) {
        char *version = json_escape(relay.version);
        char *body = g_strdup_printf("{\n  \"Browser\": \"jsbridge/%s\",\n  \"Protocol-Version\": \"1.1\"\n}\n",
                                     version);
        respond(c, "200 OK", "application/json; charset=UTF-8", body);
        g_free(body);
        g_free(version);
    } else if (path[0] == '/' && strncmp(path + 1, relay.uuid, strlen(relay.uuid)) == 0 &&
               (path[1 + strlen(relay.uuid)] == 0 || strcmp(path + 1 + strlen(relay.uuid), "/webkit") == 0)) {
        c->cdp = path[1 + strlen(relay.uuid)] == 0;
        upgrade(c, index, request);
    } else {
        respond(c, "404 Not Found", "text/plain", "Not found\n");
    }
    g_free(request);
}

static bool is_evaluation(const char *json) {
    static const char *methods[] = {"\"Runtime.evaluate\"", "\"Runtime.callFunctionOn\"", "\"Runtime.getProperties\"",
                                    "\"Runtime.getDisplayableProperties\"", "\"Runtime.getCollectionEntries\"",
                                    "\"Runtime.getPreview\"", "\"Runtime.awaitPromise\""};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (strstr(json, methods[i])) return true;
    return false;
}

static void breakpoints(bool active) {
    char command[128];
    snprintf(command, sizeof command,
             "{\"id\":%d,\"method\":\"Debugger.setBreakpointsActive\",\"params\":{\"active\":%s}}",
             OWN_ID_DEFAULTS, active ? "true" : "false");
    send_to_target(command);
}

/// A frontend's WebKit message (a CDP frontend's, translated) on its way to the engine: `Inspector.initialized`
/// (CDP's `Runtime.runIfWaitingForDebugger`) lets a waiting run go (--inspect-wait); for --inspect-brk, only once
/// the engine has answered the relay's breakpoint at the main script's first line (OWN_ID_PAUSE).
static void frontend_message(const char *json) {
    bool initialized = strstr(json, "\"Inspector.initialized\"") != NULL;
    if (strstr(json, "\"Debugger.pause\"")) atomic_store(&relay.pause_requested, true);
    if (!relay.session_set_up) {
        if (!relay.early) relay.early = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(relay.early, g_strdup(json));
        return;
    } else {
        if (strstr(json, "\"Debugger.setBreakpointsActive\""))
            relay.breakpoints_active = strstr(json, "\"active\":false") == NULL;
        // A pause inside an evaluation the frontend asked for would never end: the engine's pause loop does not
        // read the socket whose message it is still handling. So breakpoints are off while one runs (not
        // paused: a paused engine does not pause again), and back on with the next message.
        bool evaluation = !relay.paused && relay.breakpoints_active && is_evaluation(json);
        if (evaluation) breakpoints(false);
        send_to_target(json);
        if (evaluation) breakpoints(true);
        if (strstr(json, "\"Debugger.enable\"")) debugger_defaults();
    }
    if (initialized && !atomic_load(&relay.may_run)) {
        if (relay.mode == 2) {
            char command[128];
            snprintf(command, sizeof command, "{\"id\":%d,\"method\":\"Debugger.enable\"}", OWN_ID_ENABLE);
            send_to_target(command);
            debugger_defaults();
            // The main script's URL in the engine: its path (a file), `[eval]` (-e code); a REPL has none.
            const char *main_url = strncmp(relay.script_url, "file://", 7) == 0 ? relay.script_url + 7
                                   : strcmp(relay.script_url, "[eval]") == 0   ? relay.script_url
                                                                                : NULL;
            if (main_url) {
                // A breakpoint at the main script's first line: its first statement, whatever runs before it.
                char *escaped = json_escape(main_url);
                char *breakpoint = g_strdup_printf(
                    "{\"id\":%d,\"method\":\"Debugger.setBreakpointByUrl\",\"params\":{\"url\":\"%s\",\"lineNumber\":0}}",
                    OWN_ID_PAUSE, escaped);
                send_to_target(breakpoint);
                g_free(breakpoint);
                g_free(escaped);
            } else {
                snprintf(command, sizeof command, "{\"id\":%d,\"method\":\"Debugger.pause\"}", OWN_ID_PAUSE);
                send_to_target(command);
            }
        } else {
            atomic_store(&relay.may_run, true);
            jsb_inspector_wake_pump();
        }
    }
}

static void close_client(int index) {
    client *c = &relay.clients[index];
    if (relay.session == index) {
        relay.session = -1;
        if (relay.session_set_up && relay.have_target)
            send_to_engine("FrontendDidClose", g_variant_new("(t)", (guint64)relay.target));
        relay.session_set_up = false;
        if (relay.clients[index].cdp) jsb_cdp_reset();
        if (relay.early) {
            g_ptr_array_free(relay.early, TRUE);
            relay.early = NULL;
        }
        // A run waiting for a debugger that left goes on.
        if (!atomic_load(&relay.may_run)) {
            atomic_store(&relay.may_run, true);
            jsb_inspector_wake_pump();
        }
    }
    close(c->fd);
    free(c->in.data);
    free(c->message.data);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

/// Reads the WebSocket frames in `c->in`; false when the connection ends.
static bool websocket_frames(client *c) {
    while (c->in.length >= 2) {
        unsigned char *p = (unsigned char *)c->in.data;
        bool fin = p[0] & 0x80;
        int opcode = p[0] & 0x0f;
        bool masked = p[1] & 0x80;
        uint64_t length = p[1] & 0x7f;
        size_t offset = 2;
        if (length == 126) {
            if (c->in.length < 4) return true;
            length = ((uint64_t)p[2] << 8) | p[3];
            offset = 4;
        } else if (length == 127) {
            if (c->in.length < 10) return true;
            length = 0;
            for (int i = 0; i < 8; i++) length = (length << 8) | p[2 + i];
            offset = 10;
        }
        if (!masked || length > (256u << 20)) return false; // clients must mask (RFC 6455 5.1)
        if (c->in.length < offset + 4 + length) return true;
        unsigned char *mask = p + offset;
        unsigned char *payload = p + offset + 4;
        for (uint64_t i = 0; i < length; i++) payload[i] ^= mask[i % 4];
        if (opcode == 8) {
            unsigned char close_frame[2] = {0x88, 0};
            write_all(c->fd, close_frame, 2);
            return false;
        } else if (opcode == 9) {
            unsigned char header[2] = {0x8a, (unsigned char)(length < 126 ? length : 0)};
            write_all(c->fd, header, 2);
            if (length < 126) write_all(c->fd, payload, length);
        } else if (opcode == 0 || opcode == 1 || opcode == 2) {
            append(&c->message, payload, length);
            if (fin) {
                append(&c->message, "", 1);
                if (relay.trace > 1) fprintf(stderr, "[inspector] frontend %s\n", c->message.data);
                if (!c->cdp) {
                    frontend_message(c->message.data);
                } else if (!jsb_cdp_translate("frontend", c->message.data, cdp_emit)) {
                    fprintf(stderr, "jsbridge: the inspector's CDP translation failed on a frontend's message\n");
                }
                c->message.length = 0;
            }
        }
        consume(&c->in, offset + 4 + length);
    }
    return true;
}

static void read_client(int index) {
    client *c = &relay.clients[index];
    char chunk[65536];
    ssize_t n = recv(c->fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
        close_client(index);
        return;
    }
    append(&c->in, chunk, (size_t)n);
    if (c->websocket) {
        if (!websocket_frames(c)) close_client(index);
        return;
    }
    if (c->in.length > 65536) {
        close_client(index);
        return;
    }
    append(&c->in, "", 1);
    c->in.length--;
    char *end = strstr(c->in.data, "\r\n\r\n");
    if (end) {
        http_request(c, index, (size_t)(end - c->in.data) + 4);
        if (c->closing) close_client(index);
    }
}

static void *relay_thread(void *unused) {
    (void)unused;
    for (;;) {
        struct pollfd fds[3 + MAX_CLIENTS];
        int owners[3 + MAX_CLIENTS];
        nfds_t count = 0;
        fds[count] = (struct pollfd){.fd = relay.relay_listener, .events = POLLIN};
        owners[count++] = -1;
        fds[count] = (struct pollfd){.fd = relay.http_listener, .events = POLLIN};
        owners[count++] = -2;
        if (relay.engine >= 0) {
            fds[count] = (struct pollfd){.fd = relay.engine, .events = POLLIN};
            owners[count++] = -3;
        }
        for (int i = 0; i < MAX_CLIENTS; i++) {
            if (relay.clients[i].fd > 0) {
                fds[count] = (struct pollfd){.fd = relay.clients[i].fd, .events = POLLIN};
                owners[count++] = i;
            }
        }
        if (poll(fds, count, -1) < 0) continue;
        for (nfds_t i = 0; i < count; i++) {
            if (!fds[i].revents) continue;
            if (owners[i] == -1) {
                // The engine's one connection: the listener closes then, so no other local process can take
                // the engine's place.
                int fd = accept(relay.relay_listener, NULL, NULL);
                if (fd >= 0) {
                    relay.engine = fd;
                    close(relay.relay_listener);
                    relay.relay_listener = -1;
                }
            } else if (owners[i] == -2) {
                int fd = accept(relay.http_listener, NULL, NULL);
                if (fd < 0) continue;
                int slot = -1;
                for (int j = 0; j < MAX_CLIENTS; j++)
                    if (relay.clients[j].fd <= 0) {
                        slot = j;
                        break;
                    }
                if (slot < 0) {
                    close(fd);
                    continue;
                }
                relay.clients[slot] = (client){.fd = fd};
            } else if (owners[i] == -3) {
                if (relay.engine >= 0) read_engine();
            } else if (relay.clients[owners[i]].fd > 0) {
                read_client(owners[i]);
            }
        }
    }
    return NULL;
}

static int listen_on(const char *host, int port, struct sockaddr_storage *bound, char *message, size_t size) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *found;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int status = getaddrinfo(host, service, &hints, &found);
    if (status != 0) {
        snprintf(message, size, "cannot resolve '%s': %s", host, gai_strerror(status));
        return -1;
    }
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, found->ai_addr, found->ai_addrlen) < 0 || listen(fd, 16) < 0) {
        int error = errno;
        snprintf(message, size, "cannot listen on %s:%d: %s", host, port, strerror(error));
        if (fd >= 0) close(fd);
        freeaddrinfo(found);
        errno = error;
        return -1;
    }
    socklen_t length = sizeof *bound;
    getsockname(fd, (struct sockaddr *)bound, &length);
    freeaddrinfo(found);
    return fd;
}

int jsb_inspector_start(const char *host, int port, int mode, const char *title, const char *url,
                        const char *version, char *relay_address, size_t relay_address_size, char *message,
                        size_t message_size) {
    struct sockaddr_storage bound;
    relay.relay_listener = listen_on("127.0.0.1", 0, &bound, message, message_size);
    if (relay.relay_listener < 0) return errno ? errno : EINVAL;
    snprintf(relay_address, relay_address_size, "127.0.0.1:%d", ntohs(((struct sockaddr_in *)&bound)->sin_port));
    relay.http_listener = listen_on(host, port, &bound, message, message_size);
    if (relay.http_listener < 0) return errno ? errno : EINVAL;
    int bound_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                        : ((struct sockaddr_in *)&bound)->sin_port);
    relay.mode = mode;
    const char *trace = getenv("JSB_INSPECTOR_DEBUG");
    relay.trace = trace ? (strcmp(trace, "2") == 0 ? 2 : 1) : 0;
    atomic_store(&relay.may_run, mode == 0);
    char *uuid = g_uuid_string_random(); // 122 random bits
    snprintf(relay.uuid, sizeof relay.uuid, "%s", uuid);
    g_free(uuid);
    bool v6 = strchr(host, ':') != NULL;
    snprintf(relay.url_host, sizeof relay.url_host, v6 ? "[%s]:%d" : "%s:%d", host, bound_port);
    snprintf(relay.websocket_url, sizeof relay.websocket_url, "ws://%s/%s", relay.url_host, relay.uuid);
    relay.title = strdup(title);
    relay.script_url = strdup(url);
    relay.version = strdup(version);
    for (int i = 0; i < MAX_CLIENTS; i++) relay.clients[i].fd = -1;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    int status = pthread_create(&thread, &attributes, relay_thread, NULL);
    pthread_attr_destroy(&attributes);
    if (status == 0) pthread_setname_np(thread, "jsb-inspector");
    if (status != 0) snprintf(message, message_size, "cannot start the inspector thread: %s", strerror(status));
    return status;
}

const char *jsb_inspector_websocket_url(void) { return relay.websocket_url; }

void jsb_inspector_set_waker(jsb_inspector_waker waker, void *context) {
    pthread_mutex_lock(&relay.lock);
    relay.waker = waker;
    relay.waker_context = context;
    pthread_mutex_unlock(&relay.lock);
}

bool jsb_inspector_may_run(void) { return atomic_load(&relay.may_run); }

bool jsb_inspector_take_pause_request(void) { return atomic_exchange(&relay.pause_requested, false); }

// The Chrome DevTools Protocol translation's home on the inspector thread (docs/debugging.md, "Chrome DevTools
// Protocol"): Extensions/Inspector/js/cdp.js, run in a JavaScriptCore context of its own, made on the inspector
// thread when the first CDP session starts (a run without one never makes it) and never inspectable itself.
#include "jsb_inspector.h"

#include <stdlib.h>
#include <string.h>

static char *source;
static JSGlobalContextRef context;
static JSObjectRef translate;

void jsb_cdp_set_source(const char *text) {
    free(source);
    source = text ? strdup(text) : NULL;
}

/// Makes the context and evaluates cdp.js in it; false (and `translate` NULL) when that failed.
static bool prepare(void) {
    if (translate) return true;
    if (!source) return false;
    context = JSGlobalContextCreate(NULL);
    jsb_inspector_hide(context);
    JSStringRef script = JSStringCreateWithUTF8CString(source);
    JSStringRef url = JSStringCreateWithUTF8CString("jsbridge:internal/inspector/cdp.js");
    JSValueRef exception = NULL;
    JSEvaluateScript(context, script, NULL, url, 1, &exception);
    JSStringRelease(script);
    JSStringRelease(url);
    JSStringRef name = JSStringCreateWithUTF8CString("translate");
    JSValueRef function = JSObjectGetProperty(context, JSContextGetGlobalObject(context), name, NULL);
    JSStringRelease(name);
    if (exception || !JSValueIsObject(context, function)) return false;
    translate = (JSObjectRef)function;
    JSValueProtect(context, translate);
    return true;
}

void jsb_cdp_reset(void) {
    if (!context) return;
    JSValueUnprotect(context, translate);
    JSGlobalContextRelease(context);
    context = NULL;
    translate = NULL;
}

static char *utf8(JSStringRef string) {
    size_t size = JSStringGetMaximumUTF8CStringSize(string);
    char *text = malloc(size);
    JSStringGetUTF8CString(string, text, size);
    return text;
}

bool jsb_cdp_translate(const char *from, const char *json, jsb_cdp_emit emit) {
    if (!prepare()) return false;
    JSStringRef from_string = JSStringCreateWithUTF8CString(from);
    JSStringRef json_string = JSStringCreateWithUTF8CString(json);
    JSValueRef arguments[2] = {JSValueMakeString(context, from_string), JSValueMakeString(context, json_string)};
    JSStringRelease(from_string);
    JSStringRelease(json_string);
    JSValueRef exception = NULL;
    JSValueRef result = JSObjectCallAsFunction(context, translate, NULL, 2, arguments, &exception);
    if (exception || !JSValueIsObject(context, result)) return false;
    JSObjectRef list = (JSObjectRef)result;
    JSStringRef length_name = JSStringCreateWithUTF8CString("length");
    unsigned length = (unsigned)JSValueToNumber(context, JSObjectGetProperty(context, list, length_name, NULL), NULL);
    JSStringRelease(length_name);
    // Copied out first: `emit` may translate again (the relay's answers), which replaces the list.
    char **messages = calloc(length ? length : 1, sizeof *messages);
    for (unsigned i = 0; i < length; i++) {
        JSStringRef text = JSValueToStringCopy(context, JSObjectGetPropertyAtIndex(context, list, i, NULL), NULL);
        messages[i] = utf8(text);
        JSStringRelease(text);
    }
    for (unsigned i = 0; i < length; i++) {
        if (messages[i][0]) emit(messages[i][0], messages[i] + 1);
        free(messages[i]);
    }
    free(messages);
    return true;
}

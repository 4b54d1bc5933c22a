// node:vm's contexts (include/jsb_javascriptcore_extras.h, "Contexts"): a global object class whose property
// callbacks answer from the contextified object first, and the context of an object's realm.
#include "jsb_javascriptcore_extras.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

typedef JSGlobalContextRef (*object_global_context_fn)(JSObjectRef);

static JSClassRef vm_global_class;
static object_global_context_fn object_global_context;
static pthread_once_t made = PTHREAD_ONCE_INIT;

/// The contextified object a global forwards to (its private data; kept alive by a property of the global).
static JSObjectRef sandbox_of(JSObjectRef global) { return (JSObjectRef)JSObjectGetPrivate(global); }

static bool vm_has(JSContextRef ctx, JSObjectRef object, JSStringRef name) {
    JSObjectRef sandbox = sandbox_of(object);
    return sandbox && JSObjectHasProperty(ctx, sandbox, name);
}

static JSValueRef vm_get(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef *exception) {
    JSObjectRef sandbox = sandbox_of(object);
    if (!sandbox || !JSObjectHasProperty(ctx, sandbox, name)) return NULL;  // the global's own (the built-ins)
    return JSObjectGetProperty(ctx, sandbox, name, exception);
}

static bool vm_set(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef value, JSValueRef *exception) {
    JSObjectRef sandbox = sandbox_of(object);
    if (!sandbox) return false;
    JSObjectSetProperty(ctx, sandbox, name, value, kJSPropertyAttributeNone, exception);
    return true;
}

static bool vm_delete(JSContextRef ctx, JSObjectRef object, JSStringRef name, JSValueRef *exception) {
    JSObjectRef sandbox = sandbox_of(object);
    if (!sandbox || !JSObjectHasProperty(ctx, sandbox, name)) return false;
    return JSObjectDeleteProperty(ctx, sandbox, name, exception);
}

static void vm_names(JSContextRef ctx, JSObjectRef object, JSPropertyNameAccumulatorRef names) {
    JSObjectRef sandbox = sandbox_of(object);
    if (!sandbox) return;
    JSPropertyNameArrayRef own = JSObjectCopyPropertyNames(ctx, sandbox);
    size_t count = JSPropertyNameArrayGetCount(own);
    for (size_t i = 0; i < count; i++) JSPropertyNameAccumulatorAddName(names, JSPropertyNameArrayGetNameAtIndex(own, i));
    JSPropertyNameArrayRelease(own);
}

static void make(void) {
    JSClassDefinition definition = kJSClassDefinitionEmpty;
    definition.className = "global";
    definition.hasProperty = vm_has;
    definition.getProperty = vm_get;
    definition.setProperty = vm_set;
    definition.deleteProperty = vm_delete;
    definition.getPropertyNames = vm_names;
    vm_global_class = JSClassCreate(&definition);
    object_global_context = (object_global_context_fn)dlsym(RTLD_DEFAULT, "JSObjectGetGlobalContext");
}

JSObjectRef jsb_vm_context_create(JSContextGroupRef group, JSObjectRef sandbox) {
    pthread_once(&made, make);
    JSGlobalContextRef context = JSGlobalContextCreateInGroup(group, vm_global_class);
    if (!context) return NULL;
    JSObjectRef global = JSContextGetGlobalObject(context);
    // A symbol-keyed property keeps the object alive as long as the global; the callbacks read the private data.
    JSStringRef description = JSStringCreateWithUTF8CString("vm.context");
    JSValueRef key = JSValueMakeSymbol(context, description);
    JSStringRelease(description);
    JSObjectSetPropertyForKey(context, global, key, sandbox,
                              kJSPropertyAttributeDontEnum | kJSPropertyAttributeDontDelete | kJSPropertyAttributeReadOnly,
                              NULL);
    JSObjectSetPrivate(global, sandbox);
    // The global object keeps the context alive from here: held by whoever holds it, collected with it.
    if (object_global_context) JSGlobalContextRelease(context);
    return global;
}

JSGlobalContextRef jsb_object_global_context(JSObjectRef object) {
    pthread_once(&made, make);
    return object_global_context ? object_global_context(object) : NULL;
}

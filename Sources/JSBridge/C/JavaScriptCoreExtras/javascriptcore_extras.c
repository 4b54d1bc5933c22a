#include "jsb_javascriptcore_extras.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

typedef void (*set_rejection_callback_fn)(JSGlobalContextRef, JSObjectRef, JSValueRef *);
typedef void (*set_time_limit_fn)(JSContextGroupRef, double, jsb_should_terminate_callback, void *);

static set_rejection_callback_fn set_rejection_callback;
static set_time_limit_fn set_time_limit;
static pthread_once_t looked_up = PTHREAD_ONCE_INIT;

static void look_up(void) {
    set_rejection_callback =
        (set_rejection_callback_fn)dlsym(RTLD_DEFAULT, "JSGlobalContextSetUnhandledRejectionCallback");
    set_time_limit = (set_time_limit_fn)dlsym(RTLD_DEFAULT, "JSContextGroupSetExecutionTimeLimit");
}

bool jsb_set_unhandled_rejection_callback(JSGlobalContextRef context, JSObjectRef function) {
    pthread_once(&looked_up, look_up);
    if (!set_rejection_callback) return false;
    JSValueRef exception = NULL;
    set_rejection_callback(context, function, &exception);
    return exception == NULL;
}

bool jsb_set_execution_time_limit(JSContextGroupRef group, double seconds, jsb_should_terminate_callback callback,
                                  void *context) {
    pthread_once(&looked_up, look_up);
    if (!set_time_limit) return false;
    set_time_limit(group, seconds, callback, context);
    return true;
}

void jsb_tune_javascriptcore(void) {
    setenv("JSC_thresholdForFTLOptimizeAfterWarmUp", "1000000", 0);
    setenv("JSC_usePollingTraps", "1", 0);
}

void jsb_prefer_signalled_traps(void) { setenv("JSC_usePollingTraps", "0", 0); }

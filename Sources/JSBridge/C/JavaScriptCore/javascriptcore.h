// JavaScriptCore's C API, from Debian's libjavascriptcoregtk-4.1-dev (found through pkg-config). Nothing
// else belongs here: the functions the C API does not ship are in CJavaScriptCoreExtras.
#include <JavaScriptCore/JavaScript.h>

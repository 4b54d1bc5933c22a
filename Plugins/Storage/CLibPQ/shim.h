// All libpq C includes used by jsbridge live here.
#ifndef JSBRIDGE_LIBPQ_SHIM_H
#define JSBRIDGE_LIBPQ_SHIM_H
#include <libpq-fe.h>
#endif

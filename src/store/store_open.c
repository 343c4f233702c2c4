/* store_open (store.h): the one place that knows the backends built in. */
#include <string.h>

#include "core/error.h"
#include "store/postgres/postgres.h"
#include "store/sqlite/sqlite.h"
#include "store/store.h"
#include "store/store_gate.h"

/* The backends built in, as store_open's refusal names them. */
#define STORE_BACKENDS                                                                             \
    "sqlite (a file path, :memory: or sqlite:PATH), postgresql (postgresql://USER@HOST:PORT/DB "   \
    "or "                                                                                          \
    "postgres://...)"

/* The length of the URL's scheme when it begins with "<scheme>://", else 0. */
static size_t scheme_length(const char *url)
{
    size_t n = strspn(url, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
    return n > 0 && !strncmp(url + n, "://", 3) ? n : 0;
}

struct store *store_open(const char *url, const struct store_options *opt, char *err,
                         size_t err_size)
{
    struct store_options plain = {.durability = STORE_SURVIVES_KILL};
    if (!opt)
        opt = &plain;
    struct store *s = NULL;
    if (!strncmp(url, "sqlite:", 7)) {
        s = store_sqlite_open(url + 7, opt->durability, err, err_size);
    } else if (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11)) {
        s = store_postgres_open(url, opt->pool > 0 ? opt->pool : STORE_POOL_DEFAULT,
                                opt->durability, err, err_size);
    } else if (scheme_length(url) > 0) {
        /* Only the scheme: the rest may hold a password. */
        fail(err, err_size, "no store backend '%.*s' is built in; built in: " STORE_BACKENDS,
             (int)(scheme_length(url) < 32 ? scheme_length(url) : 32), url);
        return NULL;
    } else {
        s = store_sqlite_open(url, opt->durability, err, err_size);
    }
    if (s && opt->max_waiting > 0 && !(s->gate = store_gate_new(opt->max_waiting))) {
        store_close(s);
        fail(err, err_size, "out of memory");
        return NULL;
    }
    return s;
}

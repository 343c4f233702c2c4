/* The PostgreSQL backend's part for reviews (store.h "Reviews"): a finished review kept
 * as the JSON text the server answers with, by the id of its game or record. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/postgres/private.h"

static const char sql_put_review[] =
    "INSERT INTO reviews (id, game, created_ms, body) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (id) DO UPDATE SET game = excluded.game, created_ms = excluded.created_ms,"
    " body = excluded.body";

int pg_store_put_review(struct store *s, const char *id, const char *game, const char *body,
                        int64_t now_ms, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "store review", err, err_size, sql_put_review, "ttIt", id, game,
                                 now_ms, body);
    PQclear(r);
    return r ? 0 : -1;
}

static const char sql_get_review[] = "SELECT body FROM reviews WHERE id = $1";

int pg_store_get_review(struct store *s, const char *id, char **body, char *err, size_t err_size)
{
    *body = NULL;
    PGresult *r = pg_store_query(s, "load review", err, err_size, sql_get_review, "t", id);
    if (!r)
        return -1;
    int rc = 1;
    if (PQntuples(r) > 0) {
        *body = strdup(PQgetvalue(r, 0, 0));
        rc = *body ? 0 : fail(err, err_size, "out of memory");
    }
    PQclear(r);
    return rc;
}

/* The store's schema, as one numbered list of migrations that every backend applies in
 * order (migrations.c), recording each in its table schema_version (version, applied_ms):
 * a database of version v has had migrations 1..v.  A backend opening a database of a
 * version above store_migrations_count refuses it (store_migrations_newer's message).
 *
 * Each migration has one text a backend: the SQL dialects differ in types (SQLite's
 * INTEGER is 64 bits, PostgreSQL's BIGINT), in WITHOUT ROWID and in collations, so the
 * list gives a pair, one number.  Adding one: an entry at the end of migrations.c with
 * both texts; never change an entry already released. */
#pragma once

#include <stddef.h>

struct store_migration {
    int version;          /* 1, 2, ...: its place in the list */
    const char *what;     /* for the messages */
    const char *sqlite;   /* SQLite's statements (sqlite3_exec) */
    const char *postgres; /* PostgreSQL's (one simple query: several statements) */
};

extern const struct store_migration store_migrations[];
/* The number of migrations: the version a database has after all of them. */
extern const int store_migrations_count;

/* The refusal of a database of a newer version (a newer agora made it) into err. */
int store_migrations_newer(char *err, size_t err_size, int version);

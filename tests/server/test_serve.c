/* `agora serve`: the composition root's settings from the command line, the
 * refused ones. */
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "cli/cli.h"

TEST(server_cli_bad_arguments)
{
    static const char *const bad[][4] = {
        {"serve", "--port", "http", NULL},
        {"serve", "--port", "70000", NULL},
        {"serve", "--sync", "sometimes", NULL},
        {"serve", "--bogus", "1", NULL},
        {"serve", "--port", NULL, NULL},
        {"serve", "--db", "/nonexistent-dir/x/agora.db", NULL},
        {"serve", "--host", "localhost:80", NULL},
        /* --trust-proxy is a flag: it takes no value, so the next option is read. */
        {"serve", "--trust-proxy", "--sync", "sometimes"},
        {"serve", "--trust-proxy", "yes", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[7] = {"agora"};
        int argc = 1;
        for (int k = 0; k < 4 && bad[i][k]; k++)
            argv[argc++] = (char *)bad[i][k];
        if (i == 5 || i == 6) { /* valid options that fail at start: use a free port */
            argv[argc++] = "--port";
            argv[argc++] = "0";
        }
        FILE *out = tmpfile(), *err = tmpfile();
        struct cli_io io = {stdin, out, err};
        int code = cli_main(argc, argv, &io);
        CHECK_MSG(code == 2, "case %zu exits %d", i, code);
        char line[512] = "";
        rewind(err);
        CHECK_MSG(fgets(line, sizeof line, err) && !strncmp(line, "agora: ", 7), "case %zu: '%s'",
                  i, line);
        fclose(out);
        fclose(err);
    }
}

TEST(server_cli_bad_database)
{
    /* A database that cannot be had (nothing listens, a URL libpq refuses, a backend
     * not built in) or a bad pool: exit 2 and one line, without the URL's password. */
    static const char *const bad[][4] = {
        {"--db", "postgresql://agora:secret@127.0.0.1:1/agora", NULL, NULL},
        {"--db", "postgres://agora:secret@127.0.0.1:1/agora", "--db-pool", "2"},
        {"--db", "postgresql://agora:secret@127.0.0.1/agora?nonsense=1", NULL, NULL},
        {"--db", "mysql://agora:secret@127.0.0.1/agora", NULL, NULL},
        {"--db-pool", "0", NULL, NULL},
        {"--db-pool", "many", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[9] = {"agora", "serve", "--port", "0"};
        int argc = 4;
        for (int k = 0; k < 4 && bad[i][k]; k++)
            argv[argc++] = (char *)bad[i][k];
        FILE *out = tmpfile(), *err = tmpfile();
        struct cli_io io = {stdin, out, err};
        int code = cli_main(argc, argv, &io);
        CHECK_MSG(code == 2, "case %zu exits %d", i, code);
        char line[512] = "", more[512] = "";
        rewind(err);
        CHECK_MSG(fgets(line, sizeof line, err) && !strncmp(line, "agora: ", 7), "case %zu: '%s'",
                  i, line);
        CHECK_MSG(!fgets(more, sizeof more, err), "case %zu: a second line '%s'", i, more);
        CHECK_MSG(!strstr(line, "secret"), "case %zu: '%s'", i, line);
        fclose(out);
        fclose(err);
    }
}

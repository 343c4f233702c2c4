/* The fake UCI engine (fake_uci.h). */
#include "fake_uci.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char script[] =
    "#!/bin/sh\n"
    "mode='%s'\n"
    "mpv=1\n"
    "while IFS= read -r line; do\n"
    "  case \"$line\" in\n"
    "  uci)\n"
    "    case $mode in\n"
    "    hang_start) exec sleep 60 ;;\n"
    "    garbage_start) while :; do echo 'hello there'; done ;;\n"
    "    esac\n"
    "    echo 'id name Fake 1.0'; echo 'option name Hash type spin default 16 min 1 max 64'\n"
    "    if [ $mode = nice ]; then echo \"id name Fake at nice $(nice)\"; fi\n"
    "    echo uciok ;;\n"
    "  isready) echo readyok ;;\n"
    "  'setoption name MultiPV value '*) mpv=${line##* } ;;\n"
    "  go*)\n"
    "    case $mode in\n"
    "    crash) kill -9 $$ ;;\n"
    "    crash_once) if [ ! -e \"$0.crashed\" ]; then : > \"$0.crashed\"; kill -9 $$; fi ;;\n"
    "    hang) exec sleep 60 ;;\n"
    "    garbage_move) echo 'info depth 1 score cp 5 pv z9z9'; echo 'bestmove z9z9'; continue ;;\n"
    "    garbage_score) echo 'info depth 3 score banana 7 pv e2e4'; echo 'bestmove e2e4';\n"
    "      continue ;;\n"
    "    esac\n"
    "    echo 'info depth 1 seldepth 2 multipv 1 score cp 31 nodes 100 time 1 pv e2e4 e7e5'\n"
    "    if [ \"$mpv\" -ge 2 ]; then\n"
    "      echo 'info depth 1 seldepth 1 multipv 2 score mate -3 nodes 100 time 1 pv d2d4'\n"
    "    fi\n"
    "    echo 'info depth 2 currmove e2e4 currmovenumber 1'\n"
    "    echo 'info string just talk'\n"
    "    echo 'info depth 2 seldepth 3 multipv 1 score cp 27 lowerbound nodes 150 pv g1f3'\n"
    "    echo 'info depth 2 seldepth 3 multipv 1 score cp 25 nodes 200 time 2 pv e2e4 c7c5'\n"
    "    if [ \"$mpv\" -ge 2 ]; then\n"
    "      echo 'info depth 2 seldepth 2 multipv 2 score mate -2 nodes 200 time 2 pv d2d4 d7d5'\n"
    "    fi\n"
    "    echo 'bestmove e2e4 ponder c7c5' ;;\n"
    "  quit) exit 0 ;;\n"
    "  esac\n"
    "done\n";

static char dir[256];

const char *fake_uci_path(const char *mode, char *buf, size_t size)
{
    if (!dir[0]) {
        char tmpl[] = "/tmp/agora-fake-uci-XXXXXX";
        if (!mkdtemp(tmpl))
            return NULL;
        snprintf(dir, sizeof dir, "%s", tmpl);
    }
    snprintf(buf, size, "%s/%s", dir, mode);
    if (access(buf, X_OK) == 0)
        return buf;
    FILE *f = fopen(buf, "w");
    if (!f)
        return NULL;
    fprintf(f, script, mode);
    fclose(f);
    chmod(buf, 0755);
    return buf;
}

void fake_uci_cleanup(void)
{
    static const char *const modes[] = {
        "works",        "crash",         "crash_once",    "hang", "hang_start",
        "garbage_move", "garbage_score", "garbage_start", "nice", NULL,
    };
    if (!dir[0])
        return;
    char path[512];
    for (int i = 0; modes[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, modes[i]);
        unlink(path);
        snprintf(path, sizeof path, "%s/%s.crashed", dir, modes[i]);
        unlink(path);
    }
    rmdir(dir);
    dir[0] = 0;
}

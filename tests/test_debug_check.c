/* The debug consistency check (src/core/debug_check.h) is compiled into the sanitizer
 * build: a make that leaves an inconsistent state, or an unmake that does, aborts with
 * the game, the move and the check's message.  Each corrupt state is made in the test
 * and the move is made in a child process, whose abort and stderr are checked.  Builds
 * without AGORA_DEBUG_CHECK skip these tests. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "games/agon/agon.h"
#include "games/agon/state.h"
#include "games/chess/chess.h"
#include "games/chess/state.h"
#include "games/egara/egara.h"
#include "games/egara/state.h"
#include "games/registry.h"
#include "harness.h"

/* `op` ("make" or "unmake") of `m` on `st`, in a child: it must die by SIGABRT after
 * writing the debug check's line for that game, operation and move. */
static void expect_abort(struct test_ctx *t__, const struct game *g, void *st, const char *op,
                         Move m)
{
    char text[MOVE_TEXT_MAX], want[160], got[1024];
    g->move_text(st, m, text, sizeof text);
    snprintf(want, sizeof want, "agora: debug check failed after %s %s %s (", g->name, op, text);
    int fds[2];
    if (pipe(fds) != 0) {
        CHECK_MSG(0, "pipe failed");
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        if (!strcmp(op, "make"))
            g->make_move(st, m);
        else
            g->unmake_move(st, m);
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (pid > 0 && n < sizeof got - 1 && (r = read(fds[0], got + n, sizeof got - 1 - n)) > 0)
        n += (size_t)r;
    got[n] = 0;
    close(fds[0]);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
              "%s %s %s on a corrupt state was not stopped (wait status 0x%x)", g->name, op, text,
              status);
    CHECK_MSG(strstr(got, want) != NULL, "expected '%s...' on stderr, got '%s'", want, got);
}

/* The first legal move of the start position, for game `g` in `st`. */
static Move first_move(const struct game *g, void *st)
{
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves), m = 0;
    g->start(st);
    if (moves && g->gen_moves(st, moves) > 0)
        m = moves[0];
    free(moves);
    return m;
}

TEST(debug_check_stops_a_make_from_a_corrupt_key)
{
#ifndef AGORA_DEBUG_CHECK
    SKIP("built without AGORA_DEBUG_CHECK");
#endif
    struct chess_state *c = game_state_new(&chess_game);
    struct agon_state *a = game_state_new(&agon_game);
    struct egara_state *e = game_state_new(&egara_game);
    Move mc = first_move(&chess_game, c), ma = first_move(&agon_game, a),
         me = first_move(&egara_game, e);
    c->pos.key ^= 1;
    a->key ^= 1;
    e->key ^= 1;
    expect_abort(TEST_CTX, &chess_game, c, "make", mc);
    expect_abort(TEST_CTX, &agon_game, a, "make", ma);
    expect_abort(TEST_CTX, &egara_game, e, "make", me);
    free(c);
    free(a);
    free(e);
}

/* After a good make, a piece set that unmake does not restore is corrupted (a piece
 * added where the move did not go, or removed): the unmake must be stopped. */
TEST(debug_check_stops_an_unmake_into_a_corrupt_state)
{
#ifndef AGORA_DEBUG_CHECK
    SKIP("built without AGORA_DEBUG_CHECK");
#endif
    struct chess_state *c = game_state_new(&chess_game);
    struct agon_state *a = game_state_new(&agon_game);
    struct egara_state *e = game_state_new(&egara_game);
    Move mc = first_move(&chess_game, c), ma = first_move(&agon_game, a),
         me = first_move(&egara_game, e);
    chess_game.make_move(c, mc);
    agon_game.make_move(a, ma);
    egara_game.make_move(e, me);
    c->pos.by_color[SIDE_WHITE] |= BIT(SQ(3, 4)); /* d5, empty after any first move */
    for (int cell = 0; cell < AGON_SLOTS; cell++)
        if ((agon_board.all & AG_BIT(cell)) && !a->board[cell] && cell != AG_MOVE_FROM(ma)) {
            a->occupied[SIDE_BLACK] |= AG_BIT(cell);
            break;
        }
    e->pieces[SIDE_BLACK] &= e->pieces[SIDE_BLACK] - 1; /* a black piece gone (no room to add) */
    expect_abort(TEST_CTX, &chess_game, c, "unmake", mc);
    expect_abort(TEST_CTX, &agon_game, a, "unmake", ma);
    expect_abort(TEST_CTX, &egara_game, e, "unmake", me);
    free(c);
    free(a);
    free(e);
}

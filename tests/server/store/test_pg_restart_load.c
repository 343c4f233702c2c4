/* PostgreSQL restarted under load (issue 26, faults): two servers on tests/pg-run's
 * PostgreSQL, ten games between people, and five client threads that play random legal
 * moves in them through both servers in turn for the whole test, while the test stops
 * PostgreSQL (a fast shutdown), keeps the load going for 1.5 s and starts it again.
 *
 * What must hold: every answer comes within 5 s; it is 200, or 503 with a JSON error
 * saying the database is unavailable (or busy), and never "unavailable" before the
 * stop; no move is acknowledged while the database is down; both servers acknowledge
 * moves again by themselves once it is back; and no acknowledged move is lost: at the
 * end both servers tell every game at the ply its player last saw, with every
 * acknowledged move, and so does the store.  A spectator's stream of one game on each
 * server, kept as a browser keeps it (opened again with Last-Event-ID when the server
 * ends it: a stream ends when it cannot read its game), tells a move made after the
 * restart, and every move up to it once, in order, as acknowledged.
 *
 * A player reads the game from the server before each move and moves only when that
 * server is at the ply the player knows (the other server hears of a move through the
 * outbox, a moment later).  A move answered 503 may still have been stored (the
 * connection broke during its COMMIT, whose outcome is then unknown): the player finds
 * it in the state it reads next, as any client that retries must; it is counted, not
 * failed.  While the database is away a server answers a read of a game it holds from
 * memory (200), and a move, or a game it must load, 503.  The servers run in this
 * process, so the sanitizers' build sees any crash.  PostgreSQL only. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "store/store.h"

#define PL_SERVERS 2
#define PL_GAMES 10
#define PL_THREADS 5
#define PL_PLIES_MAX 1024
/* The longest an answer may take, database away or not. */
#define PL_ANSWER_MS 5000
/* How long the database stays away, and the bound on the servers' recovery. */
#define PL_AWAY_MS 1500
#define PL_RECOVER_MS 15000
/* The bound on the checks at the end (a server hearing of the last moves). */
#define PL_SETTLE_MS 5000

enum pl_phase { PL_BEFORE, PL_AWAY, PL_BACK, PL_PHASES };

struct pl_game {
    char id[40], token[2][40]; /* white's, black's */
    int ply;                   /* the plies this game's player knows stored (under mu) */
    char acked[PL_PLIES_MAX][MOVE_TEXT_MAX]; /* ply i+1's move when acknowledged, else "" */
    char refused[MOVE_TEXT_MAX];             /* the last move answered 503 ("": none) */
    unsigned turn;                           /* which server the next request goes to */
    bool stay; /* the next read goes to the server that answered a move 503 */
    bool over; /* played no more (under mu) */
};

/* What the players saw, by the phase a request was sent in; under mu. */
struct pl_seen {
    pthread_mutex_t mu;
    int acks[PL_PHASES][PL_SERVERS], reads[PL_PHASES], unavailable[PL_PHASES], busy;
    int lagging, stored_anyway, acked_while_down;
    int64_t longest_ms[PL_PHASES], last_ack_ms[PL_SERVERS];
    int failures;
    char first_failure[512];
};

/* A spectator's event stream of a game on one server. */
struct pl_stream {
    struct sse_reader r;
    int port;
    char path[128];
    int last_ply; /* the last move event's */
    int reopened, out_of_order;
    char heard[PL_PLIES_MAX][MOVE_TEXT_MAX]; /* ply i+1's move as the stream told it */
};

struct pl_run {
    int port[PL_SERVERS];
    struct pl_game games[PL_GAMES];
    atomic_int phase, stop;
    /* The database down: from the stop script's return to the start script's run. */
    _Atomic int64_t down_from_ms, down_until_ms;
    struct pl_seen seen;
    struct pl_stream streams[PL_SERVERS]; /* game 0's on each server */
};

struct pl_player {
    struct pl_run *run;
    int first, count; /* its games */
    unsigned seed;
};

static int run_script(const char *env)
{
    const char *cmd = getenv(env);
    return cmd && cmd[0] ? system(cmd) : -1;
}

/* ---- the players ---- */

static void pl_fail(struct pl_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failure seen by a player thread: counted, the first kept for the test to report. */
static void pl_fail(struct pl_run *run, const char *fmt, ...)
{
    pthread_mutex_lock(&run->seen.mu);
    if (run->seen.failures++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(run->seen.first_failure, sizeof run->seen.first_failure, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&run->seen.mu);
}

/* A request, timed: its status (0: no answer), *body its JSON, *phase and *started when
 * it was sent.  An answer slower than PL_ANSWER_MS fails the test. */
static int pl_call(struct pl_run *run, int server, const char *method, const char *path,
                   const char *token, const char *text, json_t **body, int *phase, int64_t *started)
{
    *phase = atomic_load(&run->phase);
    *started = fx_now_ms();
    int status = api_call(run->port[server], method, path, token, text, body);
    int64_t ms = fx_now_ms() - *started;
    pthread_mutex_lock(&run->seen.mu);
    if (ms > run->seen.longest_ms[*phase])
        run->seen.longest_ms[*phase] = ms;
    pthread_mutex_unlock(&run->seen.mu);
    if (ms > PL_ANSWER_MS)
        pl_fail(run, "%s %s on server %c took %lld ms", method, path, 'A' + server, (long long)ms);
    return status;
}

/* A 503: the database's JSON error, and "unavailable" never before the stop began
 * (counted by the phase it came in: a request sent before may meet the stop). */
static void pl_refused(struct pl_run *run, int server, const char *method, const char *path,
                       json_t *body)
{
    int phase = atomic_load(&run->phase);
    const char *msg = fx_str(body, "error");
    bool unavailable = strstr(msg, "the database is unavailable") != NULL;
    bool busy = strstr(msg, "the database is busy") != NULL;
    pthread_mutex_lock(&run->seen.mu);
    if (unavailable)
        run->seen.unavailable[phase]++;
    else if (busy)
        run->seen.busy++;
    pthread_mutex_unlock(&run->seen.mu);
    if (!unavailable && !busy)
        pl_fail(run, "%s %s on server %c: 503 without the database's error: '%s'", method, path,
                'A' + server, msg);
    else if (unavailable && phase == PL_BEFORE)
        pl_fail(run, "%s %s on server %c: 503 before the database was stopped: '%s'", method, path,
                'A' + server, msg);
}

static void pl_over(struct pl_run *run, struct pl_game *g)
{
    pthread_mutex_lock(&run->seen.mu);
    g->over = true;
    pthread_mutex_unlock(&run->seen.mu);
}

/* A state a step ahead of the player: only the move last answered 503 may have been
 * stored so (its COMMIT's outcome unknown); then the player takes it as made. */
static bool pl_stored_anyway(struct pl_run *run, struct pl_game *g, int server, json_t *st)
{
    int ply = (int)fx_int(st, "ply");
    const char *last = fx_str(json_array_get(json_object_get(st, "moves"), (size_t)g->ply), "move");
    if (ply != g->ply + 1 || !g->refused[0] || strcmp(last, g->refused) != 0) {
        pl_fail(run, "game %s on server %c: ply %d, %d acknowledged (the last 503: '%s')", g->id,
                'A' + server, ply, g->ply, g->refused);
        pl_over(run, g);
        return false;
    }
    pthread_mutex_lock(&run->seen.mu);
    run->seen.stored_anyway++;
    g->ply = ply;
    pthread_mutex_unlock(&run->seen.mu);
    g->refused[0] = 0;
    return true;
}

/* The state the server tells of g; NULL when the player cannot move there now (a 503,
 * or a server that has not heard of the last move yet). */
static json_t *pl_read(struct pl_run *run, struct pl_game *g, int server)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", g->id);
    json_t *st = NULL;
    int phase;
    int64_t started;
    int status = pl_call(run, server, "GET", path, g->token[0], NULL, &st, &phase, &started);
    if (status == 503)
        pl_refused(run, server, "GET", path, st);
    else if (status != 200)
        pl_fail(run, "GET %s on server %c: %d", path, 'A' + server, status);
    if (status != 200) {
        json_decref(st);
        return NULL;
    }
    int ply = (int)fx_int(st, "ply");
    pthread_mutex_lock(&run->seen.mu);
    run->seen.reads[phase]++;
    if (ply < g->ply)
        run->seen.lagging++; /* the outbox tells that server soon */
    pthread_mutex_unlock(&run->seen.mu);
    if (ply < g->ply || (ply > g->ply && !pl_stored_anyway(run, g, server, st))) {
        json_decref(st);
        return NULL;
    }
    return st;
}

/* An acknowledgement: kept, counted and timed (the request sent at `started`). */
static void pl_acked(struct pl_run *run, struct pl_game *g, int server, const char *move, int phase,
                     int64_t started)
{
    int64_t now = fx_now_ms();
    snprintf(g->acked[g->ply], sizeof g->acked[0], "%s", move);
    g->refused[0] = 0;
    pthread_mutex_lock(&run->seen.mu);
    g->ply++;
    run->seen.acks[phase][server]++;
    run->seen.last_ack_ms[server] = now;
    int64_t from = atomic_load(&run->down_from_ms), until = atomic_load(&run->down_until_ms);
    if (from && started > from && (!until || now < until))
        run->seen.acked_while_down++;
    pthread_mutex_unlock(&run->seen.mu);
}

/* A random legal move of state st in g through the server. */
static void pl_move(struct pl_run *run, struct pl_game *g, int server, json_t *st, unsigned *seed)
{
    json_t *legal = json_object_get(st, "legal_moves");
    size_t n = json_array_size(legal);
    if (n == 0 || g->ply >= PL_PLIES_MAX - 1) {
        pl_over(run, g);
        return;
    }
    char move[MOVE_TEXT_MAX], path[128], text[128];
    snprintf(move, sizeof move, "%s",
             fx_str(json_array_get(legal, (size_t)rand_r(seed) % n), "move"));
    int side = strcmp(fx_str(st, "side_to_move"), "white") ? 1 : 0;
    snprintf(path, sizeof path, "/api/games/%s/moves", g->id);
    snprintf(text, sizeof text, "{\"move\":\"%s\"}", move);
    json_t *body = NULL;
    int phase;
    int64_t started;
    int status = pl_call(run, server, "POST", path, g->token[side], text, &body, &phase, &started);
    if (status == 200 && fx_int(body, "ply") == g->ply + 1) {
        pl_acked(run, g, server, move, phase, started);
    } else if (status == 200) {
        pl_fail(run, "move %s of game %s on server %c: acknowledged at ply %lld, not %d", move,
                g->id, 'A' + server, fx_int(body, "ply"), g->ply + 1);
    } else if (status == 503) {
        pl_refused(run, server, "POST", path, body);
        snprintf(g->refused, sizeof g->refused, "%s", move);
        g->stay = true;
    } else {
        pl_fail(run, "move %s of game %s (ply %d) on server %c: %d '%s'", move, g->id, g->ply + 1,
                'A' + server, status, fx_str(body, "error"));
    }
    json_decref(body);
}

static void *pl_play(void *arg)
{
    struct pl_player *p = arg;
    struct pl_run *run = p->run;
    bool any = true;
    while (any && !atomic_load(&run->stop)) {
        any = false;
        for (int i = p->first; i < p->first + p->count; i++) {
            struct pl_game *g = &run->games[i];
            if (g->over)
                continue;
            any = true;
            /* Each step the other server; after a move answered 503, the same one until
             * it answers a read (the other may not have heard yet of that move, if it
             * was stored after all). */
            if (!g->stay)
                g->turn++;
            int server = (int)(g->turn % PL_SERVERS);
            json_t *st = pl_read(run, g, server);
            if (st) {
                g->stay = false;
                pl_move(run, g, server, st, &p->seed);
            }
            json_decref(st);
        }
    }
    return NULL;
}

/* ---- the servers, the games, the database ---- */

static struct server *pl_start(const char *url)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.db_path = url;
    cfg.ping_ms = 200;
    cfg.people_per_minute = 0;
    return fx_start(&cfg);
}

/* Ten games, made through either server. */
static bool pl_make_games(struct pl_run *run)
{
    for (int i = 0; i < PL_GAMES; i++) {
        struct pl_game *g = &run->games[i];
        if (fx_people_game(run->port[i % PL_SERVERS],
                           "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},"
                           "\"side\":\"white\",\"rated\":false,\"name\":\"Ann\"}",
                           g->id, g->token[0], g->token[1]) != 0)
            return false;
        g->turn = (unsigned)i;
    }
    return true;
}

/* The database away: stopped, PL_AWAY_MS under load, started again; *started_ms when
 * the start script returned. */
static void pl_restart_database(struct test_ctx *t__, struct pl_run *run, int64_t *started_ms)
{
    atomic_store(&run->phase, PL_AWAY);
    int64_t t0 = fx_now_ms();
    CHECK_EQ_INT(run_script("AGORA_TEST_PG_STOP"), 0);
    atomic_store(&run->down_from_ms, fx_now_ms());
    printf("  pg_restart_load: PostgreSQL stopped in %lld ms\n", (long long)(fx_now_ms() - t0));
    fx_sleep_ms(PL_AWAY_MS);
    atomic_store(&run->down_until_ms, fx_now_ms());
    t0 = fx_now_ms();
    CHECK_EQ_INT(run_script("AGORA_TEST_PG_START"), 0);
    *started_ms = fx_now_ms();
    printf("  pg_restart_load: PostgreSQL started in %lld ms\n", (long long)(*started_ms - t0));
    atomic_store(&run->phase, PL_BACK);
}

/* Whether every server has acknowledged a move since since_ms, waiting up to within_ms;
 * *took_ms from since_ms to the first acknowledgement of the last of them. */
static bool pl_all_acked_since(struct pl_run *run, int64_t since_ms, int within_ms,
                               int64_t *took_ms)
{
    int64_t end = fx_now_ms() + within_ms;
    for (;;) {
        pthread_mutex_lock(&run->seen.mu);
        int64_t last = INT64_MAX;
        for (int k = 0; k < PL_SERVERS; k++)
            if (run->seen.last_ack_ms[k] < last)
                last = run->seen.last_ack_ms[k];
        pthread_mutex_unlock(&run->seen.mu);
        if (last > since_ms) {
            *took_ms = last - since_ms;
            return true;
        }
        if (fx_now_ms() > end)
            return false;
        fx_sleep_ms(10);
    }
}

/* ---- the streams ---- */

static bool pl_stream_open(struct pl_stream *s, int port, const char *game)
{
    s->port = port;
    snprintf(s->path, sizeof s->path, "/api/games/%s/events", game);
    return sse_get(&s->r, port, s->path, NULL) == 200;
}

/* Whether the server closed the stream. */
static bool pl_stream_ended(const struct pl_stream *s)
{
    char c;
    ssize_t n = recv(s->r.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* Opened again as a browser does, from the last move told (Last-Event-ID). */
static bool pl_stream_reopen(struct pl_stream *s)
{
    char header[64];
    snprintf(header, sizeof header, "Last-Event-ID: %d\r\n", s->last_ply);
    sse_close(&s->r);
    s->reopened++;
    return sse_get(&s->r, s->port, s->path, header) == 200;
}

/* A move event of ply >= ply on s within timeout_ms, the stream opened again whenever
 * it ends; each move told is kept. */
static bool pl_heard_ply(struct pl_stream *s, int ply, int timeout_ms)
{
    int64_t end = fx_now_ms() + timeout_ms;
    while (fx_now_ms() < end) {
        json_t *ev = fx_event(&s->r, "move", (int)(end - fx_now_ms()));
        if (!ev) {
            if (pl_stream_ended(s) && !pl_stream_reopen(s))
                fx_sleep_ms(50); /* refused (503): again */
            continue;
        }
        int at = (int)fx_int(ev, "ply");
        if (at != s->last_ply + 1 || at > PL_PLIES_MAX)
            s->out_of_order++;
        else
            snprintf(s->heard[at - 1], sizeof s->heard[0], "%s", fx_str(ev, "move"));
        s->last_ply = at;
        json_decref(ev);
        if (at >= ply)
            return true;
    }
    return false;
}

/* ---- the checks at the end ---- */

/* The first ply (from 1) of the first n where `moves` differs from an acknowledged move
 * of g, or 0.  move_at(ctx, i): ply i+1's move in `moves`. */
static int pl_first_difference(const struct pl_game *g, int n,
                               const char *(*move_at)(const void *ctx, int i), const void *ctx)
{
    for (int i = 0; i < n && i < g->ply; i++)
        if (g->acked[i][0] && strcmp(move_at(ctx, i), g->acked[i]) != 0)
            return i + 1;
    return 0;
}

static const char *json_move_at(const void *ctx, int i)
{
    return fx_str(json_array_get(json_object_get((json_t *)ctx, "moves"), (size_t)i), "move");
}

static const char *text_move_at(const void *ctx, int i)
{
    return ((const char(*)[MOVE_TEXT_MAX])ctx)[i];
}

/* The moves stream s told of game g: each once, in order, as acknowledged. */
static void pl_check_heard(struct test_ctx *t__, const struct pl_stream *s, const struct pl_game *g,
                           char server)
{
    CHECK_MSG(s->out_of_order == 0, "server %c's stream told %d moves out of order", server,
              s->out_of_order);
    CHECK_MSG(s->last_ply <= g->ply, "server %c's stream told ply %d, %d stored", server,
              s->last_ply, g->ply);
    int at = pl_first_difference(g, s->last_ply, text_move_at, s->heard);
    CHECK_MSG(at == 0, "server %c's stream told ply %d of game %s as '%s', acknowledged '%s'",
              server, at, g->id, at ? s->heard[at - 1] : "", at ? g->acked[at - 1] : "");
}

/* Game id as the server on port tells it once at `ply` (the other server may take a
 * moment to hear of the last move), or as it last told it at `end`; NULL when never. */
static json_t *pl_state_at(int port, const char *id, int ply, int64_t end)
{
    for (;;) {
        json_t *st = fx_state(port, id, NULL);
        if ((st && fx_int(st, "ply") == ply) || fx_now_ms() > end)
            return st;
        json_decref(st);
        fx_sleep_ms(20);
    }
}

/* Both servers tell every game at the ply its player knows, with every acknowledged
 * move. */
static void pl_check_told(struct test_ctx *t__, const struct pl_run *run)
{
    int64_t end = fx_now_ms() + PL_SETTLE_MS;
    for (int i = 0; i < PL_GAMES; i++) {
        const struct pl_game *g = &run->games[i];
        for (int k = 0; k < PL_SERVERS; k++) {
            json_t *st = pl_state_at(run->port[k], g->id, g->ply, end);
            long long ply = st ? fx_int(st, "ply") : -1;
            CHECK_MSG(ply == g->ply, "server %c tells game %s at ply %lld, not %d", 'A' + k, g->id,
                      ply, g->ply);
            int at = st ? pl_first_difference(g, (int)ply, json_move_at, st) : 0;
            CHECK_MSG(at == 0, "server %c tells ply %d of game %s as '%s', acknowledged '%s'",
                      'A' + k, at, g->id, at ? json_move_at(st, at - 1) : "",
                      at ? g->acked[at - 1] : "");
            json_decref(st);
        }
    }
}

/* The store holds every game's moves as acknowledged, and none its player did not see. */
static void pl_check_stored(struct test_ctx *t__, const char *url, const struct pl_run *run)
{
    char err[256] = "";
    struct store *s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    for (int i = 0; s && i < PL_GAMES; i++) {
        const struct pl_game *g = &run->games[i];
        struct store_game row;
        char(*moves)[MOVE_TEXT_MAX] = NULL;
        int n = 0;
        CHECK_EQ_INT(store_load_game(s, g->id, &row, &moves, &n, err, sizeof err), 0);
        CHECK_MSG(n == g->ply, "game %s: %d moves stored, %d acknowledged or seen", g->id, n,
                  g->ply);
        int at = moves ? pl_first_difference(g, n, text_move_at, moves) : 0;
        CHECK_MSG(at == 0, "game %s: ply %d stored as '%s', acknowledged '%s'", g->id, at,
                  at ? moves[at - 1] : "", at ? g->acked[at - 1] : "");
        free(moves);
    }
    store_close(s);
}

static void pl_report(const struct pl_run *run, bool back, int64_t recovered_ms)
{
    const struct pl_seen *s = &run->seen;
    static const char *const phase[PL_PHASES] = {"before", "away", "after"};
    for (int p = 0; p < PL_PHASES; p++)
        printf("  pg_restart_load: %s: moves acknowledged %d on A, %d on B; reads answered %d;"
               " 503 unavailable %d (by the phase answered in); longest answer %lld ms\n",
               phase[p], s->acks[p][0], s->acks[p][1], s->reads[p], s->unavailable[p],
               (long long)s->longest_ms[p]);
    printf("  pg_restart_load: 503 busy %d; stored though answered 503 %d; reads of a server"
           " behind %d; both servers acknowledged a move ",
           s->busy, s->stored_anyway, s->lagging);
    if (back)
        printf("%lld ms after the start\n", (long long)recovered_ms);
    else
        printf("never after the start\n");
    for (int k = 0; k < PL_SERVERS; k++)
        printf("  pg_restart_load: server %c's stream told %d moves, opened again %d times\n",
               'A' + k, run->streams[k].last_ply, run->streams[k].reopened);
}

/* ---- the test ---- */

/* The players play through the restart; the streams must hear a move made after it. */
static void pl_load_through_restart(struct test_ctx *t__, struct pl_run *run)
{
    struct pl_player players[PL_THREADS];
    pthread_t threads[PL_THREADS];
    for (int i = 0; i < PL_THREADS; i++) {
        players[i] = (struct pl_player){run, i * PL_GAMES / PL_THREADS, PL_GAMES / PL_THREADS,
                                        (unsigned)(i + 1) * 2654435761u};
        pthread_create(&threads[i], NULL, pl_play, &players[i]);
    }
    int64_t took = 0, started = 0;
    CHECK_MSG(pl_all_acked_since(run, 0, PL_SETTLE_MS, &took), "no move before the stop");
    fx_sleep_ms(500);
    pl_restart_database(t__, run, &started);
    bool back = pl_all_acked_since(run, started, PL_RECOVER_MS, &took);
    CHECK_MSG(back, "the servers did not both acknowledge a move within %d ms of the restart",
              PL_RECOVER_MS);
    pthread_mutex_lock(&run->seen.mu);
    int after = run->games[0].ply + 1;
    bool over = run->games[0].over;
    pthread_mutex_unlock(&run->seen.mu);
    for (int k = 0; back && !over && k < PL_SERVERS; k++)
        CHECK_MSG(pl_heard_ply(&run->streams[k], after, PL_SETTLE_MS),
                  "server %c's stream did not tell ply %d, made after the restart", 'A' + k, after);
    fx_sleep_ms(300);
    atomic_store(&run->stop, 1);
    for (int i = 0; i < PL_THREADS; i++)
        pthread_join(threads[i], NULL);
    pl_report(run, back, took);
}

TEST(server_postgres_restart_under_load_loses_no_move)
{
    if (!fx_on_postgres() || !getenv("AGORA_TEST_PG_STOP") || !getenv("AGORA_TEST_PG_START"))
        SKIP("PostgreSQL of tests/pg-run only (it stops and starts that database)");
    char url[1024];
    snprintf(url, sizeof url, "%s", fx_store_url());
    struct server *srv[PL_SERVERS] = {pl_start(url), NULL};
    srv[1] = srv[0] ? pl_start(url) : NULL;
    if (!srv[0] || !srv[1]) {
        server_stop(srv[0]);
        SKIP("no servers");
    }
    static struct pl_run run; /* large: every game's acknowledged moves */
    memset(&run, 0, sizeof run);
    pthread_mutex_init(&run.seen.mu, NULL);
    for (int k = 0; k < PL_SERVERS; k++) {
        run.port[k] = server_port(srv[k]);
        run.streams[k].r.fd = -1; /* not open */
    }
    bool ready = pl_make_games(&run);
    for (int k = 0; ready && k < PL_SERVERS; k++)
        ready = pl_stream_open(&run.streams[k], run.port[k], run.games[0].id);
    CHECK_MSG(ready, "the games or their streams were not made");
    if (ready) {
        pl_load_through_restart(TEST_CTX, &run);
        CHECK_MSG(run.seen.failures == 0, "%d failures, the first: %s", run.seen.failures,
                  run.seen.first_failure);
        CHECK_MSG(run.seen.unavailable[PL_AWAY] + run.seen.unavailable[PL_BACK] > 0,
                  "no 503 while the database was away: was it stopped?");
        CHECK_EQ_INT(run.seen.acked_while_down, 0);
        for (int k = 0; k < PL_SERVERS; k++)
            CHECK_MSG(run.seen.acks[PL_BACK][k] > 0,
                      "server %c acknowledged nothing after the restart", 'A' + k);
        for (int k = 0; k < PL_SERVERS; k++)
            pl_check_heard(TEST_CTX, &run.streams[k], &run.games[0], (char)('A' + k));
        pl_check_told(TEST_CTX, &run);
    }
    for (int k = 0; k < PL_SERVERS; k++) {
        sse_close(&run.streams[k].r);
        server_stop(srv[k]);
    }
    if (ready)
        pl_check_stored(TEST_CTX, url, &run);
    pthread_mutex_destroy(&run.seen.mu);
}

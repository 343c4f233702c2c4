/* A load test of games between people on `agora serve` (loopback): G games at once,
 * each between two simulated players.  A game is made as people make one (a challenge,
 * then its accept); each player keeps an event stream of the game open (with its seat
 * key) and a keep-alive connection for its moves, waits for the opponent's move event,
 * then answers with the first legal move.  Measured: the time from one player's move
 * being acknowledged (its reply read) to the opponent's stream delivering that move
 * (p50/p99/max over the moves after the first second), moves per second, errors (any
 * refused request, a stream that breaks or stays silent 10 s), and lost moves (at the
 * end each game's state must hold every acknowledged move).  A game that ends is
 * followed by a new one.
 *
 *   build/loadtest-people PORT[,PORT2] [GAMES=500] [SECONDS=20] [GAME=chess] [PAUSE_MS=0]
 *
 * With two ports (two servers on one database), each game's first player makes all its
 * requests and holds its stream on the first server, the second player on the second:
 * every move is acknowledged by one server and heard from the other's stream, so the
 * time measured is the trip through the database's outbox (issue 26, item 7).
 * PAUSE_MS > 0 makes each player think a uniform random 0..2*PAUSE_MS before its move.
 * The games are on a 30+0 clock, so every move also moves the clock's deadline.
 *
 * All the players run on one thread (so that at thousands of games the client's own
 * scheduling is not what is measured): non-blocking sockets on one epoll, each game a
 * small state machine (enum step) moved on by its replies, its streams' events and its
 * timer (the sockets: loadtest_people_net.c).  A stream's events are read as they
 * come, so a move event that arrives before the mover's reply is kept (its time then
 * counts as 0). */
#include "loadtest_people_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define MAX_SAMPLES 1000000
#define SETUP_MAX 256 /* games making their challenge at once (connects in batches) */
#define SILENT_S 10.0

static int ports[2], n_ports, seconds, pause_ms;
static const char *game = "chess";
static double t_end, t_warm;
static int errors, lost, games_started, n_samples, moves_total;
static double samples[MAX_SAMPLES];
/* With LOADTEST_VERBOSE, on stderr: the move requests' own time (sent to reply read). */
static int n_sends;
static double sends[MAX_SAMPLES];

/* One error; the first ten are told on stderr with what failed when LOADTEST_VERBOSE is
 * set (to find what a run's errors were). */
static void error(const char *what, int status)
{
    if (errors++ < 10 && getenv("LOADTEST_VERBOSE"))
        fprintf(stderr, "error: %s (%d)\n", what, status);
}

/* ---- A game: two players, one step at a time. */

enum step {
    STEP_QUEUED,    /* waiting for a setup slot */
    STEP_CHALLENGE, /* player 0's challenge */
    STEP_ACCEPT,    /* player 1's accept */
    STEP_SEAT,      /* player 0 reads the game for its seat key */
    STEP_FIRST,     /* the first mover reads the game's first legal move */
    STEP_THINK,     /* the mover thinks (its timer) */
    STEP_MOVE,      /* the mover's move is out */
    STEP_HEAR,      /* waiting for the opponent's stream to tell the move */
    STEP_CHECK,     /* the game is over: its state must hold every move */
    STEP_FINAL,     /* the run is over: the same */
    STEP_RETRY,     /* a failed setup waits 200 ms */
    STEP_DONE,
};

struct player {
    char token[40], seat[24];
    struct conn c;
    struct stream s;
};

struct game {
    enum step step;
    struct player p[2];
    char id[40], move[64], next[64];
    int ply, mover;
    bool live, over, has_slot;
    double sent, acked, heard_by; /* the move's request and reply; the stream's limit */
    unsigned seed, timer_gen;
};

static struct game *games;
static int n_games, n_done, setup_used, *setup_queue, queue_head, queue_tail;

/* ---- Timers: a min-heap of (time, game, generation); a game's newer timer makes its
 * older entries stale (their generation no longer matches). */

struct timer {
    double at;
    int game;
    unsigned gen;
};

static struct timer *heap;
static size_t heap_len, heap_cap;

static void heap_swap(size_t a, size_t b)
{
    struct timer t = heap[a];
    heap[a] = heap[b];
    heap[b] = t;
}

static void timer_set(struct game *g, double at)
{
    if (heap_len == heap_cap) {
        heap_cap = heap_cap ? 2 * heap_cap : 4096;
        heap = realloc(heap, heap_cap * sizeof *heap);
        if (!heap)
            abort();
    }
    size_t i = heap_len++;
    heap[i] = (struct timer){at, (int)(g - games), ++g->timer_gen};
    while (i && heap[(i - 1) / 2].at > heap[i].at) {
        heap_swap(i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static struct timer timer_pop(void)
{
    struct timer top = heap[0];
    heap[0] = heap[--heap_len];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < heap_len && heap[l].at < heap[m].at)
            m = l;
        if (r < heap_len && heap[r].at < heap[m].at)
            m = r;
        if (m == i)
            break;
        heap_swap(i, m);
        i = m;
    }
    return top;
}

/* ---- The game's steps (the old thread-per-game client's loop, one step at a time) */

static void loop_top(struct game *g);
static void on_heard(struct game *g);
static void on_reply(struct game *g, struct conn *c);

static void reply_came(struct conn *c)
{
    on_reply(c->e.owner, c);
}

/* A stream read or broke: the game waiting for its move hears it. */
static void stream_news(struct stream *s)
{
    struct game *g = s->e.owner;
    if (g->step == STEP_HEAR && s == &g->p[1 - g->mover].s)
        on_heard(g);
}

static void setup_release(struct game *g)
{
    if (!g->has_slot)
        return;
    g->has_slot = false;
    setup_used--;
    while (queue_head != queue_tail && setup_used < SETUP_MAX)
        loop_top(&games[setup_queue[queue_head++ % n_games]]);
}

/* A game that failed: a setup waits 200 ms before it tries again, a game in play starts
 * a new one at once (as the old client did). */
static void fail(struct game *g, const char *what, int status, bool wait)
{
    error(what, status);
    g->live = false;
    setup_release(g);
    if (wait) {
        g->step = STEP_RETRY;
        timer_set(g, net_now() + 0.2);
    } else {
        loop_top(g);
    }
}

static void send_move(struct game *g)
{
    char body[96], path[128];
    snprintf(body, sizeof body, "{\"move\":\"%s\"}", g->move);
    snprintf(path, sizeof path, "/api/games/%s/moves", g->id);
    g->step = STEP_MOVE;
    g->sent = net_now();
    g->mover = g->ply % 2;
    net_request(&g->p[g->mover].c, "POST", path, g->p[g->mover].token, body);
}

static void think(struct game *g)
{
    if (pause_ms <= 0) {
        send_move(g);
        return;
    }
    g->step = STEP_THINK;
    int ms = (int)(rand_r(&g->seed) % (unsigned)(2 * pause_ms + 1));
    timer_set(g, net_now() + ms * 1e-3);
}

static void read_state(struct game *g, enum step step, struct player *p)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", g->id);
    g->step = step;
    net_request(&p->c, "GET", path, p->token, NULL);
}

static void play_turn(struct game *g)
{
    if (!g->move[0]) /* the game's first move: from the state */
        read_state(g, STEP_FIRST, &g->p[g->ply % 2]);
    else
        think(g);
}

/* The top of the old client's loop: the run's end, a new game, or the next move. */
static void loop_top(struct game *g)
{
    if (net_now() >= t_end) {
        setup_release(g);
        if (g->live) {
            read_state(g, STEP_FINAL, &g->p[0]);
        } else {
            g->step = STEP_DONE;
            n_done++;
        }
        return;
    }
    if (g->live) {
        play_turn(g);
        return;
    }
    if (!g->has_slot && setup_used >= SETUP_MAX) {
        g->step = STEP_QUEUED;
        setup_queue[queue_tail++ % n_games] = (int)(g - games);
        return;
    }
    if (!g->has_slot)
        setup_used++;
    g->has_slot = true;
    char body[256];
    snprintf(body, sizeof body,
             "{\"game\":\"%s\",\"clock\":{\"initial\":1800,\"increment\":0},\"side\":\"white\","
             "\"name\":\"Load A\"}",
             game);
    g->step = STEP_CHALLENGE;
    net_request(&g->p[0].c, "POST", "/api/challenges", g->p[0].token[0] ? g->p[0].token : NULL,
                body);
}

/* The move was heard on the opponent's stream (or the stream broke or went silent). */
static void on_heard(struct game *g)
{
    struct stream *s = &g->p[1 - g->mover].s;
    double now = net_now();
    if (s->heard_ply < g->ply) {
        if (s->broken) {
            fail(g, "the stream broke or was silent", g->ply, false);
        } else if (g->heard_by <= now) {
            if (s->last_rx + SILENT_S > now) {
                g->heard_by = s->last_rx + SILENT_S;
                timer_set(g, g->heard_by);
            } else {
                fail(g, "the stream broke or was silent", g->ply, false);
            }
        }
        return;
    }
    if (s->heard_ply != g->ply || strcmp(s->heard_move, g->move) != 0) {
        fail(g, "the stream told another move", g->ply, false);
        return;
    }
    g->timer_gen++; /* the silence timer is off */
    double t = s->heard_at > g->acked ? s->heard_at - g->acked : 0;
    if (g->acked > t_warm && n_samples < MAX_SAMPLES)
        samples[n_samples++] = t;
    if (g->over || !g->next[0]) {
        read_state(g, STEP_CHECK, &g->p[g->mover]);
        return;
    }
    snprintf(g->move, sizeof g->move, "%s", g->next);
    loop_top(g);
}

/* At the end of a game (or of the run): every acknowledged move is in its state. */
static void check_moves(struct conn *c, int acked)
{
    if (c->status != 200) {
        error("the final state", c->status);
        return;
    }
    long ply = net_int_field(c->body, "ply");
    if (ply != acked)
        lost += acked > ply ? (int)(acked - ply) : 1;
}

static void on_reply(struct game *g, struct conn *c)
{
    int st = c->status;
    const char *out = c->body;
    char cid[40], path[128];
    switch (g->step) {
    case STEP_CHALLENGE:
        if (st != 201)
            return fail(g, st > 0 ? out : "a challenge", st, true);
        net_field(out, "id", cid, sizeof cid);
        net_field(out, "token", g->p[0].token, sizeof g->p[0].token);
        g->step = STEP_ACCEPT;
        snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
        net_request(&g->p[1].c, "POST", path, g->p[1].token[0] ? g->p[1].token : NULL,
                    "{\"name\":\"Load B\"}");
        return;
    case STEP_ACCEPT:
        if (st != 200)
            return fail(g, st > 0 ? out : "an accept", st, true);
        net_field(out, "id", g->id, sizeof g->id);
        net_field(out, "token", g->p[1].token, sizeof g->p[1].token);
        net_field(out, "seat", g->p[1].seat, sizeof g->p[1].seat);
        read_state(g, STEP_SEAT, &g->p[0]);
        return;
    case STEP_SEAT:
        if (st != 200)
            return fail(g, st > 0 ? out : "the new game's state", st, true);
        net_field(out, "seat", g->p[0].seat, sizeof g->p[0].seat);
        for (int i = 0; i < 2; i++)
            if (net_stream_open(&g->p[i].s, g->id, g->p[i].seat) != 0)
                return fail(g, "a stream's request", 0, true);
        games_started++;
        setup_release(g);
        g->live = true;
        g->ply = 0;
        g->move[0] = 0;
        play_turn(g);
        return;
    case STEP_FIRST:
        if (st != 200)
            return fail(g, "the first state", st, false);
        net_field(strstr(out, "\"legal_moves\":["), "move", g->move, sizeof g->move);
        think(g);
        return;
    case STEP_MOVE: {
        g->acked = net_now();
        if (g->sent > t_warm && n_sends < MAX_SAMPLES)
            sends[n_sends++] = g->acked - g->sent;
        if (st != 200)
            return fail(g, st > 0 ? out : "a move", st, false);
        g->ply++;
        moves_total++;
        const char *status = strstr(out, "\"status\":{");
        g->over = strstr(status ? status : out, "\"over\":true") != NULL;
        /* The opponent's next move: the first legal move of the state after this one. */
        net_field(strstr(out, "\"legal_moves\":["), "move", g->next, sizeof g->next);
        g->step = STEP_HEAR;
        g->heard_by = g->acked + SILENT_S;
        timer_set(g, g->heard_by);
        on_heard(g);
        return;
    }
    case STEP_CHECK:
        check_moves(c, g->ply);
        g->live = false;
        loop_top(g);
        return;
    case STEP_FINAL:
        check_moves(c, g->ply);
        g->step = STEP_DONE;
        n_done++;
        return;
    default: return;
    }
}

static void on_timer(struct game *g)
{
    switch (g->step) {
    case STEP_THINK: send_move(g); return;
    case STEP_RETRY: loop_top(g); return;
    case STEP_HEAR: on_heard(g); return;
    default: return;
    }
}

/* ---- The run */

static void run(void)
{
    while (n_done < n_games) {
        double now = net_now();
        while (heap_len && heap[0].at <= now) {
            struct timer t = timer_pop();
            if (games[t.game].timer_gen == t.gen)
                on_timer(&games[t.game]);
        }
        int wait_ms = 100;
        if (heap_len) {
            double d = (heap[0].at - net_now()) * 1e3;
            wait_ms = d <= 0 ? 0 : d >= 100 ? 100 : (int)d + 1;
        }
        net_wait(wait_ms);
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr,
                "usage: loadtest-people PORT[,PORT2] [GAMES] [SECONDS] [GAME] [PAUSE_MS]\n");
        return 2;
    }
    char *next = NULL;
    ports[n_ports++] = (int)strtol(argv[1], &next, 10);
    if (*next == ',')
        ports[n_ports++] = atoi(next + 1);
    n_games = argc > 2 ? atoi(argv[2]) : 500;
    seconds = argc > 3 ? atoi(argv[3]) : 20;
    if (argc > 4)
        game = argv[4];
    pause_ms = argc > 5 ? atoi(argv[5]) : 0;
    if (n_games < 1) {
        fprintf(stderr, "loadtest-people: GAMES must be at least 1\n");
        return 2;
    }
    /* Four sockets a game: as many descriptors as this process may have. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    games = calloc((size_t)n_games, sizeof *games);
    setup_queue = calloc((size_t)n_games, sizeof *setup_queue);
    if (net_init(4 * n_games) != 0 || !games || !setup_queue) {
        fprintf(stderr, "loadtest-people: out of memory or descriptors\n");
        return 2;
    }
    for (int i = 0; i < n_games; i++) {
        struct game *g = &games[i];
        g->seed = (unsigned)(i + 1) * 2654435761u;
        for (int k = 0; k < 2; k++) {
            struct player *p = &g->p[k];
            int port = ports[k % n_ports];
            net_stream_init(&p->s, port, g, stream_news);
            if (net_conn_init(&p->c, port, g, reply_came) != 0)
                return 2;
        }
    }
    double t0 = net_now();
    t_warm = t0 + 1.0;
    t_end = t0 + seconds;
    for (int i = 0; i < n_games; i++)
        loop_top(&games[i]);
    run();
    double elapsed = net_now() - t0;
    int n = n_samples;
    qsort(samples, (size_t)n, sizeof samples[0], cmp);
    double p50 = n ? samples[n / 2] * 1e3 : 0, p99 = n ? samples[(int)(n * 0.99)] * 1e3 : 0;
    double mx = n ? samples[n - 1] * 1e3 : 0;
    printf("people games at once %d (%s, 30+0)%s, %d games started, %.1f s\n", n_games, game,
           n_ports > 1 ? " across 2 servers" : "", games_started, elapsed);
    printf("moves %d (%.0f/s); acknowledged move -> opponent's event: p50 %.2f ms, p99 %.2f ms, "
           "max %.2f ms (%d samples)\n",
           moves_total, moves_total / elapsed, p50, p99, mx, n);
    printf("errors %d, lost moves %d\n", errors, lost);
    if (getenv("LOADTEST_VERBOSE") && n_sends) {
        qsort(sends, (size_t)n_sends, sizeof sends[0], cmp);
        fprintf(stderr, "move requests (sent -> reply): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
                sends[n_sends / 2] * 1e3, sends[(int)(n_sends * 0.99)] * 1e3,
                sends[n_sends - 1] * 1e3);
    }
    return errors || lost ? 1 : 0;
}

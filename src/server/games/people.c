/* A game between two people in the model (people.h).  The clocks are never kept as
 * running counters: they are derived from the stored receipt time of every move, so a
 * restart, a kill -9, or another server on the same database computes the same. */
#include "server/games/people.h"
#include "server/games/presence_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/notify.h"
#include "server/common/stream_hub.h"
#include "server/common/token.h"
#include "server/games/deadline.h"
#include "server/games/people_rating.h"
#include "server/server_state.h"

/* The side that made ply k (1-based) of the n made: counted back from the side to move. */
static int mover(const struct session *s, int k)
{
    int now = (int)s->g->side_to_move(s->st);
    return (s->n_moves - k) % 2 == 0 ? 1 - now : now;
}

void people_clock(const struct session *s, int64_t now_ms, struct people_clock *c)
{
    memset(c, 0, sizeof *c);
    c->running = -1;
    const struct store_game *r = &s->row;
    bool realtime = r->clock_initial_ms > 0 || r->clock_increment_ms > 0;
    if (!r->people || (!realtime && r->days <= 0))
        return;
    c->on = true;
    int64_t per = realtime ? r->clock_initial_ms : r->days * PEOPLE_DAY_MS;
    /* A tournament's berserk (bit 0 white, bit 1 black): half the initial time, no
     * increment, for that side. */
    int64_t inc[2];
    for (int side = 0; side < 2; side++) {
        bool berserk = realtime && (r->berserk >> side & 1);
        c->left_ms[side] = berserk ? per / 2 : per;
        inc[side] = berserk ? 0 : r->clock_increment_ms;
    }
    int n = s->n_stored;
    /* Each side's first move is free: the clocks run from ply 2's receipt on. */
    for (int k = 3; k <= n; k++) {
        int side = mover(s, k);
        int64_t spent = s->move_ms[k - 1] - s->move_ms[k - 2];
        if (realtime)
            c->left_ms[side] += inc[side] - spent;
        else
            c->left_ms[side] = per; /* days a move: a fresh allowance after each move */
    }
    if (n < 2)
        return;
    int side = (int)s->g->side_to_move(s->st);
    bool over = session_over(s);
    int64_t since = s->move_ms[n - 1], end = over ? r->updated_ms : now_ms;
    if (!realtime)
        c->left_ms[side] = per;
    if (!over) {
        c->running = side;
        c->deadline_ms = since + c->left_ms[side];
    }
    if (end > since)
        c->left_ms[side] -= end - since;
    for (int i = 0; i < 2; i++)
        if (c->left_ms[i] < 0)
            c->left_ms[i] = 0;
}

bool people_both_moved(const struct session *s)
{
    return s->row.plies_max >= 2;
}

static int64_t later(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

void people_away(const struct session *s, int64_t now_ms, struct people_away *out)
{
    memset(out, 0, sizeof *out);
    out->side = -1;
    struct people_clock c;
    people_clock(s, now_ms, &c);
    if (!s->row.people || session_over(s) || c.running >= 0)
        return;
    int side = (int)s->g->side_to_move(s->st);
    int64_t need = s->srv->cfg.abandon_ms > 0 ? s->srv->cfg.abandon_ms : PEOPLE_ABANDON_MS;
    int64_t window = need < PEOPLE_PRESENT_MS ? need : PEOPLE_PRESENT_MS;
    /* Their turn began with the last move or takeback (the row's updated time), or the
     * game's start. */
    int64_t turn = later(s->row.created_ms, s->row.updated_ms);
    if (s->n_stored)
        turn = later(turn, s->move_ms[s->n_stored - 1]);
    int64_t seen = s->seen_ms[side];
    bool seated = s->srv->hub && stream_hub_seated(s->srv->hub, s->row.id, side);
    struct store_presence there; /* and on the other servers (presence.h) */
    if (presence_remote(s->srv, s->row.id, &there)) {
        seen = later(seen, there.seen_ms[side]);
        seated = seated || there.seated[side];
    }
    if (now_ms - seen < window || seated)
        return; /* present */
    int64_t gone = later(turn, seen);
    out->side = side;
    out->away_ms = now_ms > gone ? now_ms - gone : 0;
    out->claim_in_ms = gone + need > now_ms ? gone + need - now_ms : 0;
}

void people_seen(struct session *s, int side, int64_t now_ms)
{
    if (side == SIDE_WHITE || side == SIDE_BLACK)
        s->seen_ms[side] = later(s->seen_ms[side], now_ms);
}

int people_side(const struct session *s, const char *token_hash)
{
    if (!s->row.people || !token_hash)
        return -1;
    if (token_equal(token_hash, s->row.white_hash))
        return SIDE_WHITE;
    if (token_equal(token_hash, s->row.black_hash))
        return SIDE_BLACK;
    return -1;
}

static int reserve_times(struct session *s, int n)
{
    if (n <= s->cap_move_ms)
        return 0;
    int cap = s->cap_move_ms ? 2 * s->cap_move_ms : 64;
    while (cap < n)
        cap *= 2;
    int64_t *t = realloc(s->move_ms, sizeof *t * (size_t)cap);
    if (!t)
        return -1;
    s->move_ms = t;
    s->cap_move_ms = cap;
    return 0;
}

int people_load(struct session *s, char *err, size_t err_size)
{
    int64_t *times;
    int n;
    int rc = store_load_move_times(s->srv->store, s->row.id, &times, &n, err, err_size);
    if (rc != 0)
        return rc < 0 ? rc : -1;
    if (n != s->n_stored) {
        free(times);
        return fail(err, err_size, "game %s: %d move times for %d moves", s->row.id, n,
                    s->n_stored);
    }
    free(s->move_ms);
    s->move_ms = times;
    s->cap_move_ms = n;
    return 0;
}

void people_read_ids(struct session *s)
{
    const char *hash[2] = {s->row.white_hash, s->row.black_hash};
    for (int side = 0; side < 2; side++) {
        struct store_player p;
        char err[ERROR_TEXT_MAX];
        s->player_id[side][0] = 0;
        if (store_player_by_hash(s->srv->store, hash[side], &p, err, sizeof err) == 0 && !p.hidden)
            snprintf(s->player_id[side], sizeof s->player_id[side], "%s", p.id);
    }
}

void people_touch(struct session *s)
{
    s->version++;
    session_notify(s);
}

/* A move between people is stored with its time of receipt and the deadline it sets
 * (the policy's commit on session_move's one path). */
static int commit_people_move(struct session *s, const struct move_policy *p, char *err,
                              size_t err_size)
{
    if (reserve_times(s, s->n_moves) != 0)
        return fail(err, err_size, "out of memory");
    /* The clocks as they will be once it is stored: its time, then the deadline. */
    s->move_ms[s->n_moves - 1] = p->now_ms;
    s->n_stored = s->n_moves;
    s->row.updated_ms = p->now_ms;
    struct people_clock c;
    people_clock(s, p->now_ms, &c);
    int64_t deadline = c.running >= 0 ? c.deadline_ms : 0;
    session_attach_event(s);
    int rc =
        store_add_people_move(s->srv->store, s->row.id, s->n_moves, s->moves[s->n_moves - 1].text,
                              s->row.result, s->row.reason, p->now_ms, deadline, err, err_size);
    if (rc != 0)
        return rc < 0 ? rc : -1;
    s->row.plies = s->n_moves;
    if (s->row.plies_max < s->n_moves)
        s->row.plies_max = s->n_moves;
    s->row.deadline_ms = deadline;
    return 0;
}

/* A correspondence game: the player to move now hears of it wherever their pages are
 * open (API.md "Notifications"); a notification lost is not a move lost. */
static void notify_turn(struct session *s)
{
    int side = (int)s->g->side_to_move(s->st);
    const char *hash = side == SIDE_WHITE ? s->row.white_hash : s->row.black_hash;
    const char *by = side == SIDE_WHITE ? s->row.black_name : s->row.white_name;
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kstr(&j, "game_id", s->row.id);
    jout_kstr(&j, "game", s->row.game);
    jout_kstr(&j, "name", by);
    jout_kint(&j, "ply", s->n_moves);
    jout_close(&j, '}');
    char *body = jout_finish(&j), err[ERROR_TEXT_MAX];
    if (body && notify_player(s->srv, hash, NOTICE_YOUR_TURN, body, err, sizeof err) != 0)
        fprintf(stderr, "agora: notification of game %s: %s\n", s->row.id, err);
    free(body);
}

/* After the commit: a finished rated game is rated, the offers lapse, and the flag's
 * timer hears of the new deadline.  The move event then carries the clocks: no
 * `update`. */
static void people_move_committed(struct session *s, const struct move_policy *p)
{
    (void)p;
    if (s->row.rated && s->row.result != RESULT_ONGOING)
        people_rate(s->srv, s->row.id, &s->row.white_rating_after, &s->row.black_rating_after);
    s->row.draw_offer = s->row.takeback_offer = 0;
    deadline_kick(s->srv, s->row.deadline_ms);
    if (s->row.days > 0 && s->row.result == RESULT_ONGOING)
        notify_turn(s);
}

int people_move(struct session *s, Move m, int64_t now_ms, char *err, size_t err_size)
{
    const struct move_policy people = {
        .commit = commit_people_move, .committed = people_move_committed, .now_ms = now_ms};
    return session_move(s, m, &people, err, err_size);
}

/* The row's ending as the store has it now (another writer ended the game first). */
static void reload_row(struct session *s)
{
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    char err[ERROR_TEXT_MAX];
    if (store_load_game(s->srv->store, s->row.id, &row, &moves, &n, err, sizeof err) == 0) {
        s->row.result = row.result;
        s->row.reason = row.reason;
        s->row.updated_ms = row.updated_ms;
        s->row.deadline_ms = 0;
    }
    free(moves);
}

int people_end(struct session *s, enum result r, int reason, int64_t at_ms, char *err,
               size_t err_size)
{
    int rc = store_end_people_game(s->srv->store, s->row.id, (int)r, reason, at_ms, err, err_size);
    if (rc < 0)
        return rc;
    if (rc > 0) {
        reload_row(s);
    } else {
        s->row.result = (int)r;
        s->row.reason = reason;
        s->row.updated_ms = at_ms;
        s->row.deadline_ms = 0;
        s->row.draw_offer = s->row.takeback_offer = 0;
        if (s->row.rated)
            people_rate(s->srv, s->row.id, &s->row.white_rating_after, &s->row.black_rating_after);
    }
    people_touch(s);
    return rc;
}

int people_check_flag(struct session *s, int64_t now_ms, char *err, size_t err_size)
{
    if (!s->row.people)
        return 0;
    if (session_over(s))
        return 1;
    struct people_clock c;
    people_clock(s, now_ms, &c);
    if (c.running < 0 || c.left_ms[c.running] > 0)
        return 0;
    int other = 1 - c.running;
    enum result r = other == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    int reason = REASON_TIME;
    if (s->g->can_win && !s->g->can_win(s->st, (enum side)other)) {
        r = RESULT_DRAW;
        reason = REASON_TIMEOUT_DRAW;
    }
    /* Ended at the moment the flag fell, however late this is noticed (a restart). */
    int rc = people_end(s, r, reason, c.deadline_ms, err, err_size);
    return rc < 0 ? rc : 1;
}

int people_offers(struct session *s, int draw, int takeback, int rematch, const char *rematch_id,
                  char *err, size_t err_size)
{
    session_attach_event(s);
    int rc = store_set_offers(s->srv->store, s->row.id, draw, takeback, rematch, rematch_id,
                              server_now_ms(), err, err_size);
    if (rc != 0)
        return rc < 0 ? rc : -1;
    s->row.draw_offer = draw;
    s->row.takeback_offer = takeback;
    s->row.rematch_offer = rematch;
    snprintf(s->row.rematch_id, sizeof s->row.rematch_id, "%s", rematch_id ? rematch_id : "");
    people_touch(s);
    return 0;
}

int people_takeback(struct session *s, char *err, size_t err_size)
{
    if (s->n_stored < 1 || s->n_moves != s->n_stored)
        return fail(err, err_size, "no move to take back");
    int keep = s->n_stored - 1;
    Move last = s->g->history_move(s->st, s->g->ply(s->st) - 1);
    int64_t now = server_now_ms();
    session_attach_event(s);
    int rc = store_take_back(s->srv->store, s->row.id, keep, now, err, err_size);
    if (rc != 0)
        return rc < 0 ? rc : -1;
    s->g->unmake_move(s->st, last);
    s->n_moves = s->n_stored = keep;
    s->row.plies = keep;
    s->row.takebacks++;
    s->row.updated_ms = now; /* the store's too: the turn (and any time away) starts now */
    s->row.takeback_offer = 0;
    people_offers(s, s->row.draw_offer, 0, s->row.rematch_offer, s->row.rematch_id, err, err_size);
    session_notify(s);
    return 0;
}

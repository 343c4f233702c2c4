/* A game between people as JSON (people_json.h). */
#include "server/games/people_json.h"
#include "server/games/presence_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_out.h"
#include "server/common/stream_hub.h"
#include "server/games/people.h"
#include "server/games/people_rating.h"
#include "server/games/session.h"
#include "server/server_state.h"

/* The spectators watching the game now: its viewers' event streams, which the stream
 * hub counts (a stream does not keep its game in memory). */
static int viewers(const struct session *s)
{
    struct store_presence there; /* and on the other servers (presence.h) */
    int elsewhere = presence_remote(s->srv, s->row.id, &there) ? there.viewers : 0;
    return (s->srv->hub ? stream_hub_viewers(s->srv->hub, s->row.id) : 0) + elsewhere;
}

static const char *side_name(int side)
{
    return side == SIDE_BLACK ? "black" : "white";
}

static void side_or_null(struct jout *j, const char *key, int side)
{
    jout_key(j, key);
    if (side == SIDE_WHITE || side == SIDE_BLACK)
        jout_str(j, side_name(side));
    else
        jout_null(j);
}

void people_clock_out(struct jout *j, const struct session *s, int64_t now_ms)
{
    struct people_clock c;
    people_clock(s, now_ms, &c);
    jout_key(j, "clock");
    if (!c.on) {
        jout_null(j);
        return;
    }
    jout_open(j, '{');
    jout_kint(j, "initial", s->row.clock_initial_ms / 1000);
    jout_kint(j, "increment", s->row.clock_increment_ms / 1000);
    jout_kint(j, "days", s->row.days);
    jout_kint(j, "white", c.left_ms[SIDE_WHITE]);
    jout_kint(j, "black", c.left_ms[SIDE_BLACK]);
    side_or_null(j, "running", c.running);
    jout_kint(j, "now", now_ms);
    jout_close(j, '}');
}

static void offers_out(struct jout *j, const struct session *s)
{
    jout_key(j, "offers");
    jout_open(j, '{');
    side_or_null(j, "draw", s->row.draw_offer - 1);
    side_or_null(j, "takeback", s->row.takeback_offer - 1);
    side_or_null(j, "rematch", s->row.rematch_offer - 1);
    jout_close(j, '}');
    jout_key(j, "rematch_id");
    if (s->row.rematch_id[0])
        jout_str(j, s->row.rematch_id);
    else
        jout_null(j);
}

/* Abandonment (people_away): the side to move when it is away, how long, and whether the
 * other player may claim the win now (the page offers the claim only then). */
static void away_out(struct jout *j, const struct session *s, int64_t now_ms)
{
    struct people_away a;
    people_away(s, now_ms, &a);
    jout_key(j, "away");
    if (a.side >= 0) {
        jout_open(j, '{');
        jout_kstr(j, "side", side_name(a.side));
        jout_kint(j, "ms", a.away_ms);
        jout_kint(j, "claim_in", a.claim_in_ms);
        jout_close(j, '}');
    } else {
        jout_null(j);
    }
    jout_kbool(j, "claim_win", a.side >= 0 && a.claim_in_ms == 0);
}

void people_state_out(struct jout *j, const struct session *s, int viewer, int64_t now_ms)
{
    jout_kbool(j, "people", true);
    side_or_null(j, "you", viewer);
    if (viewer == SIDE_WHITE || viewer == SIDE_BLACK) {
        /* The seat key: the page's event stream names it (?seat=) to count as a player's. */
        char seat[17];
        memcpy(seat, viewer == SIDE_WHITE ? s->row.white_hash : s->row.black_hash, 16);
        seat[16] = 0;
        jout_kstr(j, "seat", seat);
    }
    jout_key(j, "players");
    jout_open(j, '{');
    for (int side = SIDE_WHITE; side <= SIDE_BLACK; side++) {
        jout_key(j, side_name(side));
        jout_open(j, '{');
        jout_kstr(j, "name", side == SIDE_WHITE ? s->row.white_name : s->row.black_name);
        if (s->player_id[side][0]) /* their page: /#/player/ID */
            jout_kstr(j, "id", s->player_id[side]);
        jout_key(j, "rating"); /* at the start of a rated game */
        if (s->row.rated)
            jout_int(j, side == SIDE_WHITE ? s->row.white_rating : s->row.black_rating);
        else
            jout_null(j);
        int after = side == SIDE_WHITE ? s->row.white_rating_after : s->row.black_rating_after;
        jout_key(j, "rating_after"); /* once the result is in the ratings */
        if (s->row.rated && after)
            jout_int(j, after);
        else
            jout_null(j);
        jout_close(j, '}');
    }
    jout_close(j, '}');
    jout_kbool(j, "rated", s->row.rated != 0);
    /* Asked rated, played unrated: the two had played their rated games of the day. */
    jout_kbool(j, "rated_capped", s->row.rated_capped != 0);
    const char *klass =
        people_clock_class(s->row.clock_initial_ms, s->row.clock_increment_ms, s->row.days);
    jout_key(j, "rating_class");
    if (klass)
        jout_str(j, klass);
    else
        jout_null(j);
    /* A tournament's game: its tournament (the page links back) and who berserked. */
    jout_key(j, "tournament");
    if (s->row.tournament_id[0]) {
        jout_open(j, '{');
        jout_kstr(j, "id", s->row.tournament_id);
        jout_kbool(j, "berserk_white", s->row.berserk & 1);
        jout_kbool(j, "berserk_black", s->row.berserk & 2);
        jout_close(j, '}');
    } else {
        jout_null(j);
    }
    /* Before both sides have moved the game can only be aborted (and is never rated). */
    jout_kbool(j, "can_abort", !session_over(s) && !people_both_moved(s));
    people_clock_out(j, s, now_ms);
    offers_out(j, s);
    jout_kint(j, "viewers", viewers(s));
    away_out(j, s, now_ms);
}

size_t event_update_text(const struct session *s, char *buf, size_t size)
{
    struct jout j;
    jout_init(&j, 512);
    jout_open(&j, '{');
    jout_kint(&j, "ply", s->n_stored);
    people_clock_out(&j, s, server_now_ms());
    offers_out(&j, s);
    jout_kint(&j, "viewers", viewers(s));
    away_out(&j, s, server_now_ms());
    jout_close(&j, '}');
    char *data = jout_finish(&j);
    int n = snprintf(buf, size, "event: update\ndata: %s\n\n", data ? data : "{}");
    free(data);
    return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

void challenge_out(struct jout *j, const struct store_challenge *c, int64_t now_ms)
{
    static const char *const status[] = {"open", "accepted", "cancelled"};
    jout_open(j, '{');
    jout_kstr(j, "id", c->id);
    jout_kstr(j, "game", c->game);
    jout_key(j, "clock");
    if (c->clock_initial_ms > 0 || c->clock_increment_ms > 0) {
        jout_open(j, '{');
        jout_kint(j, "initial", c->clock_initial_ms / 1000);
        jout_kint(j, "increment", c->clock_increment_ms / 1000);
        jout_close(j, '}');
    } else {
        jout_null(j);
    }
    jout_key(j, "days");
    if (c->days > 0)
        jout_int(j, c->days);
    else
        jout_null(j);
    jout_kstr(j, "side", c->side == 2 ? "random" : side_name(c->side));
    jout_kbool(j, "rated", c->rated != 0);
    jout_kbool(j, "lobby", c->lobby != 0);
    jout_kstr(j, "name", c->creator_name);
    jout_key(j, "rating");
    if (c->rated)
        jout_int(j, c->creator_rating);
    else
        jout_null(j);
    const char *klass = people_clock_class(c->clock_initial_ms, c->clock_increment_ms, c->days);
    jout_key(j, "rating_class");
    if (klass)
        jout_str(j, klass);
    else
        jout_null(j);
    const char *st = c->status >= 0 && c->status <= 2 ? status[c->status] : "?";
    if (c->status == CHALLENGE_OPEN && c->expires_ms <= now_ms)
        st = "expired";
    jout_kstr(j, "status", st);
    jout_key(j, "game_id");
    if (c->game_id[0])
        jout_str(j, c->game_id);
    else
        jout_null(j);
    jout_kint(j, "expires", c->expires_ms);
    jout_close(j, '}');
}

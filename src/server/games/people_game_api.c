/* The operations on a game between two people (people_game_api.h): each with the
 * acting side's token, after the flag's check. */
#include "server/games/people_game_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "server/common/api_util.h"
#include "server/common/ratelimit.h"
#include "server/common/token.h"
#include "server/games/move_ply.h"
#include "server/games/people.h"
#include "server/games/people_rating.h"
#include "server/games/session.h"
#include "server/games/state_json.h"
#include "server/server_state.h"

#define SEAT_LEN 16 /* hex digits of a player's seat key */

/* The side of the request's token in s, or -1 (a spectator). */
static int request_side(const struct api_request *req, const struct session *s)
{
    const char *tok = api_bearer(req);
    if (!tok || !token_well_formed(tok))
        return -1;
    char hash[STORE_HASH_LEN + 1];
    token_hash(tok, hash);
    int side = people_side(s, hash);
    /* Not the token of either player: it may be a device's, standing for one. */
    if (side < 0 && api_bearer_hash(s->srv, req, hash) == 0)
        side = people_side(s, hash);
    return side;
}

int people_stream_seat(const struct api_request *req, const struct session *s)
{
    int side = s->row.people ? request_side(req, s) : -1;
    /* A browser's EventSource sends no header: a player's page names its seat key
     * (?seat=, the first digits of its token's hash, which act for nobody). */
    const char *seat = req->seat;
    if (side < 0 && s->row.people && seat && strspn(seat, "0123456789abcdef") >= SEAT_LEN) {
        if (!strncmp(seat, s->row.white_hash, SEAT_LEN))
            side = SIDE_WHITE;
        else if (!strncmp(seat, s->row.black_hash, SEAT_LEN))
            side = SIDE_BLACK;
    }
    return side;
}

static void reply(struct session *s, int side, const char *note, struct api_response *r)
{
    api_set_text(r, 200, state_text_as(s, side, NULL, note));
}

static int end_or_fail(struct session *s, enum result res, int reason, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int rc = people_end(s, res, reason, server_now_ms(), err, sizeof err);
    if (rc < 0)
        api_store_error(r, rc, "%s", err);
    else if (rc > 0)
        api_set_error_code(r, 409, "game_over", "the game is over");
    return rc;
}

static enum result win_for(int side)
{
    return side == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
}

static void op_move(struct session *s, int side, json_t *body, int64_t now, struct api_response *r)
{
    json_t *jm = json_object_get(body, "move");
    char err[ERROR_TEXT_MAX];
    if (!json_is_string(jm)) {
        api_set_error(r, 400, "missing \"move\": expected {\"move\": \"<move text>\"}");
        return;
    }
    Move m;
    if (json_string_length(jm) >= MOVE_TEXT_MAX ||
        strlen(json_string_value(jm)) != json_string_length(jm)) {
        api_set_error_code(r, 400, "illegal_move",
                           "illegal move: the move text is too long or holds a NUL");
        return;
    }
    if (s->g->parse_move(s->st, json_string_value(jm), &m, err, sizeof err) != 0) {
        api_set_error_code(r, 400, "illegal_move", "%s", err);
        return;
    }
    int rc = people_move(s, m, now, err, sizeof err);
    if (rc != 0) {
        /* Perhaps another server stored a move of this ply first: the next request
         * loads the game again (cache_get). */
        atomic_store(&s->stale, true);
        api_store_error(r, rc, "your move could not be stored: %s", err);
        return;
    }
    reply(s, side, NULL, r);
}

/* "answer": "accept" | "decline" | absent (an offer or request). */
static int answer_of(json_t *body, struct api_response *r)
{
    json_t *ja = json_object_get(body, "answer");
    const char *a = json_is_string(ja) ? json_string_value(ja) : NULL;
    if (!ja || json_is_null(ja))
        return 0;
    if (a && !strcmp(a, "accept"))
        return 1;
    if (a && !strcmp(a, "decline"))
        return 2;
    api_set_error(r, 400, "bad \"answer\": expected \"accept\" or \"decline\"");
    return -1;
}

/* A draw offer of `side`'s from the request's address: within the limits a minute?
 * (Each is an event to the opponent; API.md "Limits of games between people".) */
static bool draw_offer_allowed(struct server *srv, const struct api_request *req,
                               const struct session *s, int side, struct api_response *r)
{
    int rc = ratelimit_take_pair(srv->draws_by_addr, req->client, srv->draws_by_token,
                                 side == SIDE_WHITE ? s->row.white_hash : s->row.black_hash,
                                 server_now_ms());
    if (rc)
        api_set_error_code(r, 429, "too_many_draws",
                           "too many draw offers from this %s: at most %d a minute; wait a minute",
                           rc == 1 ? "address" : "player",
                           rc == 1 ? 3 * srv->cfg.draw_offers_per_minute
                                   : srv->cfg.draw_offers_per_minute);
    return rc == 0;
}

static void op_draw(struct server *srv, const struct api_request *req, struct session *s, int side,
                    json_t *body, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int answer = answer_of(body, r);
    if (answer < 0)
        return;
    if (!people_both_moved(s)) { /* no draw, rated or not, for a game not yet played */
        api_set_error_code(r, 409, "abort_only",
                           "before both sides have moved the game can only be aborted");
        return;
    }
    bool theirs = s->row.draw_offer == 2 - side; /* the opponent's offer stands */
    if (answer && !theirs) {
        api_set_error_code(r, 409, "no_offer", "no draw offer of your opponent's to answer");
        return;
    }
    if (answer == 2) {
        int rc = people_offers(s, 0, s->row.takeback_offer, s->row.rematch_offer, s->row.rematch_id,
                               err, sizeof err);
        if (rc != 0)
            api_store_error(r, rc, "%s", err);
        else
            reply(s, side, "declined", r);
        return;
    }
    if (theirs) { /* accepting, or offering back: agreed */
        if (end_or_fail(s, RESULT_DRAW, REASON_AGREEMENT, r) == 0)
            reply(s, side, "accepted", r);
        return;
    }
    if (!draw_offer_allowed(srv, req, s, side, r))
        return;
    int rc = people_offers(s, side + 1, s->row.takeback_offer, s->row.rematch_offer,
                           s->row.rematch_id, err, sizeof err);
    if (rc != 0)
        api_store_error(r, rc, "%s", err);
    else
        reply(s, side, "offered", r);
}

static void op_claim(struct session *s, int side, json_t *body, struct api_response *r)
{
    struct game_status gs;
    session_status(s, &gs);
    json_t *jc = json_object_get(body, "claim");
    const char *want = json_is_string(jc) ? json_string_value(jc) : NULL;
    unsigned kind = want ? game_word_code(s->g->claim_names, want) : 0, pick = gs.claims;
    if ((want && !kind) || (jc && !json_is_null(jc) && !want)) {
        api_set_error(r, 400, "bad \"claim\": expected a claim the game names");
        return;
    }
    if (kind)
        pick &= kind;
    struct game_status end;
    if (!pick || !s->g->claim_draw || s->g->claim_draw(s->st, pick, &end) != 0) {
        api_set_error_code(r, 409, "no_claim", "no claim available");
        return;
    }
    if (end_or_fail(s, end.result, end.reason, r) == 0)
        reply(s, side, NULL, r);
}

static void op_takeback(struct session *s, int side, json_t *body, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int answer = answer_of(body, r);
    if (answer < 0)
        return;
    struct people_clock c;
    people_clock(s, server_now_ms(), &c);
    if (c.on) {
        api_set_error_code(r, 409, "no_takeback_clock", "no takebacks in a game on the clock");
        return;
    }
    if (!answer) {
        /* Asked by whoever made the last move (it is the opponent's turn). */
        if (s->n_stored < 1 || (int)s->g->side_to_move(s->st) == side) {
            api_set_error_code(r, 409, "no_takeback", "no move of yours to take back");
            return;
        }
        int rc = people_offers(s, s->row.draw_offer, side + 1, s->row.rematch_offer,
                               s->row.rematch_id, err, sizeof err);
        if (rc != 0)
            api_store_error(r, rc, "%s", err);
        else
            reply(s, side, NULL, r);
        return;
    }
    if (s->row.takeback_offer != 2 - side) {
        api_set_error_code(r, 409, "no_offer", "no takeback request of your opponent's to answer");
        return;
    }
    int rc = answer == 1 ? people_takeback(s, err, sizeof err)
                         : people_offers(s, s->row.draw_offer, 0, s->row.rematch_offer,
                                         s->row.rematch_id, err, sizeof err);
    if (rc != 0)
        api_store_error(r, rc, "%s", err);
    else
        reply(s, side, NULL, r);
}

static void op_claim_win(struct server *srv, struct session *s, int side, int64_t now,
                         struct api_response *r)
{
    struct people_clock c;
    people_clock(s, now, &c);
    int64_t need = srv->cfg.abandon_ms > 0 ? srv->cfg.abandon_ms : PEOPLE_ABANDON_MS;
    struct people_away away;
    people_away(s, now, &away);
    if ((int)s->g->side_to_move(s->st) == side) {
        api_set_error_code(r, 409, "claim_own_move", "it is your own move");
        return;
    }
    if (c.running >= 0) {
        api_set_error_code(r, 409, "claim_clock_runs",
                           "the clock runs: the game ends when your opponent's time is up");
        return;
    }
    if (away.side < 0) {
        api_set_error_code(r, 409, "opponent_present",
                           "your opponent is here: their page is open or was seen just now");
        return;
    }
    if (away.claim_in_ms > 0) {
        api_set_error_code(r, 409, "opponent_not_away",
                           "your opponent has been away less than %lld seconds",
                           (long long)(need / 1000));
        return;
    }
    /* Barely started (before both have moved): aborted, not won. */
    bool barely = !people_both_moved(s);
    if (end_or_fail(s, barely ? RESULT_DRAW : win_for(side),
                    barely ? REASON_ABORTED : REASON_ABANDONED, r) == 0)
        reply(s, side, NULL, r);
}

static void op_rematch(struct server *srv, struct session *s, int side, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    if (s->row.rematch_id[0]) {
        reply(s, side, NULL, r);
        return;
    }
    if (s->row.rematch_offer != 2 - side) {
        int rc = people_offers(s, 0, 0, side + 1, "", err, sizeof err);
        if (rc != 0)
            api_store_error(r, rc, "%s", err);
        else
            reply(s, side, NULL, r);
        return;
    }
    /* Both asked: a challenge of the first asker, colours swapped, taken by this side,
     * so the new game is made as every game between people is. */
    int asker = 1 - side;
    struct store_challenge c;
    memset(&c, 0, sizeof c);
    int64_t now = server_now_ms();
    snprintf(c.game, sizeof c.game, "%s", s->g->name);
    c.clock_initial_ms = s->row.clock_initial_ms;
    c.clock_increment_ms = s->row.clock_increment_ms;
    c.days = s->row.days;
    c.rated = s->row.rated;
    c.side = side; /* the asker now plays this side's old colour */
    const char *asker_hash = asker == SIDE_WHITE ? s->row.white_hash : s->row.black_hash;
    const char *my_hash = side == SIDE_WHITE ? s->row.white_hash : s->row.black_hash;
    snprintf(c.creator_hash, sizeof c.creator_hash, "%s", asker_hash);
    snprintf(c.creator_name, sizeof c.creator_name, "%s",
             asker == SIDE_WHITE ? s->row.white_name : s->row.black_name);
    c.created_ms = now;
    c.expires_ms = now + 60000;
    struct store_game g;
    if (token_random_hex(c.id, STORE_ID_LEN / 2) != 0 ||
        people_game_row(srv, &c, my_hash,
                        side == SIDE_WHITE ? s->row.white_name : s->row.black_name, now, &g) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    int rc = store_put_challenge(srv->store, &c, err, sizeof err);
    if (rc == 0)
        rc = store_accept_challenge(srv->store, c.id, my_hash, &g, now, err, sizeof err);
    if (rc == 0)
        rc = people_offers(s, 0, 0, 0, g.id, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "the rematch could not be made: %s", err);
        return;
    }
    reply(s, side, NULL, r);
}

static void game_op(struct server *srv, const struct api_request *req, struct session *s, int side,
                    const char *op, json_t *body, int64_t now, struct api_response *r);

void people_game_op(struct server *srv, const struct api_request *req, struct session *s,
                    const char *op, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int64_t now = server_now_ms();
    /* A flag that fell ends the game before anything else is looked at. */
    int rc = people_check_flag(s, now, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    int side = request_side(req, s);
    people_seen(s, side, now); /* present: not away (people_away) */
    if (!*op || !strcmp(op, "record") || !strcmp(op, "events")) {
        api_set_text(r, 200, state_text_as(s, side, NULL, NULL));
        return;
    }
    if (side < 0) {
        if (api_bearer(req))
            api_set_error_code(r, 403, "wrong_token",
                               "wrong token for this game: only its two players change it");
        else
            api_set_error_code(r, 403, "no_token",
                               "missing token: send 'Authorization: Bearer <token>'");
        return;
    }
    bool move = !strcmp(op, "moves");
    json_t *body = NULL;
    /* A move's "ply" is judged first: a retry of the move this player just made comes
     * when the turn is the opponent's, or the game is over by it. */
    if (move && (body = api_body_object(req, false, r))) {
        enum move_ply retry = move_ply_judge(s, body, side, r);
        if (retry == MOVE_PLY_MADE)
            reply(s, side, NULL, r);
        if (retry != MOVE_PLY_NEXT) {
            json_decref(body);
            return;
        }
    }
    /* A move or a claim is the side to move's: the other player's token is refused
     * like a stranger's (issue 17: "each with the mover's own token"), whatever its
     * body says. */
    if ((move || !strcmp(op, "claim")) && !session_over(s) &&
        (int)s->g->side_to_move(s->st) != side) {
        free(r->body); /* a malformed body's 400: the turn's refusal comes first */
        r->body = NULL;
        api_set_error_code(r, 403, "not_your_turn",
                           "not your move: only the side to move may %s, with its own token",
                           move ? "move" : "claim");
    } else if (move ? body != NULL : (body = api_body_object(req, true, r)) != NULL) {
        game_op(srv, req, s, side, op, body, now, r);
    }
    json_decref(body);
}

static void game_op(struct server *srv, const struct api_request *req, struct session *s, int side,
                    const char *op, json_t *body, int64_t now, struct api_response *r)
{
    bool over = session_over(s);
    if (!strcmp(op, "rematch")) {
        if (!over)
            api_set_error_code(r, 409, "game_not_over", "the game is not over");
        else
            op_rematch(srv, s, side, r);
        return;
    }
    if (over) {
        api_set_error_code(r, 409, "game_over", "the game is over");
        return;
    }
    if (!strcmp(op, "moves"))
        op_move(s, side, body, now, r);
    else if (!strcmp(op, "resign")) {
        /* Before both sides have moved a game can only be aborted: resigning aborts it
         * (never a rated loss). */
        bool both = people_both_moved(s);
        if (end_or_fail(s, both ? win_for(1 - side) : RESULT_DRAW,
                        both ? REASON_RESIGNATION : REASON_ABORTED, r) == 0)
            reply(s, side, NULL, r);
    } else if (!strcmp(op, "draw"))
        op_draw(srv, req, s, side, body, r);
    else if (!strcmp(op, "claim"))
        op_claim(s, side, body, r);
    else if (!strcmp(op, "takeback"))
        op_takeback(s, side, body, r);
    else if (!strcmp(op, "abort")) {
        if (people_both_moved(s)) /* ever: takebacks do not reopen it */
            api_set_error_code(r, 409, "too_late_to_abort",
                               "too late to abort: both sides have moved");
        else if (end_or_fail(s, RESULT_DRAW, REASON_ABORTED, r) == 0)
            reply(s, side, NULL, r);
    } else if (!strcmp(op, "claim-win"))
        op_claim_win(srv, s, side, now, r);
    else
        api_set_error(r, 404, "no such operation '%s'", op);
}

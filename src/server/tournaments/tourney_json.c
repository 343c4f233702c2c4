/* A tournament as JSON (tourney_json.h). */
#include "server/tournaments/tourney_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "server/server_state.h"
#include "server/tournaments/arena.h"
#include "server/tournaments/swiss_play.h"

#define GAMES_SHOWN 60 /* the latest games in the view */
#define DEFAULT_FIRST_MOVE_MS 30000

const char *tourney_status_name(int status)
{
    return status == TOURNEY_RUNNING    ? "running"
           : status == TOURNEY_FINISHED ? "finished"
                                        : "upcoming";
}

static const char *state_name(int state)
{
    return state == ENTRANT_PAUSED ? "paused" : state == ENTRANT_WITHDRAWN ? "withdrawn" : "active";
}

static void rating_or_null(struct jout *j, const char *key, int v)
{
    jout_key(j, key);
    if (v > 0)
        jout_int(j, v);
    else
        jout_null(j);
}

void tourney_summary(struct jout *j, const struct store_tournament *t, int players)
{
    jout_open(j, '{');
    jout_kstr(j, "id", t->id);
    jout_kstr(j, "kind", t->kind == TOURNEY_SWISS ? "swiss" : "arena");
    jout_kstr(j, "name", t->name);
    jout_kstr(j, "game", t->game);
    jout_key(j, "clock");
    if (t->clock_initial_ms || t->clock_increment_ms) {
        jout_open(j, '{');
        jout_kint(j, "initial", t->clock_initial_ms / 1000);
        jout_kint(j, "increment", t->clock_increment_ms / 1000);
        jout_close(j, '}');
    } else {
        jout_null(j);
    }
    jout_key(j, "days");
    if (t->days)
        jout_int(j, t->days);
    else
        jout_null(j);
    jout_kbool(j, "rated", t->rated);
    jout_kint(j, "starts", t->starts_ms);
    if (t->kind == TOURNEY_ARENA) {
        jout_kint(j, "ends", tourney_end_ms(t));
        jout_kint(j, "duration", t->duration_ms);
    } else {
        jout_kint(j, "rounds", t->rounds);
        jout_kint(j, "round", t->round);
    }
    rating_or_null(j, "min_rating", t->min_rating);
    rating_or_null(j, "max_rating", t->max_rating);
    jout_key(j, "club");
    if (t->club_id[0])
        jout_str(j, t->club_id);
    else
        jout_null(j);
    jout_kstr(j, "creator", t->creator_name);
    jout_kstr(j, "status", tourney_status_name(t->status));
    jout_kint(j, "players", players);
    jout_close(j, '}');
}

static void player_ref(struct jout *j, const struct tourney_data *d, const char *hash,
                       const char *name)
{
    int i = tourney_entrant(d, hash);
    jout_open(j, '{');
    jout_kstr(j, "name", i >= 0 ? d->e[i].name : name);
    jout_key(j, "id");
    if (i >= 0 && d->e[i].player_id[0])
        jout_str(j, d->e[i].player_id);
    else
        jout_null(j);
    jout_close(j, '}');
}

static const char *winner_name(int result)
{
    return result == RESULT_WHITE_WINS   ? "white"
           : result == RESULT_BLACK_WINS ? "black"
           : result == RESULT_DRAW       ? "draw"
                                         : NULL;
}

static void game_out(struct jout *j, const struct tourney_data *d, const struct store_game *g)
{
    jout_open(j, '{');
    jout_kstr(j, "id", g->id);
    jout_key(j, "white");
    player_ref(j, d, g->white_hash, g->white_name);
    jout_key(j, "black");
    player_ref(j, d, g->black_hash, g->black_name);
    jout_key(j, "result");
    const char *res = winner_name(g->result);
    if (res && g->reason != REASON_ABORTED)
        jout_str(j, res);
    else if (g->result != RESULT_ONGOING)
        jout_str(j, "aborted");
    else
        jout_null(j);
    jout_kint(j, "plies", g->plies);
    jout_kbool(j, "berserk_white", g->berserk & 1);
    jout_kbool(j, "berserk_black", g->berserk & 2);
    jout_kbool(j, "counts", d->t.kind != TOURNEY_ARENA || arena_counts(g, tourney_end_ms(&d->t)));
    jout_kint(j, "round", g->round);
    jout_close(j, '}');
}

static void games_out(struct jout *j, const struct tourney_data *d)
{
    jout_key(j, "games");
    jout_open(j, '[');
    for (int k = d->m - 1, shown = 0; k >= 0 && shown < GAMES_SHOWN; k--, shown++)
        game_out(j, d, &d->g[k]);
    jout_close(j, ']');
}

/* A number of hundredths as text: "3", "3.5", "3.25". */
static void hundredths(struct jout *j, const char *key, long v)
{
    char buf[32];
    if (v % 100 == 0)
        snprintf(buf, sizeof buf, "%ld", v / 100);
    else if (v % 10 == 0)
        snprintf(buf, sizeof buf, "%ld.%ld", v / 100, (v % 100) / 10);
    else
        snprintf(buf, sizeof buf, "%ld.%02ld", v / 100, v % 100);
    jout_kstr(j, key, buf);
}

struct swiss_line {
    int number; /* pairing number */
    long score, tb[4];
};

static int by_swiss_rank(const void *pa, const void *pb)
{
    const struct swiss_line *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    for (int k = 0; k < 4; k++)
        if (a->tb[k] != b->tb[k])
            return a->tb[k] > b->tb[k] ? -1 : 1;
    return a->number - b->number;
}

/* A Swiss's standings: points, then the tie-breaks in the order the page names them
 * (Buchholz cut 1, Buchholz, Sonneborn-Berger, wins: FIDE C.07), the byes, the round,
 * and the viewer's place and game. */
static int swiss_standings(struct jout *j, const struct tourney_data *d, const char *viewer)
{
    struct tswiss ts;
    if (tswiss_build(d, d->t.round, &ts) != 0)
        return -1;
    int n = d->n, rounds = ts.t->rounds_played;
    struct swiss_line *l = malloc(sizeof *l * (size_t)(n ? n : 1));
    if (!l) {
        tswiss_free(&ts);
        return -1;
    }
    static const enum swiss_tiebreak order[4] = {SWISS_TB_BUCHHOLZ_CUT1, SWISS_TB_BUCHHOLZ,
                                                 SWISS_TB_SONNEBORN_BERGER, SWISS_TB_WINS};
    for (int k = 0; k < n; k++) {
        l[k].number = k + 1;
        l[k].score = swiss_score(ts.t, k + 1, rounds) * 10; /* tenths to hundredths */
        for (int b = 0; b < 4; b++)
            l[k].tb[b] = swiss_tiebreak(ts.t, k + 1, rounds, order[b]);
    }
    qsort(l, (size_t)n, sizeof *l, by_swiss_rank);
    jout_kstr(j, "tiebreaks", "BH-C1,BH,SB,WIN");
    jout_key(j, "standings");
    jout_open(j, '[');
    int mine = viewer && viewer[0] ? tourney_entrant(d, viewer) : -1, my_rank = 0;
    for (int k = 0; k < n; k++) {
        int i = ts.entrant_of[l[k].number - 1];
        const struct store_entrant *e = &d->e[i];
        if (i == mine)
            my_rank = k + 1;
        jout_open(j, '{');
        jout_kint(j, "rank", k + 1);
        jout_kint(j, "number", l[k].number);
        jout_kstr(j, "name", e->name);
        jout_key(j, "id");
        if (e->player_id[0])
            jout_str(j, e->player_id);
        else
            jout_null(j);
        jout_kint(j, "rating", e->rating);
        hundredths(j, "points", l[k].score);
        hundredths(j, "bh_c1", l[k].tb[0]);
        hundredths(j, "bh", l[k].tb[1]);
        hundredths(j, "sb", l[k].tb[2]);
        jout_kint(j, "wins", l[k].tb[3]);
        jout_kstr(j, "state", state_name(e->state));
        jout_close(j, '}');
    }
    jout_close(j, ']');
    jout_key(j, "byes");
    jout_open(j, '[');
    for (int k = 0; k < d->n_byes; k++) {
        int i = tourney_entrant(d, d->byes[k].hash);
        jout_open(j, '{');
        jout_kint(j, "round", d->byes[k].round);
        jout_kstr(j, "name", i >= 0 ? d->e[i].name : "");
        jout_close(j, '}');
    }
    jout_close(j, ']');
    jout_key(j, "podium");
    jout_open(j, '[');
    for (int k = 0; d->t.status == TOURNEY_FINISHED && k < n && k < 3; k++) {
        jout_open(j, '{');
        jout_kint(j, "rank", k + 1);
        jout_kstr(j, "name", d->e[ts.entrant_of[l[k].number - 1]].name);
        hundredths(j, "points", l[k].score);
        jout_close(j, '}');
    }
    jout_close(j, ']');
    jout_key(j, "me");
    if (mine < 0) {
        jout_null(j);
    } else {
        jout_open(j, '{');
        jout_kstr(j, "state", state_name(d->e[mine].state));
        jout_kint(j, "rank", my_rank);
        jout_key(j, "game");
        const struct store_game *on = NULL;
        for (int k = d->m - 1; k >= 0 && !on; k--)
            if (d->g[k].result == RESULT_ONGOING &&
                (!strcmp(d->g[k].white_hash, viewer) || !strcmp(d->g[k].black_hash, viewer)))
                on = &d->g[k];
        if (on) {
            jout_open(j, '{');
            jout_kstr(j, "id", on->id);
            jout_kstr(j, "side", !strcmp(on->white_hash, viewer) ? "white" : "black");
            jout_close(j, '}');
        } else {
            jout_null(j);
        }
        jout_close(j, '}');
    }
    free(l);
    tswiss_free(&ts);
    return 0;
}

char *tourney_view(struct server *srv, const struct tourney_data *d, const char *viewer,
                   int64_t now_ms)
{
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_key(&j, "tournament");
    tourney_summary(&j, &d->t, d->n);
    jout_kint(&j, "now", now_ms);
    int64_t first = srv->cfg.first_move_ms > 0 ? srv->cfg.first_move_ms : DEFAULT_FIRST_MOVE_MS;
    if (d->t.days > 0) /* as the director: days a move give the first move its days */
        first = d->t.days * 86400000LL;
    jout_key(&j, "rules");
    jout_open(&j, '{');
    jout_kint(&j, "win", ARENA_WIN);
    jout_kint(&j, "draw", ARENA_DRAW);
    jout_kint(&j, "fire_after", ARENA_FIRE_AFTER);
    jout_kint(&j, "berserk_moves", ARENA_BERSERK_MOVES);
    jout_kint(&j, "early_draw_moves", ARENA_EARLY_DRAW_PLIES / 2);
    jout_kint(&j, "first_move_seconds", first / 1000);
    jout_close(&j, '}');

    if (d->t.kind == TOURNEY_SWISS) {
        if (swiss_standings(&j, d, viewer) != 0) {
            free(jout_finish(&j));
            return NULL;
        }
        games_out(&j, d);
        jout_close(&j, '}');
        return jout_finish(&j);
    }
    struct arena_line *lines = malloc(sizeof *lines * (size_t)(d->n > 0 ? d->n : 1));
    if (!lines) {
        free(jout_finish(&j));
        return NULL;
    }
    arena_standings(d->e, d->n, d->g, d->m, tourney_end_ms(&d->t), lines);
    int mine = viewer && viewer[0] ? tourney_entrant(d, viewer) : -1;
    const struct arena_line *my_line = NULL;
    jout_key(&j, "standings");
    jout_open(&j, '[');
    for (int i = 0; i < d->n; i++) {
        const struct arena_line *l = &lines[i];
        const struct store_entrant *e = &d->e[l->entrant];
        if (l->entrant == mine)
            my_line = l;
        jout_open(&j, '{');
        jout_kint(&j, "rank", l->rank);
        jout_kstr(&j, "name", e->name);
        jout_key(&j, "id");
        if (e->player_id[0])
            jout_str(&j, e->player_id);
        else
            jout_null(&j);
        jout_kint(&j, "rating", e->rating);
        jout_kint(&j, "score", l->score);
        jout_kint(&j, "games", l->games);
        jout_kint(&j, "wins", l->wins);
        jout_kint(&j, "draws", l->draws);
        jout_kint(&j, "losses", l->losses);
        jout_kint(&j, "berserks", l->berserks);
        jout_kbool(&j, "fire", l->fire);
        jout_kstr(&j, "state", state_name(e->state));
        jout_kbool(&j, "playing", l->playing);
        jout_key(&j, "sheet");
        jout_open(&j, '[');
        for (int k = 0; k < l->n_sheet; k++) {
            jout_open(&j, '[');
            jout_int(&j, l->sheet[k]);
            jout_bool(&j, l->fire_sheet[k]);
            jout_close(&j, ']');
        }
        jout_close(&j, ']');
        jout_close(&j, '}');
    }
    jout_close(&j, ']');

    games_out(&j, d);

    jout_key(&j, "podium");
    jout_open(&j, '[');
    for (int i = 0; d->t.status == TOURNEY_FINISHED && i < d->n && i < 3; i++)
        if (lines[i].games > 0) {
            jout_open(&j, '{');
            jout_kint(&j, "rank", lines[i].rank);
            jout_kstr(&j, "name", d->e[lines[i].entrant].name);
            jout_kint(&j, "score", lines[i].score);
            jout_close(&j, '}');
        }
    jout_close(&j, ']');

    jout_key(&j, "me");
    if (mine < 0) {
        jout_null(&j);
    } else {
        jout_open(&j, '{');
        jout_kstr(&j, "state", state_name(d->e[mine].state));
        jout_kint(&j, "rank", my_line ? my_line->rank : 0);
        jout_key(&j, "game");
        const struct store_game *on = NULL;
        for (int k = d->m - 1; k >= 0 && !on; k--)
            if (d->g[k].result == RESULT_ONGOING &&
                (!strcmp(d->g[k].white_hash, viewer) || !strcmp(d->g[k].black_hash, viewer)))
                on = &d->g[k];
        if (on) {
            jout_open(&j, '{');
            jout_kstr(&j, "id", on->id);
            jout_kstr(&j, "side", !strcmp(on->white_hash, viewer) ? "white" : "black");
            jout_close(&j, '}');
        } else {
            jout_null(&j);
        }
        jout_close(&j, '}');
    }
    jout_close(&j, '}');
    free(lines);
    return jout_finish(&j);
}

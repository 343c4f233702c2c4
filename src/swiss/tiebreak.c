/* Tie-breaks of FIDE C.07 (Play-off and tie-break regulations, 2024, with the 2026
 * caps of article 16.4): Buchholz, Buchholz cut 1, Sonneborn-Berger, wins.
 *
 * Unplayed rounds (C.07 article 16).  A round not played over the board is, by 16.2:
 *   16.2.1 a pairing-allocated or full-point bye;
 *   16.2.2 a forfeit win;
 *   16.2.3 a requested bye (half or zero point) or an absence, followed by at least one
 *          round that is not a voluntary unplayed round;
 *   16.2.4 a forfeit loss;
 *   16.2.5 a requested bye or an absence followed only by voluntary unplayed rounds, or
 *          in the last round counted.
 * Voluntary unplayed rounds (VUR, 16.1.2) are 16.2.3, 16.2.4 and 16.2.5.
 *
 * 16.3: where a participant is someone's opponent, the participant's score is adjusted:
 * a 16.2.5 round counts as a draw, every other round with the points it gave.
 * 16.4: in a participant's own tie-breaks, an unplayed round is a game against a dummy
 * whose score is the participant's own score, but at most the scheduled opponent's
 * adjusted score after a forfeit (16.4.1), and at most a draw's points times the
 * rounds of the tournament otherwise (16.4.2); the dummy is scored as the round was
 * (a bye or forfeit win a win, a half-point bye a draw).
 * 16.5: Cut-1 cuts the lowest contribution of a VUR when there is one (it is never below
 * the least significant value), otherwise the least significant value. */
#include "swiss/swiss.h"

enum unplayed { PLAYED, CAT_BYE, CAT_FORFEIT_WIN, CAT_REQUESTED, CAT_FORFEIT_LOSS, CAT_TO_END };

static int is_requested(enum swiss_result r)
{
    return r == SWISS_BYE_HALF || r == SWISS_BYE_ZERO || r == SWISS_NONE;
}

/* A voluntary unplayed round (16.1.2): a requested bye, an absence, a forfeit loss. */
static int is_vur(const struct swiss_game *g)
{
    return !swiss_played(g) && (is_requested(g->result) || g->result == SWISS_FORFEIT_LOSS);
}

/* The category (16.2) of round r of a player, among the first `rounds`. */
static enum unplayed category(const struct swiss_player *p, int r, int rounds)
{
    const struct swiss_game *g = &p->games[r];
    if (swiss_played(g))
        return PLAYED;
    switch (g->result) {
    case SWISS_BYE_PAIRING:
    case SWISS_BYE_FULL: return CAT_BYE;
    case SWISS_FORFEIT_WIN: return CAT_FORFEIT_WIN;
    case SWISS_FORFEIT_LOSS: return CAT_FORFEIT_LOSS;
    default: break;
    }
    for (int k = r + 1; k < rounds; k++)
        if (!is_vur(&p->games[k]))
            return CAT_REQUESTED;
    return CAT_TO_END;
}

/* The adjusted score (16.3) of player `id` after `rounds` rounds, in tenths. */
static SwissPoints adjusted_score(const struct swiss_tournament *t, int id, int rounds)
{
    const struct swiss_player *p = &t->players[id - 1];
    SwissPoints s = 0;
    for (int r = 0; r < rounds; r++)
        s += category(p, r, rounds) == CAT_TO_END
                 ? t->points.draw
                 : swiss_result_points(&t->points, p->games[r].result);
    return s;
}

/* The fraction of a win that result r is worth, in tenths (10 a win, 5 a draw). */
static long result_tenths(const struct swiss_tournament *t, enum swiss_result r)
{
    SwissPoints win = t->points.win > 0 ? t->points.win : 10;
    SwissPoints got = swiss_result_points(&t->points, r);
    if (r == SWISS_WIN || r == SWISS_FORFEIT_WIN || r == SWISS_BYE_PAIRING || r == SWISS_BYE_FULL)
        return 10;
    if (r == SWISS_DRAW || r == SWISS_BYE_HALF)
        return 5;
    if (r == SWISS_LOSS || r == SWISS_FORFEIT_LOSS || r == SWISS_BYE_ZERO || r == SWISS_NONE)
        return 0;
    return (long)got * 10 / win;
}

long swiss_tiebreak(const struct swiss_tournament *t, int id, int rounds, enum swiss_tiebreak tb)
{
    const struct swiss_player *p = &t->players[id - 1];
    if (rounds > t->rounds_played)
        rounds = t->rounds_played;
    SwissPoints own = swiss_score(t, id, rounds);
    int tournament_rounds = t->rounds_total > rounds ? t->rounds_total : rounds;
    SwissPoints draw_cap = t->points.draw * tournament_rounds;
    long sum = 0, lowest = -1, lowest_vur = -1, count = 0;
    for (int r = 0; r < rounds; r++) {
        const struct swiss_game *g = &p->games[r];
        enum unplayed cat = category(p, r, rounds);
        SwissPoints opp;
        if (cat == PLAYED) {
            opp = adjusted_score(t, g->opponent, rounds);
        } else {
            SwissPoints cap = draw_cap;
            if ((cat == CAT_FORFEIT_WIN || cat == CAT_FORFEIT_LOSS) && g->opponent > 0 &&
                g->opponent <= t->n_players)
                cap = adjusted_score(t, g->opponent, rounds);
            opp = own < cap ? own : cap;
        }
        long v = 10L * opp; /* hundredths */
        switch (tb) {
        case SWISS_TB_BUCHHOLZ:
        case SWISS_TB_BUCHHOLZ_CUT1:
            sum += v;
            if (lowest < 0 || v < lowest)
                lowest = v;
            if (is_vur(g) && (lowest_vur < 0 || v < lowest_vur))
                lowest_vur = v;
            break;
        case SWISS_TB_SONNEBORN_BERGER: sum += v * result_tenths(t, g->result) / 10; break;
        case SWISS_TB_WINS: count += result_tenths(t, g->result) == 10; break;
        case SWISS_TB_GAMES_WON: count += cat == PLAYED && g->result == SWISS_WIN; break;
        }
    }
    if (tb == SWISS_TB_WINS || tb == SWISS_TB_GAMES_WON)
        return count;
    if (tb == SWISS_TB_BUCHHOLZ_CUT1)
        sum -= lowest_vur >= 0 ? lowest_vur : lowest >= 0 ? lowest : 0;
    return sum;
}

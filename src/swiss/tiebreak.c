/* Tie-breaks of FIDE C.07 (2023 regulations): Buchholz, Buchholz cut 1,
 * Sonneborn-Berger, wins.
 *
 * Unplayed rounds (C.07 article 16): a round the participant did not play over the
 * board (a bye of any kind, a forfeit either way, an absence) counts in the
 * participant's own Buchholz and Sonneborn-Berger as a game against a dummy opponent
 * whose score is the participant's own score, scored as it was scored (a
 * pairing-allocated bye or a forfeit win as a win, a half-point bye as a draw).  In
 * Buchholz cut 1 the lowest contribution is dropped (among equal lowest values, which
 * one does not matter).  Opponents' scores are their scores as they stand. */
#include "swiss/swiss.h"

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
    long sum = 0, lowest = -1, count = 0;
    for (int r = 0; r < rounds; r++) {
        const struct swiss_game *g = &p->games[r];
        int played = swiss_played(g);
        long opp = 10L * (played ? swiss_score(t, g->opponent, rounds) : own); /* hundredths */
        switch (tb) {
        case SWISS_TB_BUCHHOLZ:
        case SWISS_TB_BUCHHOLZ_CUT1:
            sum += opp;
            if (lowest < 0 || opp < lowest)
                lowest = opp;
            break;
        case SWISS_TB_SONNEBORN_BERGER: sum += opp * result_tenths(t, g->result) / 10; break;
        case SWISS_TB_WINS: count += result_tenths(t, g->result) == 10; break;
        case SWISS_TB_GAMES_WON: count += played && g->result == SWISS_WIN; break;
        }
    }
    if (tb == SWISS_TB_WINS || tb == SWISS_TB_GAMES_WON)
        return count;
    if (tb == SWISS_TB_BUCHHOLZ_CUT1 && lowest >= 0)
        sum -= lowest;
    return sum;
}

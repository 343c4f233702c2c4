/* Ending a match game early when both engines agree on its outcome, as engine
 * testers do (cutechess's -resign and -draw): a game both sides score as won for
 * one of them for several moves running is given to that side, and a long game both
 * score as level for several moves running is drawn.  Saves the clock time of
 * playing out decided games; the thresholds make a wrong verdict very rare. */
#pragma once

/* The rules; a count of 0 turns that rule off. */
struct match_adjudication {
    int resign_moves, resign_score; /* each side's last N scores >= S (winner), <= -S (loser) */
    int draw_from_move;             /* full-move number from which draws are adjudicated */
    int draw_moves, draw_score;     /* both sides' last N scores within +-S */
};

/* One game's running counts. */
struct match_adjudicator {
    int winning[2], losing[2]; /* by side: consecutive own scores beyond +-resign_score */
    int level;                 /* consecutive plies scored within +-draw_score */
};

enum match_verdict {
    MATCH_VERDICT_NONE,
    MATCH_VERDICT_WHITE_WINS,
    MATCH_VERDICT_BLACK_WINS,
    MATCH_VERDICT_DRAW
};

/* After `side` (0 White, 1 Black) moved at full-move number `move_number`, scoring
 * the position `score` for itself before its move (has_score 0: it reported none,
 * which breaks every run).  Returns the verdict, if any. */
enum match_verdict match_adjudicate(struct match_adjudicator *a,
                                    const struct match_adjudication *rules, int side, int has_score,
                                    int score, int move_number);

/* Parse "MOVES,SCORE" (resign) or "FROM,MOVES,SCORE" (draw) into `rules`: 0, or -1
 * for text that is not that. */
int match_adjudication_parse_resign(struct match_adjudication *rules, const char *text);
int match_adjudication_parse_draw(struct match_adjudication *rules, const char *text);

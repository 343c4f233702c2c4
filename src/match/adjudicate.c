/* Adjudication of match games: see match_adjudicate.h. */
#include "adjudicate.h"

#include <stdio.h>
#include <stdlib.h>

enum match_verdict match_adjudicate(struct match_adjudicator *a,
                                    const struct match_adjudication *rules, int side, int has_score,
                                    int score, int move_number)
{
    int other = !side;
    if (!has_score) {
        a->winning[side] = a->losing[side] = a->level = 0;
        return MATCH_VERDICT_NONE;
    }
    a->winning[side] = score >= rules->resign_score ? a->winning[side] + 1 : 0;
    a->losing[side] = score <= -rules->resign_score ? a->losing[side] + 1 : 0;
    a->level = abs(score) <= rules->draw_score ? a->level + 1 : 0;
    if (rules->resign_moves > 0) {
        int n = rules->resign_moves;
        if (a->winning[side] >= n && a->losing[other] >= n)
            return side == 0 ? MATCH_VERDICT_WHITE_WINS : MATCH_VERDICT_BLACK_WINS;
        if (a->losing[side] >= n && a->winning[other] >= n)
            return side == 0 ? MATCH_VERDICT_BLACK_WINS : MATCH_VERDICT_WHITE_WINS;
    }
    if (rules->draw_moves > 0 && move_number >= rules->draw_from_move &&
        a->level >= 2 * rules->draw_moves)
        return MATCH_VERDICT_DRAW;
    return MATCH_VERDICT_NONE;
}

/* Comma-separated whole numbers, each 1..max: the count read, or -1. */
static int parse_numbers(const char *text, long *out, int count, long max)
{
    const char *p = text;
    for (int i = 0; i < count; i++) {
        char *end;
        out[i] = strtol(p, &end, 10);
        if (end == p || out[i] < 1 || out[i] > max)
            return -1;
        if (i + 1 < count && *end != ',')
            return -1;
        p = end + (i + 1 < count);
        if (i + 1 == count && *end)
            return -1;
    }
    return count;
}

int match_adjudication_parse_resign(struct match_adjudication *rules, const char *text)
{
    long v[2];
    if (parse_numbers(text, v, 2, 100000) != 2 || v[0] > 1000)
        return -1;
    rules->resign_moves = (int)v[0];
    rules->resign_score = (int)v[1];
    return 0;
}

int match_adjudication_parse_draw(struct match_adjudication *rules, const char *text)
{
    long v[3];
    if (parse_numbers(text, v, 3, 100000) != 3 || v[0] > 10000 || v[1] > 1000)
        return -1;
    rules->draw_from_move = (int)v[0];
    rules->draw_moves = (int)v[1];
    rules->draw_score = (int)v[2];
    return 0;
}

#include "uci_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "search/engine.h"

#define UCI_DEFAULT_HASH_MB 16
#define UCI_MAX_HASH_MB 1024
#define UCI_MAX_THREADS 64
#define UCI_MAX_MULTIPV 256
/* Move Overhead: 50 ms, not the customary 10.  At 1+0.01 the clock settles where a
 * move's cost equals the increment, so the overhead is the whole reserve against a
 * scheduling delay; on the shared 2-core machine (load 7-8) `agora match` at 1+0.01
 * with --time-margin 0 saw 3 time losses in 20 games without it and none with it. */
#define UCI_DEFAULT_OVERHEAD_MS 50
#define UCI_MAX_OVERHEAD_MS 5000
#define UCI_SKILL_MAX 20

/* UCI_Elo for chess, on the scale of Stockfish 15.1's own UCI_Elo (the one GUIs use)
 * at 5+0.05, one thread each, 100 games per anchor, session 4 (src/search/NOTES.md):
 * level 4 scored 24% against UCI_Elo 1350 (about 1150), level 6 52% against 1700
 * (about 1710), level 7 11.5% against 2100 and 37.5% against 1900 (about 1800),
 * level 2 0% against 1350 (over 500 below).  The levels between and below come from the
 * self-play gaps (5 v 4 +238 and 6 v 5 +200 share the measured 560; 4 v 3 +402, 3 v 2
 * +282, 2 v 1 +418).  Level 8 beat level 7 in all of 64 games, at least +530: its
 * rating is that lower bound. */
static const int level_elo[ENGINE_LEVEL_MAX] = {50, 450, 750, 1150, 1450, 1700, 1800, 2350};
#define UCI_ELO_MIN 50
#define UCI_ELO_MAX 2350
#define UCI_ELO_DEFAULT 1500

enum opt_type { OPT_SPIN, OPT_CHECK, OPT_STRING, OPT_BUTTON, OPT_COMBO };

struct option_def {
    const char *name;
    enum opt_type type;
    int def, min, max;
    size_t field; /* offsetof the value in struct uci_options (not for buttons) */
    int chess_only;
    enum uci_effect effect;
};

#define FIELD(f) offsetof(struct uci_options, f)

/* By enum engine_algo; "chess" (the dedicated chess search) is alpha-beta elsewhere. */
static const char *const algo_names[] = {"auto", "alphabeta", "mcts", "chess"};

static const struct option_def options[] = {
    {"Hash", OPT_SPIN, UCI_DEFAULT_HASH_MB, 1, UCI_MAX_HASH_MB, FIELD(hash_mb), 0, UCI_EFFECT_HASH},
    {"Threads", OPT_SPIN, 1, 1, UCI_MAX_THREADS, FIELD(threads), 0, UCI_EFFECT_NONE},
    {"MultiPV", OPT_SPIN, 1, 1, UCI_MAX_MULTIPV, FIELD(multipv), 0, UCI_EFFECT_NONE},
    {"Move Overhead", OPT_SPIN, UCI_DEFAULT_OVERHEAD_MS, 0, UCI_MAX_OVERHEAD_MS,
     FIELD(move_overhead_ms), 0, UCI_EFFECT_NONE},
    {"Ponder", OPT_CHECK, 0, 0, 1, FIELD(ponder), 0, UCI_EFFECT_NONE},
    {"UCI_LimitStrength", OPT_CHECK, 0, 0, 1, FIELD(limit_strength), 1, UCI_EFFECT_NONE},
    {"UCI_Elo", OPT_SPIN, UCI_ELO_DEFAULT, UCI_ELO_MIN, UCI_ELO_MAX, FIELD(elo), 1,
     UCI_EFFECT_NONE},
    {"Skill Level", OPT_SPIN, UCI_SKILL_MAX, 0, UCI_SKILL_MAX, FIELD(skill), 0, UCI_EFFECT_NONE},
    {"OwnBook", OPT_CHECK, 0, 0, 1, FIELD(own_book), 1, UCI_EFFECT_BOOK},
    {"BookFile", OPT_STRING, 0, 0, 0, FIELD(book_file), 1, UCI_EFFECT_BOOK},
    {"Clear Hash", OPT_BUTTON, 0, 0, 0, 0, 0, UCI_EFFECT_CLEAR_HASH},
    {"Level", OPT_SPIN, 0, 0, ENGINE_LEVEL_MAX, FIELD(level), 0, UCI_EFFECT_NONE},
    {"Algorithm", OPT_COMBO, ENGINE_ALGO_AUTO, 0, 2, FIELD(algo), 0, UCI_EFFECT_NONE},
};
#define NOPTIONS (sizeof options / sizeof options[0])

static int is_chess(const struct game *g)
{
    return !strcmp(g->name, "chess");
}

static int offered(const struct option_def *d, const struct game *g)
{
    return !d->chess_only || is_chess(g);
}

static int *int_field(struct uci_options *o, const struct option_def *d)
{
    return (int *)(void *)((char *)o + d->field);
}

void uci_options_default(struct uci_options *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < NOPTIONS; i++)
        if (options[i].type != OPT_BUTTON && options[i].type != OPT_STRING)
            *int_field(o, &options[i]) = options[i].def;
    snprintf(o->book_file, sizeof o->book_file, "%s", UCI_DEFAULT_BOOK);
}

int uci_option_line(const struct game *g, int i, char *buf, size_t size)
{
    int seen = -1;
    for (size_t k = 0; k < NOPTIONS; k++) {
        const struct option_def *d = &options[k];
        if (!offered(d, g) || ++seen != i)
            continue;
        switch (d->type) {
        case OPT_SPIN:
            snprintf(buf, size, "option name %s type spin default %d min %d max %d", d->name,
                     d->def, d->min, d->max);
            break;
        case OPT_CHECK:
            snprintf(buf, size, "option name %s type check default %s", d->name,
                     d->def ? "true" : "false");
            break;
        case OPT_STRING:
            snprintf(buf, size, "option name %s type string default %s", d->name, UCI_DEFAULT_BOOK);
            break;
        case OPT_BUTTON: snprintf(buf, size, "option name %s type button", d->name); break;
        case OPT_COMBO:
            snprintf(buf, size, "option name %s type combo default %s var %s var %s var %s var %s",
                     d->name, algo_names[d->def], algo_names[0], algo_names[1], algo_names[2],
                     algo_names[3]);
            break;
        }
        return 1;
    }
    return 0;
}

static int parse_spin(const struct option_def *d, const char *value, int *out, char *err,
                      size_t err_size)
{
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value || *end || v < d->min || v > d->max)
        return fail(err, err_size, "%s is a whole number from %d to %d, not '%.40s'", d->name,
                    d->min, d->max, value);
    *out = (int)v;
    return 0;
}

static int parse_value(const struct option_def *d, struct uci_options *o, const char *value,
                       char *err, size_t err_size)
{
    int v = 0;
    switch (d->type) {
    case OPT_BUTTON: return 0;
    case OPT_SPIN:
        if (parse_spin(d, value, &v, err, err_size))
            return -1;
        break;
    case OPT_CHECK:
        if (!strcasecmp(value, "true"))
            v = 1;
        else if (strcasecmp(value, "false") != 0)
            return fail(err, err_size, "%s is true or false, not '%.40s'", d->name, value);
        break;
    case OPT_COMBO:
        for (v = 0; v < (int)(sizeof algo_names / sizeof algo_names[0]); v++)
            if (!strcasecmp(value, algo_names[v]))
                break;
        if (v == (int)(sizeof algo_names / sizeof algo_names[0]))
            return fail(err, err_size, "%s is auto, alphabeta, mcts or chess, not '%.40s'", d->name,
                        value);
        break;
    case OPT_STRING:
        if (!*value || !strcmp(value, "<empty>"))
            return fail(err, err_size, "%s needs a file name", d->name);
        if (strlen(value) >= UCI_PATH_MAX)
            return fail(err, err_size, "%s is longer than %d bytes", d->name, UCI_PATH_MAX - 1);
        snprintf((char *)o + d->field, UCI_PATH_MAX, "%s", value);
        return 0;
    }
    *int_field(o, d) = v;
    return 0;
}

int uci_option_set(struct uci_options *o, const struct game *g, const char *name, const char *value,
                   enum uci_effect *effect, char *err, size_t err_size)
{
    const struct option_def *d = NULL;
    for (size_t k = 0; k < NOPTIONS && !d; k++)
        if (offered(&options[k], g) && !strcasecmp(options[k].name, name))
            d = &options[k];
    if (!d)
        return fail(err, err_size, "unknown option '%.40s'", name);
    if (d->type != OPT_BUTTON && !value)
        return fail(err, err_size, "%s needs a value", d->name);
    struct uci_options next = *o;
    if (parse_value(d, &next, value, err, err_size))
        return -1;
    /* Level and Skill Level are two scales for one setting: the last one set wins. */
    if (!strcmp(d->name, "Skill Level"))
        next.level = uci_skill_level(next.skill);
    *o = next;
    *effect = d->effect;
    return 0;
}

int uci_play_level(const struct uci_options *o, const struct game *g)
{
    if (o->limit_strength && is_chess(g))
        return uci_elo_level(o->elo);
    return o->level;
}

int uci_level_elo(int level)
{
    if (level < ENGINE_LEVEL_MIN)
        level = ENGINE_LEVEL_MIN;
    if (level > ENGINE_LEVEL_MAX)
        level = ENGINE_LEVEL_MAX;
    return level_elo[level - 1];
}

int uci_elo_level(int elo)
{
    int best = ENGINE_LEVEL_MIN;
    for (int l = ENGINE_LEVEL_MIN; l <= ENGINE_LEVEL_MAX; l++)
        if (abs(level_elo[l - 1] - elo) < abs(level_elo[best - 1] - elo))
            best = l;
    return best;
}

int uci_skill_level(int skill)
{
    if (skill >= UCI_SKILL_MAX)
        return 0;
    if (skill < 0)
        skill = 0;
    return ENGINE_LEVEL_MIN + skill * (ENGINE_LEVEL_MAX - ENGINE_LEVEL_MIN) / (UCI_SKILL_MAX - 1);
}

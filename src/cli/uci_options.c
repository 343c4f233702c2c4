#include "uci_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "engines/engine.h"
#include "engines/profile.h"

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

/* UCI_Elo's range is the game's level ratings (its engine profile's); a new engine
 * starts at the level nearest this rating. */
#define UCI_ELO_DEFAULT 1500

enum opt_type { OPT_SPIN, OPT_CHECK, OPT_STRING, OPT_BUTTON, OPT_COMBO };
/* Options offered only for a game whose engine profile has level ratings or books. */
enum uci_need { NEED_NONE, NEED_RATINGS, NEED_BOOK };

struct option_def {
    const char *name;
    enum opt_type type;
    int def, min, max;
    size_t field;       /* offsetof the value in struct uci_options (not for buttons) */
    enum uci_need need; /* what the game's engine profile must offer */
    enum uci_effect effect;
};

#define FIELD(f) offsetof(struct uci_options, f)

static const struct option_def options[] = {
    {"Hash", OPT_SPIN, UCI_DEFAULT_HASH_MB, 1, UCI_MAX_HASH_MB, FIELD(hash_mb), 0, UCI_EFFECT_HASH},
    {"Threads", OPT_SPIN, 1, 1, UCI_MAX_THREADS, FIELD(threads), 0, UCI_EFFECT_NONE},
    {"MultiPV", OPT_SPIN, 1, 1, UCI_MAX_MULTIPV, FIELD(multipv), 0, UCI_EFFECT_NONE},
    {"Move Overhead", OPT_SPIN, UCI_DEFAULT_OVERHEAD_MS, 0, UCI_MAX_OVERHEAD_MS,
     FIELD(move_overhead_ms), 0, UCI_EFFECT_NONE},
    {"Ponder", OPT_CHECK, 0, 0, 1, FIELD(ponder), 0, UCI_EFFECT_NONE},
    {"UCI_LimitStrength", OPT_CHECK, 0, 0, 1, FIELD(limit_strength), NEED_RATINGS, UCI_EFFECT_NONE},
    {"UCI_Elo", OPT_SPIN, UCI_ELO_DEFAULT, 0, 0, FIELD(elo), NEED_RATINGS, UCI_EFFECT_NONE},
    {"Skill Level", OPT_SPIN, UCI_SKILL_MAX, 0, UCI_SKILL_MAX, FIELD(skill), 0, UCI_EFFECT_NONE},
    {"OwnBook", OPT_CHECK, 0, 0, 1, FIELD(own_book), NEED_BOOK, UCI_EFFECT_BOOK},
    {"BookFile", OPT_STRING, 0, 0, 0, FIELD(book_file), NEED_BOOK, UCI_EFFECT_BOOK},
    {"Clear Hash", OPT_BUTTON, 0, 0, 0, 0, 0, UCI_EFFECT_CLEAR_HASH},
    {"Level", OPT_SPIN, 0, 0, ENGINE_LEVEL_MAX, FIELD(level), 0, UCI_EFFECT_NONE},
    {"Algorithm", OPT_COMBO, ENGINE_ALGO_AUTO, 0, 2, FIELD(algo), 0, UCI_EFFECT_NONE},
};
#define NOPTIONS (sizeof options / sizeof options[0])

static int offered(const struct option_def *d, const struct game *g)
{
    const struct engine_profile *p = engine_profile_of(g);
    return d->need == NEED_NONE ||
           (d->need == NEED_RATINGS && p->level_elo && !p->level_elo_own_scale) ||
           (d->need == NEED_BOOK && p->book);
}

/* A spin's range: UCI_Elo's is the game's level ratings. */
static void spin_range(const struct option_def *d, const struct game *g, int *def, int *min,
                       int *max)
{
    *def = d->def, *min = d->min, *max = d->max;
    if (d->need == NEED_RATINGS && d->type == OPT_SPIN) {
        const struct engine_profile *p = engine_profile_of(g);
        *min = engine_level_elo(p, ENGINE_LEVEL_MIN);
        *max = engine_level_elo(p, ENGINE_LEVEL_MAX);
        *def = *def < *min ? *min : *def > *max ? *max : *def;
    }
}

static const char *default_book(const struct game *g)
{
    const char *path = engine_book_default(engine_profile_of(g));
    return path ? path : "";
}

static int *int_field(struct uci_options *o, const struct option_def *d)
{
    return (int *)(void *)((char *)o + d->field);
}

void uci_options_default(struct uci_options *o, const struct game *g)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < NOPTIONS; i++)
        if (options[i].type != OPT_BUTTON && options[i].type != OPT_STRING) {
            int def, min, max;
            spin_range(&options[i], g, &def, &min, &max);
            *int_field(o, &options[i]) = def;
        }
    snprintf(o->book_file, sizeof o->book_file, "%s", default_book(g));
}

int uci_option_line(const struct game *g, int i, char *buf, size_t size)
{
    int seen = -1;
    for (size_t k = 0; k < NOPTIONS; k++) {
        const struct option_def *d = &options[k];
        if (!offered(d, g) || ++seen != i)
            continue;
        int def, min, max;
        spin_range(d, g, &def, &min, &max);
        const struct engine_profile *p = engine_profile_of(g);
        char vars[128];
        switch (d->type) {
        case OPT_SPIN:
            snprintf(buf, size, "option name %s type spin default %d min %d max %d", d->name, def,
                     min, max);
            break;
        case OPT_CHECK:
            snprintf(buf, size, "option name %s type check default %s", d->name,
                     d->def ? "true" : "false");
            break;
        case OPT_STRING:
            snprintf(buf, size, "option name %s type string default %s", d->name, default_book(g));
            break;
        case OPT_BUTTON: snprintf(buf, size, "option name %s type button", d->name); break;
        case OPT_COMBO:
            engine_algo_list(p, " var ", vars, sizeof vars);
            snprintf(buf, size, "option name %s type combo default %s var %s", d->name,
                     engine_algo_name(p, (enum engine_algo)def), vars);
            break;
        }
        return 1;
    }
    return 0;
}

static int parse_spin(const struct option_def *d, const struct game *g, const char *value, int *out,
                      char *err, size_t err_size)
{
    int def, min, max;
    spin_range(d, g, &def, &min, &max);
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value || *end || v < min || v > max)
        return fail(err, err_size, "%s is a whole number from %d to %d, not '%.40s'", d->name, min,
                    max, value);
    *out = (int)v;
    return 0;
}

static int parse_value(const struct option_def *d, const struct game *g, struct uci_options *o,
                       const char *value, char *err, size_t err_size)
{
    int v = 0;
    enum engine_algo algo;
    char names[128];
    switch (d->type) {
    case OPT_BUTTON: return 0;
    case OPT_SPIN:
        if (parse_spin(d, g, value, &v, err, err_size))
            return -1;
        break;
    case OPT_CHECK:
        if (!strcasecmp(value, "true"))
            v = 1;
        else if (strcasecmp(value, "false") != 0)
            return fail(err, err_size, "%s is true or false, not '%.40s'", d->name, value);
        break;
    case OPT_COMBO:
        if (engine_algo_parse(engine_profile_of(g), value, &algo) != 0) {
            engine_algo_list(engine_profile_of(g), ", ", names, sizeof names);
            return fail(err, err_size, "%s is one of %s, not '%.40s'", d->name, names, value);
        }
        v = (int)algo;
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
    if (parse_value(d, g, &next, value, err, err_size))
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
    const struct engine_profile *p = engine_profile_of(g);
    if (o->limit_strength && p->level_elo && !p->level_elo_own_scale)
        return engine_elo_level(p, o->elo);
    return o->level;
}

int uci_skill_level(int skill)
{
    if (skill >= UCI_SKILL_MAX)
        return 0;
    if (skill < 0)
        skill = 0;
    return ENGINE_LEVEL_MIN + skill * (ENGINE_LEVEL_MAX - ENGINE_LEVEL_MIN) / (UCI_SKILL_MAX - 1);
}

/* agora play GAME: a game in the terminal against the engine at --level N (or a
 * random mover without a level), or between two people at one keyboard. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "core/rng.h"
#include "engines/engine.h"
#include "engines/profile.h"

static const char *const side_names[2] = {"White", "Black"};

struct play {
    const struct game *g;
    void *st;
    int human[2]; /* by side: 1 if a person plays it */
    struct rng rng;
    int level;                   /* 0: a random mover */
    struct engine_limits limits; /* the opening book */
    Move *moves;
    struct cli_io *io;
};

static void show_board(struct play *p)
{
    char board[RENDER_TEXT_MAX];
    p->g->render(p->st, board, sizeof board);
    fprintf(p->io->out, "\n%s\n", board);
}

static void list_moves(struct play *p)
{
    int n = game_legal_moves(p->g, p->st, p->moves);
    char(*texts)[MOVE_TEXT_MAX] = malloc(MOVE_TEXT_MAX * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        game_move_display(p->g, p->st, p->moves[i], texts[i], MOVE_TEXT_MAX);
    cli_sort_texts(texts, n);
    fputs("legal moves:", p->io->out);
    for (int i = 0; i < n; i++)
        fprintf(p->io->out, " %s", texts[i]);
    fputc('\n', p->io->out);
    free(texts);
}

/* A line from the player, trimmed; NULL at end of input. */
static char *read_line(struct play *p, char *buf, size_t size)
{
    if (!fgets(buf, (int)size, p->io->in))
        return NULL;
    char *s = buf;
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1]))
        s[--len] = 0;
    return s;
}

/* One human turn: returns 1 when a move was made, 0 to stop playing. */
static int human_turn(struct play *p)
{
    char line[256];
    struct game_status status;
    p->g->status(p->st, &status);
    if (status.claims && p->g->claim_draw)
        fputs("You may claim a draw: type 'claim'.\n", p->io->out);
    for (;;) {
        fprintf(p->io->out, "%s to move (a move, 'moves', 'help' or 'quit')> ",
                side_names[p->g->side_to_move(p->st)]);
        fflush(p->io->out);
        char *text = read_line(p, line, sizeof line);
        if (!text || !strcmp(text, "quit"))
            return 0;
        if (!*text)
            continue;
        if (!strcmp(text, "moves")) {
            list_moves(p);
            continue;
        }
        if (!strcmp(text, "help")) {
            fputs("Type a move in the game's move text, e.g. c3-d4 or d5xd3 (egara-guti),\n"
                  "k1-k2 or b7@l6 (agon), e2e4, Nf3 or O-O (chess). 'moves' lists the legal\n"
                  "moves, 'board' draws the board, 'claim' claims a draw where the rules\n"
                  "allow, 'draw' offers the computer a draw, 'resign' gives up, 'quit' stops.\n",
                  p->io->out);
            continue;
        }
        if (!strcmp(text, "claim") && p->g->claim_draw) {
            struct game_status end;
            if (p->g->claim_draw(p->st, 0, &end)) {
                fputs("No draw claim is possible now.\n", p->io->out);
                continue;
            }
            fprintf(p->io->out, "Game over: %s (%s).\n", result_name(end.result),
                    reason_text(p->g, end.reason));
            return 0;
        }
        if (!strcmp(text, "resign")) {
            enum side us = p->g->side_to_move(p->st);
            fprintf(p->io->out, "Game over: %s (%s).\n",
                    result_name(us == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS),
                    reason_text(p->g, REASON_RESIGNATION));
            return 0;
        }
        if (!strcmp(text, "draw")) {
            enum side us = p->g->side_to_move(p->st);
            if (p->human[!us]) {
                fputs("A draw is agreed between players: type 'quit' if you both agree.\n",
                      p->io->out);
                continue;
            }
            if (!engine_accepts_draw(p->g, p->st, (enum side) !us, rng_next(&p->rng))) {
                fputs("The computer declines the draw.\n", p->io->out);
                continue;
            }
            fprintf(p->io->out, "The computer accepts. Game over: %s (%s).\n",
                    result_name(RESULT_DRAW), reason_text(p->g, REASON_AGREEMENT));
            return 0;
        }
        if (!strcmp(text, "board")) {
            show_board(p);
            continue;
        }
        Move m;
        char err[ERROR_TEXT_MAX];
        if (p->g->parse_move(p->st, text, &m, err, sizeof err)) {
            fprintf(p->io->out, "%s\n", err);
            continue;
        }
        p->g->make_move(p->st, m);
        return 1;
    }
}

static void computer_turn(struct play *p)
{
    Move m;
    if (p->level > 0) {
        m = engine_think(p->g, p->st, p->level, &p->limits, rng_next(&p->rng), NULL);
    } else {
        int n = game_legal_moves(p->g, p->st, p->moves);
        m = p->moves[rng_below(&p->rng, (uint32_t)n)];
    }
    char text[MOVE_TEXT_MAX];
    game_move_display(p->g, p->st, m, text, sizeof text);
    fprintf(p->io->out, "%s (computer) plays %s\n", side_names[p->g->side_to_move(p->st)], text);
    p->g->make_move(p->st, m);
}

static int parse_sides(struct play *p, const char *as)
{
    int white = !strcmp(as, "white"), black = !strcmp(as, "black");
    int both = !strcmp(as, "both"), none = !strcmp(as, "none");
    if (!(white || black || both || none))
        return cli_error(p->io, "play: bad --as '%s' (expected white, black, both or none)", as);
    p->human[SIDE_WHITE] = white || both;
    p->human[SIDE_BLACK] = black || both;
    return 0;
}

int cmd_play(int argc, char **argv, struct cli_io *io)
{
    struct play p = {.io = io, .human = {1, 0}};
    const char *position = NULL, *book_path = NULL;
    long seed = (long)time(NULL) & 0x7fffffff;
    if (argc < 1)
        return cli_error(io, "usage: agora play GAME [--level N] [--as white|black|both|none] "
                             "[--position TEXT] [--seed N] [--book PATH|none]");
    if (!(p.g = cli_game(io, argv[0])))
        return CLI_BAD_INPUT;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--as") && i + 1 < argc) {
            if (parse_sides(&p, argv[++i]))
                return CLI_BAD_INPUT;
        } else if (!strcmp(argv[i], "--level") && i + 1 < argc) {
            long level;
            if (cli_int(io, "level", argv[++i], ENGINE_LEVEL_MIN, ENGINE_LEVEL_MAX, &level))
                return CLI_BAD_INPUT;
            p.level = (int)level;
        } else if (!strcmp(argv[i], "--book") && i + 1 < argc) {
            book_path = argv[++i];
        } else if (!strcmp(argv[i], "--position") && i + 1 < argc) {
            position = argv[++i];
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (cli_int(io, "seed", argv[++i], 0, 2147483647, &seed))
                return CLI_BAD_INPUT;
        } else {
            return cli_error(io, "play: unexpected argument '%s'", argv[i]);
        }
    }
    struct engine_book *book = NULL;
    if (cli_book(io, p.g, book_path, &book))
        return CLI_BAD_INPUT;
    p.limits.book = book;
    if (!(p.st = cli_position(io, p.g, position))) {
        engine_book_close(book);
        return CLI_BAD_INPUT;
    }
    rng_seed(&p.rng, (uint64_t)seed);
    p.moves = malloc(sizeof(Move) * (size_t)p.g->max_moves);
    if (p.level)
        fprintf(io->out, "The computer plays at level %d.\n", p.level);
    fprintf(io->out, "%s. You play %s.\n", p.g->title,
            p.human[0] && p.human[1] ? "both sides"
            : p.human[0]             ? "White"
            : p.human[1]             ? "Black"
                                     : "no side");
    int playing = 1;
    while (playing) {
        struct game_status status;
        p.g->status(p.st, &status);
        enum side side = p.g->side_to_move(p.st);
        if (status.result != RESULT_ONGOING) {
            show_board(&p);
            fprintf(io->out, "Game over: %s (%s).\n", result_name(status.result),
                    reason_text(p.g, status.reason));
            break;
        }
        if (p.human[side]) {
            show_board(&p);
            playing = human_turn(&p);
        } else {
            computer_turn(&p);
        }
    }
    free(p.moves);
    free(p.st);
    engine_book_close(book);
    return 0;
}

/* agora moves GAME [POSITION]: the legal moves, one move text a line, sorted. */
#include <stdlib.h>

#include "cli.h"

int cmd_moves(int argc, char **argv, struct cli_io *io)
{
    if (argc < 1 || argc > 2)
        return cli_error(io, "usage: agora moves GAME [POSITION]");
    const struct game *g = cli_game(io, argv[0]);
    if (!g)
        return CLI_BAD_INPUT;
    void *st = cli_position(io, g, argc > 1 ? argv[1] : NULL);
    if (!st)
        return CLI_BAD_INPUT;
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    char(*texts)[MOVE_TEXT_MAX] = malloc(MOVE_TEXT_MAX * (size_t)g->max_moves);
    int n = game_legal_moves(g, st, moves);
    for (int i = 0; i < n; i++)
        g->move_text(st, moves[i], texts[i], MOVE_TEXT_MAX);
    cli_sort_texts(texts, n);
    for (int i = 0; i < n; i++)
        fprintf(io->out, "%s\n", texts[i]);
    free(texts);
    free(moves);
    free(st);
    return 0;
}

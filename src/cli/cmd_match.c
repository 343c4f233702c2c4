#include "cli.h"
int cmd_match(int argc, char **argv, struct cli_io *io) { (void)argc; (void)argv; return cli_error(io, "todo"); }

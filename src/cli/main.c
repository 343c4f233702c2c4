#include "cli.h"

int main(int argc, char **argv)
{
    struct cli_io io = {stdin, stdout, stderr};
    return cli_main(argc, argv, &io);
}

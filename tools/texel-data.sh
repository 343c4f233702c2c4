#!/usr/bin/env bash
# Self-play games for tuning the chess evaluation (tools/texel.c reads them).
#
#   tools/texel-data.sh [AGORA] [GAMES] [OUT] [SEED]
#
# defaults: ./agora, 3000 games, build/texel/games-SEED.pgn, seed 1.  Two unequal node
# budgets so the two games of a colour-swapped pair differ; 2-move openings plus two
# random plies (redrawn when unbalanced) for variety.  One core: about 0.25 s of CPU a
# game (3000 games in about 12 minutes on an idle core).  The games are data: never
# commit them.  The weights committed in eval_weights.h were fitted on
#   tools/texel-data.sh ./agora 50 games-2.pgn 2      (then at 5000/7000 nodes)
#   tools/texel-data.sh ./agora 4000 games-3.pgn 3    (stopped after 2696 games)
# made by the build of commit b2ee651 (the hand-set weights), then
#   build/texel --epochs 200 --rate 2000 --out src/games/chess/eval_weights.h games-2.pgn games-3.pgn
set -eu
cd "$(dirname "$0")/.."
agora=${1:-./agora}
games=${2:-3000}
seed=${4:-1}
out=${3:-build/texel/games-$seed.pgn}
openings=${OPENINGS:-../shared/data/openings-2moves.epd}
mkdir -p "$(dirname "$out")"
"$agora" match chess "nodes:2000" "nodes:3000" --games "$games" --concurrency 1 \
  --openings "$openings" --random-plies 2 --seed "$seed" --max-plies 400 --out "$out" --quiet

# agora — build, test, fuzz and benchmark.
#
#   make              ./agora (optimised)
#   make test         setup, then every test suite (ASan+UBSan build with clang and the
#                     debug check, optimised build with gcc for the heavy tables and the
#                     bench signatures, fuzz smoke runs, tests/suites/*: browser, format)
#   make fuzz         the libFuzzer target over every game's parsers (FUZZ_SECONDS)
#   make bench        agora bench
#   make check-format clang-format --dry-run over every C source and header
#   make perft-full   every depth of ../shared/data/perft-chess.epd (minutes)
#   make bench-perft  agora's chess perft against Stockfish's, side by side
#   make setup        install missing Debian packages (idempotent)
#   make run          setup, build, and start the server: http://127.0.0.1:8080/
#   make loadtest     bounded load test of the server on loopback (tools/loadtest)
#   make loadtest-people  500 games between simulated people (tools/loadtest-people)
#   make loadtest-people-cluster  the same across two servers on PostgreSQL
#                     (tools/loadtest-people-cluster; deploy/README.md "Measured")
#   make tune         Texel-tune the chess evaluation on TEXEL_DATA (tools/texel-data.sh
#                     makes the games), rewriting src/games/chess/eval_weights.h
#   make tablebases   Egara-guti endgame tables of up to TB_PIECES pieces (default 8) in
#                     tablebases/egara-guti (resumable; src/tablebase/NOTES.md)
#   make winfit       fit the win-chance curve of WINFIT_GAME's engine scores on self-play
#                     games (tools/winfit.c; the positions kept in build/winfit-GAME.txt)

CC ?= cc
SAN_CC ?= clang
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60

WARN := -Wall -Wextra -Wshadow -Werror
# libpq's header folder (Debian's libpq-dev: /usr/include/postgresql), for the
# PostgreSQL store (src/store/postgres/).
PQ_CFLAGS := -I$(or $(shell pg_config --includedir 2>/dev/null),/usr/include/postgresql)
BASE_CFLAGS := -std=c11 $(WARN) -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc -Ibuild $(PQ_CFLAGS) -pthread -MMD -MP
OPT_CFLAGS := -O2 -g -march=x86-64-v2
# AGORA_DEBUG_CHECK: every make and unmake runs the game's consistency check
# (src/core/debug_check.h); only the sanitizer build has it.
SAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
	-DAGORA_DEBUG_CHECK
# libqrencode: the personal link's QR code (src/server/common/qr.c); libcbor and libcrypto:
# passkeys (src/webauthn/).  Debian's libqrencode-dev, libcbor-dev, libssl-dev.
LDLIBS := -lmicrohttpd -ljansson -lsqlite3 -lpq $(shell pkg-config --libs libqrencode libcbor libcrypto 2>/dev/null || echo -lqrencode -lcbor -lcrypto) -lm -pthread

LIB_SRC := $(sort $(shell find src -name '*.c' ! -path 'src/cli/*'))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
# Every .c under tests/ (the server's tests are in tests/server/, one folder a room).
TEST_SRC := $(sort $(shell find tests -name '*.c'))

REL_LIB_OBJ := $(LIB_SRC:%.c=build/rel/%.o)
REL_CLI_OBJ := $(CLI_SRC:%.c=build/rel/%.o)
REL_TEST_OBJ := $(TEST_SRC:%.c=build/rel/%.o)
SAN_LIB_OBJ := $(LIB_SRC:%.c=build/san/%.o)
SAN_CLI_OBJ := $(filter-out build/san/src/cli/main.o,$(CLI_SRC:%.c=build/san/%.o))
SAN_TEST_OBJ := $(TEST_SRC:%.c=build/san/%.o)

.PHONY: all run test test-only setup tablebases fuzz fuzz-server bench loadtest loadtest-people loadtest-people-cluster clean check-format \
	perft-full bench-perft tune winfit FORCE
all: agora

agora: $(REL_LIB_OBJ) $(REL_CLI_OBJ)
	$(CC) $(OPT_CFLAGS) -o $@ $^ $(LDLIBS)

build/rel/%.o: %.c build/rel/flags
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(OPT_CFLAGS) -c -o $@ $<

build/san/%.o: %.c build/san/flags
	@mkdir -p $(dir $@)
	$(SAN_CC) $(BASE_CFLAGS) $(SAN_CFLAGS) -c -o $@ $<

# Each build's compile command, rewritten only when it changes: a new flag (such as
# AGORA_DEBUG_CHECK) rebuilds that build's objects.
build/rel/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(BASE_CFLAGS) $(OPT_CFLAGS)' | cmp -s - $@ || \
	  echo '$(CC) $(BASE_CFLAGS) $(OPT_CFLAGS)' > $@
build/san/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(SAN_CC) $(BASE_CFLAGS) $(SAN_CFLAGS)' | cmp -s - $@ || \
	  echo '$(SAN_CC) $(BASE_CFLAGS) $(SAN_CFLAGS)' > $@
FORCE:

# The list of tests is every TEST(...) line under tests/, so a new test file needs
# no registration anywhere.
build/test_list.h: $(TEST_SRC)
	@mkdir -p build
	grep -h -o '^TEST\(_HEAVY\)\?([a-z0-9_]*)' $(TEST_SRC) | \
	  sed -e 's/^TEST_HEAVY(\(.*\))/TEST_ENTRY(\1, 1)/' -e 's/^TEST(\(.*\))/TEST_ENTRY(\1, 0)/' > $@.tmp
	mv $@.tmp $@

build/rel/tests/main.o build/san/tests/main.o: build/test_list.h

# The CLI objects (less main) link into the tests so they can run commands in-process.
build/agora-tests: $(REL_LIB_OBJ) $(filter-out build/rel/src/cli/main.o,$(REL_CLI_OBJ)) $(REL_TEST_OBJ)
	$(CC) $(OPT_CFLAGS) -o $@ $^ $(LDLIBS)

build/agora-tests-san: $(SAN_LIB_OBJ) $(SAN_CLI_OBJ) $(SAN_TEST_OBJ)
	$(SAN_CC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

build/fuzz-parsers: fuzz/fuzz_parsers.c $(LIB_SRC)
	@mkdir -p build
	$(FUZZ_CC) -std=c11 $(WARN) -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc $(PQ_CFLAGS) -g -O1 \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $^ $(LDLIBS)

# The server's request routing and JSON bodies (no HTTP, no threads).
build/fuzz-server: fuzz/fuzz_server.c $(LIB_SRC)
	@mkdir -p build
	$(FUZZ_CC) -std=c11 $(WARN) -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc $(PQ_CFLAGS) -g -O1 \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $^ $(LDLIBS)

# tools/loadtest runs it against a fresh `agora serve` (bounded: games and seconds).
build/loadtest: tools/loadtest.c
	@mkdir -p build
	$(CC) -std=c11 $(WARN) -D_GNU_SOURCE -O2 -pthread -o $@ $<

# tools/loadtest-people: games between people under load (each player waits for the
# opponent's move event, then answers); all the players on one thread and one epoll.
build/loadtest-people: tools/loadtest_people.c tools/loadtest_people_net.c tools/loadtest_people_net.h
	@mkdir -p build
	$(CC) -std=c11 $(WARN) -D_GNU_SOURCE -O2 -o $@ $(filter %.c,$^)

# tools/soak runs it: an hour of mixed load, the server's memory, no lost moves.
build/soak: tools/soak.c
	@mkdir -p build
	$(CC) -std=c11 $(WARN) -D_GNU_SOURCE -O2 -pthread -o $@ $<

# tools/puzzle-latency runs it beside tools/loadtest: the next-puzzle request's p99.
build/puzzle-latency: tools/puzzle_latency.c
	@mkdir -p build
	$(CC) -std=c11 $(WARN) -D_GNU_SOURCE -O2 -o $@ $<

# tools/job-latency runs it: how long a queued computer move waits for an idle
# `agora worker`, and what idle workers cost the database.
build/job-latency: tools/job_latency.c $(REL_LIB_OBJ)
	$(CC) $(BASE_CFLAGS) $(OPT_CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# The chess evaluation's tuner (a developer tool; tools/texel.c says how it works).
build/texel: tools/texel.c $(REL_LIB_OBJ)
	$(CC) $(BASE_CFLAGS) $(OPT_CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

TEXEL_DATA ?= $(wildcard build/texel/*.pgn)
TEXEL_FLAGS ?=
tune: build/texel
	@test -n "$(TEXEL_DATA)" || { echo "make tune: no games; run tools/texel-data.sh first"; exit 2; }
	build/texel $(TEXEL_FLAGS) --out src/games/chess/eval_weights.h $(TEXEL_DATA)

# The win-chance curve of a game's engine scores (a developer tool; tools/winfit.c says
# how it works): self-play games, then a logistic fit of result on score.
build/winfit: tools/winfit.c $(REL_LIB_OBJ)
	$(CC) $(BASE_CFLAGS) $(OPT_CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

WINFIT_GAME ?= agon
WINFIT_FLAGS ?= --games 400 -j 2
winfit: build/winfit
	build/winfit $(WINFIT_GAME) $(WINFIT_FLAGS) --out build/winfit-$(WINFIT_GAME).txt

# Egara-guti's endgame tables, made on demand and never committed (src/tablebase/NOTES.md):
# an interrupted run goes on where it stopped when started again.
TB_PIECES ?= 8
TB_DIR ?= tablebases/egara-guti
tablebases: agora
	mkdir -p $(TB_DIR)
	nice ./agora tablebase generate egara-guti --pieces $(TB_PIECES) --dir $(TB_DIR)

setup:
	@scripts/setup

# Set up, build and start the game server: http://127.0.0.1:8080/
run: setup
	$(MAKE) agora
	./agora serve --port 8080 --db agora.db

test: setup
	@$(MAKE) --no-print-directory test-only

test-only: agora build/agora-tests build/agora-tests-san build/fuzz-parsers build/fuzz-server
	@tests/run

fuzz: build/fuzz-parsers
	@mkdir -p build/fuzz-corpus
	build/fuzz-parsers -max_total_time=$(FUZZ_SECONDS) -max_len=512 build/fuzz-corpus fuzz/seeds

fuzz-server: build/fuzz-server
	@mkdir -p build/fuzz-server-corpus
	build/fuzz-server -max_total_time=$(FUZZ_SECONDS) -max_len=2048 build/fuzz-server-corpus fuzz/seeds-server

bench: agora
	./agora bench

loadtest:
	tools/loadtest

loadtest-people:
	tools/loadtest-people

loadtest-people-cluster:
	tools/loadtest-people-cluster

perft-full: agora
	scripts/perft-epd

bench-perft: agora
	scripts/bench-perft

# clang-format --dry-run --Werror over every .c and .h of src/, tests/, fuzz/ and tools/:
# the file list is in tests/suites/format, the suite `make test` runs.
check-format:
	@tests/suites/format

clean:
	rm -rf build agora

-include $(shell find build -name '*.d' 2>/dev/null)

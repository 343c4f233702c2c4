/* The store's migrations (migrations.h): one list, a text per backend.  SQLite's texts
 * are those of the databases made before the list was shared (its PRAGMA user_version
 * v is version v + 1 here: sqlite/backend.c adopts such a database on first open);
 * PostgreSQL's say the same with its types: BIGINT for every integer (the times are
 * milliseconds), DOUBLE PRECISION for SQLite's REAL, and the C collation on the ids
 * that order lists (as SQLite compares text: byte by byte). */
#include "store/migrations.h"

#include "core/error.h"

const struct store_migration store_migrations[] = {
    {1, "games and moves",
     "CREATE TABLE IF NOT EXISTS games ("
     " id TEXT PRIMARY KEY, game TEXT NOT NULL, level INTEGER NOT NULL,"
     " human_side INTEGER NOT NULL, start TEXT NOT NULL, token_hash TEXT NOT NULL,"
     " seed INTEGER NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,"
     " result INTEGER NOT NULL, reason INTEGER NOT NULL, plies INTEGER NOT NULL);"
     "CREATE INDEX IF NOT EXISTS games_by_token ON games (token_hash, created_ms);"
     "CREATE TABLE IF NOT EXISTS moves ("
     " game_id TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL,"
     " created_ms INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;",
     "CREATE TABLE games ("
     " id TEXT COLLATE \"C\" PRIMARY KEY, game TEXT NOT NULL, level BIGINT NOT NULL,"
     " human_side BIGINT NOT NULL, start TEXT NOT NULL, token_hash TEXT NOT NULL,"
     " seed BIGINT NOT NULL, created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL,"
     " result BIGINT NOT NULL, reason BIGINT NOT NULL, plies BIGINT NOT NULL);"
     "CREATE INDEX games_by_token ON games (token_hash, created_ms);"
     "CREATE TABLE moves ("
     " game_id TEXT NOT NULL, ply BIGINT NOT NULL, move TEXT NOT NULL,"
     " created_ms BIGINT NOT NULL, PRIMARY KEY (game_id, ply));"},
    {2, "reviews of games and of imported records",
     "CREATE TABLE IF NOT EXISTS reviews ("
     " id TEXT PRIMARY KEY, game TEXT NOT NULL, created_ms INTEGER NOT NULL,"
     " body TEXT NOT NULL);",
     "CREATE TABLE reviews ("
     " id TEXT PRIMARY KEY, game TEXT NOT NULL, created_ms BIGINT NOT NULL,"
     " body TEXT NOT NULL);"},
    {3, "the count of takebacks of a game",
     "ALTER TABLE games ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;",
     "ALTER TABLE games ADD COLUMN takebacks BIGINT NOT NULL DEFAULT 0;"},
    {4, "games between people, challenges and seeks, clubs, names, ratings",
     "ALTER TABLE games ADD COLUMN people INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN white_hash TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE games ADD COLUMN black_hash TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE games ADD COLUMN white_name TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE games ADD COLUMN black_name TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE games ADD COLUMN clock_initial_ms INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN clock_increment_ms INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN days INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN takeback_offer INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN rematch_offer INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN rematch_id TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE games ADD COLUMN deadline_ms INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN white_rating INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN black_rating INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN rated_done INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN white_rating_after INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN black_rating_after INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN club_id TEXT NOT NULL DEFAULT '';"
     "CREATE INDEX games_by_club ON games (club_id, created_ms) WHERE club_id <> '';"
     "CREATE INDEX games_by_white ON games (white_hash);"
     "CREATE INDEX games_by_black ON games (black_hash);"
     "CREATE INDEX games_by_deadline ON games (deadline_ms) WHERE deadline_ms > 0 AND result = 0;"
     "CREATE TABLE challenges ("
     " id TEXT PRIMARY KEY, game TEXT NOT NULL, clock_initial_ms INTEGER NOT NULL,"
     " clock_increment_ms INTEGER NOT NULL, days INTEGER NOT NULL, side INTEGER NOT NULL,"
     " rated INTEGER NOT NULL, lobby INTEGER NOT NULL, creator_hash TEXT NOT NULL,"
     " creator_name TEXT NOT NULL, status INTEGER NOT NULL, game_id TEXT NOT NULL,"
     " created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL,"
     " creator_rating INTEGER NOT NULL DEFAULT 0, club_id TEXT NOT NULL DEFAULT '');"
     "CREATE INDEX challenges_by_club ON challenges (club_id, status) WHERE club_id <> '';"
     "CREATE TABLE clubs ("
     " id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL,"
     " languages TEXT NOT NULL, invite TEXT NOT NULL, creator_hash TEXT NOT NULL,"
     " created_ms INTEGER NOT NULL);"
     "CREATE TABLE club_members ("
     " club_id TEXT NOT NULL, token_hash TEXT NOT NULL, member_id TEXT NOT NULL,"
     " name TEXT NOT NULL, role INTEGER NOT NULL, joined_ms INTEGER NOT NULL,"
     " PRIMARY KEY (club_id, token_hash)) WITHOUT ROWID;"
     "CREATE INDEX club_members_by_token ON club_members (token_hash);"
     "CREATE INDEX challenges_seeks ON challenges (lobby, status, expires_ms);"
     "CREATE TABLE players ("
     " token_hash TEXT PRIMARY KEY, name TEXT NOT NULL, created_ms INTEGER NOT NULL,"
     " updated_ms INTEGER NOT NULL);"
     "CREATE TABLE ratings ("
     " token_hash TEXT NOT NULL, game TEXT NOT NULL, class TEXT NOT NULL, rating REAL NOT NULL,"
     " deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,"
     " updated_ms INTEGER NOT NULL, PRIMARY KEY (token_hash, game, class)) WITHOUT ROWID;",
     "ALTER TABLE games ADD COLUMN people BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN white_hash TEXT NOT NULL DEFAULT '',"
     " ADD COLUMN black_hash TEXT NOT NULL DEFAULT '',"
     " ADD COLUMN white_name TEXT NOT NULL DEFAULT '',"
     " ADD COLUMN black_name TEXT NOT NULL DEFAULT '',"
     " ADD COLUMN clock_initial_ms BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN clock_increment_ms BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN days BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN rated BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN draw_offer BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN takeback_offer BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN rematch_offer BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN rematch_id TEXT NOT NULL DEFAULT '',"
     " ADD COLUMN deadline_ms BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN white_rating BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN black_rating BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN rated_done BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN white_rating_after BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN black_rating_after BIGINT NOT NULL DEFAULT 0,"
     " ADD COLUMN club_id TEXT NOT NULL DEFAULT '';"
     "CREATE INDEX games_by_club ON games (club_id, created_ms) WHERE club_id <> '';"
     "CREATE INDEX games_by_white ON games (white_hash);"
     "CREATE INDEX games_by_black ON games (black_hash);"
     "CREATE INDEX games_by_deadline ON games (deadline_ms) WHERE deadline_ms > 0 AND result = 0;"
     "CREATE TABLE challenges ("
     " id TEXT COLLATE \"C\" PRIMARY KEY, game TEXT NOT NULL, clock_initial_ms BIGINT NOT NULL,"
     " clock_increment_ms BIGINT NOT NULL, days BIGINT NOT NULL, side BIGINT NOT NULL,"
     " rated BIGINT NOT NULL, lobby BIGINT NOT NULL, creator_hash TEXT NOT NULL,"
     " creator_name TEXT NOT NULL, status BIGINT NOT NULL, game_id TEXT NOT NULL,"
     " created_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL,"
     " creator_rating BIGINT NOT NULL DEFAULT 0, club_id TEXT NOT NULL DEFAULT '');"
     "CREATE INDEX challenges_by_club ON challenges (club_id, status) WHERE club_id <> '';"
     "CREATE TABLE clubs ("
     " id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL,"
     " languages TEXT NOT NULL, invite TEXT NOT NULL, creator_hash TEXT NOT NULL,"
     " created_ms BIGINT NOT NULL);"
     "CREATE TABLE club_members ("
     " club_id TEXT NOT NULL, token_hash TEXT NOT NULL, member_id TEXT COLLATE \"C\" NOT NULL,"
     " name TEXT NOT NULL, role BIGINT NOT NULL, joined_ms BIGINT NOT NULL,"
     " PRIMARY KEY (club_id, token_hash));"
     "CREATE INDEX club_members_by_token ON club_members (token_hash);"
     "CREATE INDEX challenges_seeks ON challenges (lobby, status, expires_ms);"
     "CREATE TABLE players ("
     " token_hash TEXT PRIMARY KEY, name TEXT NOT NULL, created_ms BIGINT NOT NULL,"
     " updated_ms BIGINT NOT NULL);"
     "CREATE TABLE ratings ("
     " token_hash TEXT NOT NULL, game TEXT NOT NULL, class TEXT NOT NULL,"
     " rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL,"
     " volatility DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL,"
     " updated_ms BIGINT NOT NULL, PRIMARY KEY (token_hash, game, class));"},
    {5, "puzzles: ratings of players and puzzles, the attempts",
     "CREATE TABLE IF NOT EXISTS puzzle_players ("
     " token_hash TEXT NOT NULL, game TEXT NOT NULL, rating REAL NOT NULL,"
     " deviation REAL NOT NULL, volatility REAL NOT NULL, attempts INTEGER NOT NULL,"
     " solved INTEGER NOT NULL, streak INTEGER NOT NULL, updated_ms INTEGER NOT NULL,"
     " PRIMARY KEY (token_hash, game)) WITHOUT ROWID;"
     "CREATE TABLE IF NOT EXISTS puzzle_ratings ("
     " puzzle_id TEXT PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL,"
     " volatility REAL NOT NULL, attempts INTEGER NOT NULL, solved INTEGER NOT NULL);"
     "CREATE TABLE IF NOT EXISTS puzzle_attempts ("
     " token_hash TEXT NOT NULL, game TEXT NOT NULL, puzzle_id TEXT NOT NULL,"
     " solved INTEGER NOT NULL, created_ms INTEGER NOT NULL,"
     " PRIMARY KEY (token_hash, game, puzzle_id)) WITHOUT ROWID;",
     "CREATE TABLE puzzle_players ("
     " token_hash TEXT NOT NULL, game TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,"
     " deviation DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"
     " attempts BIGINT NOT NULL, solved BIGINT NOT NULL, streak BIGINT NOT NULL,"
     " updated_ms BIGINT NOT NULL, PRIMARY KEY (token_hash, game));"
     "CREATE TABLE puzzle_ratings ("
     " puzzle_id TEXT PRIMARY KEY, rating DOUBLE PRECISION NOT NULL,"
     " deviation DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"
     " attempts BIGINT NOT NULL, solved BIGINT NOT NULL);"
     "CREATE TABLE puzzle_attempts ("
     " token_hash TEXT NOT NULL, game TEXT NOT NULL, puzzle_id TEXT NOT NULL,"
     " solved BIGINT NOT NULL, created_ms BIGINT NOT NULL,"
     " PRIMARY KEY (token_hash, game, puzzle_id));"},
    {6, "a game asked rated and played unrated (the cap of rated games per pair)",
     "ALTER TABLE games ADD COLUMN rated_capped INTEGER NOT NULL DEFAULT 0;",
     "ALTER TABLE games ADD COLUMN rated_capped BIGINT NOT NULL DEFAULT 0;"},
    {7, "the puzzles served to each token, when (issued tokens only)",
     "CREATE TABLE IF NOT EXISTS puzzle_served ("
     " token_hash TEXT NOT NULL, puzzle_id TEXT NOT NULL, served_ms INTEGER NOT NULL,"
     " PRIMARY KEY (token_hash, puzzle_id)) WITHOUT ROWID;",
     "CREATE TABLE puzzle_served ("
     " token_hash TEXT NOT NULL, puzzle_id TEXT NOT NULL, served_ms BIGINT NOT NULL,"
     " PRIMARY KEY (token_hash, puzzle_id));"},
    {8, "the outbox of events every server reads, numbered in commit order",
     "CREATE TABLE events ("
     " seq INTEGER PRIMARY KEY, game_id TEXT NOT NULL, kind TEXT NOT NULL,"
     " body TEXT NOT NULL, created_ms INTEGER NOT NULL);",
     "CREATE TABLE events ("
     " seq BIGINT PRIMARY KEY, game_id TEXT NOT NULL, kind TEXT NOT NULL,"
     " body TEXT NOT NULL, created_ms BIGINT NOT NULL);"},
    /* Main's players (its user_version 7, made before this list was shared): a database
     * of main's agora at user_version 7 has this one and not 8 (sqlite/backend.c adopts
     * it as 1..7 and 9, then applies 8).  The public id is 64 random bits, hex: SQLite's
     * randomblob, PostgreSQL's md5 of a random UUID (gen_random_uuid: PostgreSQL 13). */
    {9, "players' public ids and hiding, rating histories, leaderboards, progress",
     "ALTER TABLE players ADD COLUMN id TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE players ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;"
     "UPDATE players SET id = lower(hex(randomblob(8)));"
     "CREATE UNIQUE INDEX players_by_id ON players (id);"
     "CREATE TABLE rating_history ("
     " token_hash TEXT NOT NULL, game_id TEXT NOT NULL, game TEXT NOT NULL, class TEXT NOT NULL,"
     " rating REAL NOT NULL, deviation REAL NOT NULL, at_ms INTEGER NOT NULL,"
     " PRIMARY KEY (token_hash, game_id)) WITHOUT ROWID;"
     "CREATE INDEX rating_history_by_time ON rating_history (token_hash, at_ms);"
     "INSERT OR IGNORE INTO rating_history SELECT h, id, game, CASE WHEN days > 0 THEN"
     " 'correspondence' WHEN (clock_initial_ms + 40 * clock_increment_ms) / 1000 < 480 THEN"
     " 'blitz' WHEN (clock_initial_ms + 40 * clock_increment_ms) / 1000 < 1500 THEN 'rapid'"
     " ELSE 'classical' END, after, 0, updated_ms FROM (SELECT white_hash AS h,"
     " white_rating_after AS after, * FROM games UNION ALL SELECT black_hash AS h,"
     " black_rating_after AS after, * FROM games) WHERE people = 1 AND rated_done = 1"
     " AND after <> 0;"
     "CREATE INDEX ratings_board ON ratings (game, class, rating);"
     "CREATE TABLE progress ("
     " token_hash TEXT PRIMARY KEY, body TEXT NOT NULL, version INTEGER NOT NULL,"
     " updated_ms INTEGER NOT NULL) WITHOUT ROWID;",
     "ALTER TABLE players ADD COLUMN id TEXT COLLATE \"C\" NOT NULL DEFAULT '',"
     " ADD COLUMN hidden BIGINT NOT NULL DEFAULT 0;"
     "UPDATE players SET id = substr(md5(gen_random_uuid()::text), 1, 16);"
     "CREATE UNIQUE INDEX players_by_id ON players (id);"
     "CREATE TABLE rating_history ("
     " token_hash TEXT NOT NULL, game_id TEXT COLLATE \"C\" NOT NULL, game TEXT NOT NULL,"
     " class TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,"
     " deviation DOUBLE PRECISION NOT NULL, at_ms BIGINT NOT NULL,"
     " PRIMARY KEY (token_hash, game_id));"
     "CREATE INDEX rating_history_by_time ON rating_history (token_hash, at_ms);"
     "INSERT INTO rating_history (token_hash, game_id, game, class, rating, deviation, at_ms)"
     " SELECT h, id, game, CASE WHEN days > 0 THEN 'correspondence'"
     " WHEN (clock_initial_ms + 40 * clock_increment_ms) / 1000 < 480 THEN 'blitz'"
     " WHEN (clock_initial_ms + 40 * clock_increment_ms) / 1000 < 1500 THEN 'rapid'"
     " ELSE 'classical' END, rating_after, 0, updated_ms FROM ("
     "SELECT white_hash AS h, white_rating_after AS rating_after, id, game, days,"
     " clock_initial_ms, clock_increment_ms, updated_ms, people, rated_done FROM games"
     " UNION ALL SELECT black_hash, black_rating_after, id, game, days, clock_initial_ms,"
     " clock_increment_ms, updated_ms, people, rated_done FROM games) AS g"
     " WHERE people = 1 AND rated_done = 1 AND rating_after <> 0 ON CONFLICT DO NOTHING;"
     "CREATE INDEX ratings_board ON ratings (game, class, rating);"
     "CREATE TABLE progress ("
     " token_hash TEXT PRIMARY KEY, body TEXT NOT NULL, version BIGINT NOT NULL,"
     " updated_ms BIGINT NOT NULL);"},
    /* One identity: notifications (kept until read; ids grow over all of them), public
     * clubs and the players barred from a club, personal links and the devices signed
     * in through them, passkeys and their challenges. */
    {10, "notifications, public clubs and bars, links, devices, passkeys",
     "CREATE TABLE notices ("
     " id INTEGER PRIMARY KEY AUTOINCREMENT, token_hash TEXT NOT NULL, kind TEXT NOT NULL,"
     " body TEXT NOT NULL, created_ms INTEGER NOT NULL, read INTEGER NOT NULL);"
     "CREATE INDEX notices_by_token ON notices (token_hash, id);"
     "ALTER TABLE clubs ADD COLUMN public INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX clubs_public ON clubs (name) WHERE public = 1;"
     "CREATE TABLE club_bars ("
     " club_id TEXT NOT NULL, token_hash TEXT NOT NULL, barred_ms INTEGER NOT NULL,"
     " PRIMARY KEY (club_id, token_hash)) WITHOUT ROWID;"
     "CREATE TABLE links ("
     " player_hash TEXT PRIMARY KEY, code_hash TEXT NOT NULL UNIQUE, created_ms INTEGER NOT NULL,"
     " expires_ms INTEGER NOT NULL) WITHOUT ROWID;"
     "CREATE TABLE devices ("
     " token_hash TEXT PRIMARY KEY, player_hash TEXT NOT NULL, name TEXT NOT NULL,"
     " created_ms INTEGER NOT NULL, seen_ms INTEGER NOT NULL) WITHOUT ROWID;"
     "CREATE INDEX devices_by_player ON devices (player_hash, created_ms);"
     "CREATE TABLE passkeys ("
     " id TEXT PRIMARY KEY, player_hash TEXT NOT NULL, public_key TEXT NOT NULL,"
     " sign_count INTEGER NOT NULL, name TEXT NOT NULL, created_ms INTEGER NOT NULL,"
     " used_ms INTEGER NOT NULL) WITHOUT ROWID;"
     "CREATE INDEX passkeys_by_player ON passkeys (player_hash, created_ms);"
     "CREATE TABLE passkey_challenges ("
     " challenge TEXT PRIMARY KEY, player_hash TEXT NOT NULL, expires_ms INTEGER NOT NULL)"
     " WITHOUT ROWID;",
     "CREATE TABLE notices ("
     " id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, token_hash TEXT NOT NULL,"
     " kind TEXT NOT NULL, body TEXT NOT NULL, created_ms BIGINT NOT NULL,"
     " read BIGINT NOT NULL);"
     "CREATE INDEX notices_by_token ON notices (token_hash, id);"
     "ALTER TABLE clubs ADD COLUMN public BIGINT NOT NULL DEFAULT 0;"
     "CREATE INDEX clubs_public ON clubs (name COLLATE \"C\") WHERE public = 1;"
     "CREATE TABLE club_bars ("
     " club_id TEXT NOT NULL, token_hash TEXT NOT NULL, barred_ms BIGINT NOT NULL,"
     " PRIMARY KEY (club_id, token_hash));"
     "CREATE TABLE links ("
     " player_hash TEXT PRIMARY KEY, code_hash TEXT NOT NULL UNIQUE, created_ms BIGINT NOT NULL,"
     " expires_ms BIGINT NOT NULL);"
     "CREATE TABLE devices ("
     " token_hash TEXT COLLATE \"C\" PRIMARY KEY, player_hash TEXT NOT NULL, name TEXT NOT NULL,"
     " created_ms BIGINT NOT NULL, seen_ms BIGINT NOT NULL);"
     "CREATE INDEX devices_by_player ON devices (player_hash, created_ms);"
     "CREATE TABLE passkeys ("
     " id TEXT COLLATE \"C\" PRIMARY KEY, player_hash TEXT NOT NULL, public_key TEXT NOT NULL,"
     " sign_count BIGINT NOT NULL, name TEXT NOT NULL, created_ms BIGINT NOT NULL,"
     " used_ms BIGINT NOT NULL);"
     "CREATE INDEX passkeys_by_player ON passkeys (player_hash, created_ms);"
     "CREATE TABLE passkey_challenges ("
     " challenge TEXT PRIMARY KEY, player_hash TEXT NOT NULL, expires_ms BIGINT NOT NULL);"},
    {11, "tournaments, their entrants and Swiss byes, a game's tournament, round, berserks",
     "ALTER TABLE games ADD COLUMN tournament_id TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE games ADD COLUMN round INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX games_by_tournament ON games (tournament_id, created_ms)"
     " WHERE tournament_id <> '';"
     "CREATE TABLE tournaments ("
     " id TEXT PRIMARY KEY, kind INTEGER NOT NULL, name TEXT NOT NULL, game TEXT NOT NULL,"
     " clock_initial_ms INTEGER NOT NULL, clock_increment_ms INTEGER NOT NULL,"
     " days INTEGER NOT NULL, rated INTEGER NOT NULL, starts_ms INTEGER NOT NULL,"
     " duration_ms INTEGER NOT NULL, rounds INTEGER NOT NULL, min_rating INTEGER NOT NULL,"
     " max_rating INTEGER NOT NULL, club_id TEXT NOT NULL, creator_hash TEXT NOT NULL,"
     " creator_name TEXT NOT NULL, status INTEGER NOT NULL, round INTEGER NOT NULL,"
     " created_ms INTEGER NOT NULL);"
     "CREATE INDEX tournaments_by_status ON tournaments (status, starts_ms);"
     "CREATE INDEX tournaments_by_club ON tournaments (club_id, starts_ms) WHERE club_id <> '';"
     "CREATE TABLE tournament_entrants ("
     " tournament_id TEXT NOT NULL, token_hash TEXT NOT NULL, name TEXT NOT NULL,"
     " rating INTEGER NOT NULL, state INTEGER NOT NULL, joined_ms INTEGER NOT NULL,"
     " active_ms INTEGER NOT NULL, PRIMARY KEY (tournament_id, token_hash)) WITHOUT ROWID;"
     "CREATE TABLE tournament_byes ("
     " tournament_id TEXT NOT NULL, round INTEGER NOT NULL, token_hash TEXT NOT NULL,"
     " PRIMARY KEY (tournament_id, round)) WITHOUT ROWID;",
     "ALTER TABLE games ADD COLUMN tournament_id TEXT COLLATE \"C\" NOT NULL DEFAULT '';"
     "ALTER TABLE games ADD COLUMN round BIGINT NOT NULL DEFAULT 0;"
     "ALTER TABLE games ADD COLUMN berserk BIGINT NOT NULL DEFAULT 0;"
     "CREATE INDEX games_by_tournament ON games (tournament_id, created_ms)"
     " WHERE tournament_id <> '';"
     "CREATE TABLE tournaments ("
     " id TEXT COLLATE \"C\" PRIMARY KEY, kind BIGINT NOT NULL, name TEXT NOT NULL,"
     " game TEXT NOT NULL, clock_initial_ms BIGINT NOT NULL, clock_increment_ms BIGINT NOT NULL,"
     " days BIGINT NOT NULL, rated BIGINT NOT NULL, starts_ms BIGINT NOT NULL,"
     " duration_ms BIGINT NOT NULL, rounds BIGINT NOT NULL, min_rating BIGINT NOT NULL,"
     " max_rating BIGINT NOT NULL, club_id TEXT COLLATE \"C\" NOT NULL,"
     " creator_hash TEXT NOT NULL, creator_name TEXT NOT NULL, status BIGINT NOT NULL,"
     " round BIGINT NOT NULL, created_ms BIGINT NOT NULL);"
     "CREATE INDEX tournaments_by_status ON tournaments (status, starts_ms);"
     "CREATE INDEX tournaments_by_club ON tournaments (club_id, starts_ms) WHERE club_id <> '';"
     "CREATE TABLE tournament_entrants ("
     " tournament_id TEXT NOT NULL, token_hash TEXT COLLATE \"C\" NOT NULL, name TEXT NOT NULL,"
     " rating BIGINT NOT NULL, state BIGINT NOT NULL, joined_ms BIGINT NOT NULL,"
     " active_ms BIGINT NOT NULL, PRIMARY KEY (tournament_id, token_hash));"
     "CREATE TABLE tournament_byes ("
     " tournament_id TEXT NOT NULL, round BIGINT NOT NULL, token_hash TEXT NOT NULL,"
     " PRIMARY KEY (tournament_id, round));"},
    /* (wt-outbox: the limits shared by several servers, the outbox trimmed by age) */
    {12, "rate buckets shared by the servers, the events by their age",
     "CREATE TABLE rate_buckets ("
     " name TEXT NOT NULL, key TEXT NOT NULL, tokens REAL NOT NULL, last_ms INTEGER NOT NULL,"
     " PRIMARY KEY (name, key)) WITHOUT ROWID;"
     "CREATE INDEX rate_buckets_by_time ON rate_buckets (last_ms);"
     "CREATE INDEX events_by_time ON events (created_ms);",
     "CREATE TABLE rate_buckets ("
     " name TEXT COLLATE \"C\" NOT NULL, key TEXT COLLATE \"C\" NOT NULL,"
     " tokens DOUBLE PRECISION NOT NULL, last_ms BIGINT NOT NULL, PRIMARY KEY (name, key));"
     "CREATE INDEX rate_buckets_by_time ON rate_buckets (last_ms);"
     "CREATE INDEX events_by_time ON events (created_ms);"},
    /* (wt-outbox: viewers and players' presence summed over the servers) */
    {13, "each server's presence in the games, and its heartbeat",
     "CREATE TABLE presence_beats (server TEXT PRIMARY KEY, beat_ms INTEGER NOT NULL)"
     " WITHOUT ROWID;"
     "CREATE TABLE presence ("
     " server TEXT NOT NULL, game_id TEXT NOT NULL, viewers INTEGER NOT NULL,"
     " white_seated INTEGER NOT NULL, black_seated INTEGER NOT NULL,"
     " white_seen_ms INTEGER NOT NULL, black_seen_ms INTEGER NOT NULL,"
     " PRIMARY KEY (server, game_id)) WITHOUT ROWID;",
     "CREATE TABLE presence_beats (server TEXT COLLATE \"C\" PRIMARY KEY, beat_ms BIGINT NOT NULL);"
     "CREATE TABLE presence ("
     " server TEXT COLLATE \"C\" NOT NULL, game_id TEXT COLLATE \"C\" NOT NULL,"
     " viewers BIGINT NOT NULL, white_seated BIGINT NOT NULL, black_seated BIGINT NOT NULL,"
     " white_seen_ms BIGINT NOT NULL, black_seen_ms BIGINT NOT NULL,"
     " PRIMARY KEY (server, game_id));"},
    /* (wt-outbox: the lobby's caps of open seeks shared by the servers) */
    {14, "the lobby's places of open seeks, by token and by address",
     "CREATE TABLE seek_places (key TEXT NOT NULL, seek_id TEXT NOT NULL,"
     " expires_ms INTEGER NOT NULL, PRIMARY KEY (key, seek_id)) WITHOUT ROWID;",
     "CREATE TABLE seek_places (key TEXT COLLATE \"C\" NOT NULL, seek_id TEXT COLLATE \"C\" NOT "
     "NULL,"
     " expires_ms BIGINT NOT NULL, PRIMARY KEY (key, seek_id));"},
    /* ---- issue 26, engine jobs (wt-workers) ---- */
    {15, "the engine jobs every worker claims (computer moves made by workers)",
     "CREATE TABLE engine_jobs ("
     " id TEXT PRIMARY KEY, kind TEXT NOT NULL, game_id TEXT NOT NULL, ply INTEGER NOT NULL,"
     " client TEXT NOT NULL, priority INTEGER NOT NULL, round INTEGER NOT NULL,"
     " created_ms INTEGER NOT NULL, lease_until_ms INTEGER NOT NULL DEFAULT 0,"
     " worker TEXT NOT NULL DEFAULT '', tries INTEGER NOT NULL DEFAULT 0);"
     "CREATE INDEX engine_jobs_next ON engine_jobs (priority, round, created_ms);"
     "CREATE INDEX engine_jobs_by_client ON engine_jobs (client);",
     "CREATE TABLE engine_jobs ("
     " id TEXT COLLATE \"C\" PRIMARY KEY, kind TEXT NOT NULL, game_id TEXT NOT NULL,"
     " ply BIGINT NOT NULL, client TEXT NOT NULL, priority BIGINT NOT NULL,"
     " round BIGINT NOT NULL, created_ms BIGINT NOT NULL,"
     " lease_until_ms BIGINT NOT NULL DEFAULT 0, worker TEXT NOT NULL DEFAULT '',"
     " tries BIGINT NOT NULL DEFAULT 0);"
     "CREATE INDEX engine_jobs_next ON engine_jobs (priority, round, created_ms);"
     "CREATE INDEX engine_jobs_by_client ON engine_jobs (client);"},
    /* ---- issue 26, reviews as engine jobs (wt-reviewjobs) ---- */
    {16, "the engine jobs' payload and progress (reviews made by workers)",
     "ALTER TABLE engine_jobs ADD COLUMN payload TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE engine_jobs ADD COLUMN done INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE engine_jobs ADD COLUMN total INTEGER NOT NULL DEFAULT 0;",
     "ALTER TABLE engine_jobs ADD COLUMN payload TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE engine_jobs ADD COLUMN done BIGINT NOT NULL DEFAULT 0;"
     "ALTER TABLE engine_jobs ADD COLUMN total BIGINT NOT NULL DEFAULT 0;"},
    /* ---- issue 26's notes, a review job's game in its row (wt-retry26) ---- */
    {17, "the engine jobs' game (a running review's GET without reading its payload)",
     "ALTER TABLE engine_jobs ADD COLUMN game TEXT NOT NULL DEFAULT '';",
     "ALTER TABLE engine_jobs ADD COLUMN game TEXT NOT NULL DEFAULT '';"},
    /* ---- issue 26, analyses as engine jobs (wt-anajobs) ---- */
    {18, "the engine jobs' output (the analysis board's events written by workers)",
     "ALTER TABLE engine_jobs ADD COLUMN output TEXT NOT NULL DEFAULT '';",
     "ALTER TABLE engine_jobs ADD COLUMN output TEXT NOT NULL DEFAULT '';"},
    /* A game's read counts and dates its moves by `game_id = games.id`: with games.id
     * in "C" and moves.game_id in the database's default, the comparison took "C" and
     * the key's index (in the default) could not serve it, so each read of a game
     * scanned every move of every game.  SQLite compares bytes in every column. */
    {19, "the moves' game in the games' collation (a game read by its index)",
     "-- nothing to change in SQLite\n",
     "ALTER TABLE moves ALTER COLUMN game_id TYPE TEXT COLLATE \"C\";"},
};

const int store_migrations_count = (int)(sizeof store_migrations / sizeof store_migrations[0]);

int store_migrations_newer(char *err, size_t err_size, int version)
{
    return fail(err, err_size,
                "the database's schema is version %d, newer than this agora's %d: a newer agora "
                "made it; run that one (or a copy of the database made before)",
                version, store_migrations_count);
}

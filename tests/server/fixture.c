#include "fixture.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *test_db(void)
{
    const char *url = getenv("AGORA_TEST_DB");
    return url && url[0] ? url : NULL;
}

int fx_on_postgres(void)
{
    return test_db() != NULL;
}

/* The URLs handed out, kept to the end of the run (a server holds its db_path). */
#define FX_URLS 256
static char fx_urls[FX_URLS][384];
static int fx_url_count;
static pthread_mutex_t fx_url_mu = PTHREAD_MUTEX_INITIALIZER;

/* The URL of schema `name` in the test database, made when missing; NULL (said on
 * stderr) when the database does not answer. */
static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static const char *schema_url(const char *name)
{
    const char *base = test_db();
    PGconn *c = PQconnectdb(base);
    PQsetNoticeProcessor(c, quiet, NULL);
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE SCHEMA IF NOT EXISTS %s", name);
    PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
    int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "fixture: schema %s: %s", name,
                r ? PQresultErrorMessage(r) : PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    if (!ok)
        return NULL;
    pthread_mutex_lock(&fx_url_mu);
    char *url = fx_urls[fx_url_count++ % FX_URLS];
    pthread_mutex_unlock(&fx_url_mu);
    snprintf(url, sizeof fx_urls[0], "%s%soptions=-csearch_path%%3D%s", base,
             strchr(base, '?') ? "&" : "?", name);
    return url;
}

const char *fx_store_url(void)
{
    if (!test_db())
        return ":memory:";
    static int n;
    pthread_mutex_lock(&fx_url_mu);
    int k = ++n;
    pthread_mutex_unlock(&fx_url_mu);
    char name[64];
    snprintf(name, sizeof name, "t_%d_%d", (int)getpid(), k);
    return schema_url(name);
}

const char *fx_db_for(const char *db_path)
{
    if (!test_db() || !db_path || !strncmp(db_path, "sqlite:", 7) || strstr(db_path, "://"))
        return db_path;
    if (!strcmp(db_path, ":memory:"))
        return fx_store_url();
    uint64_t h = 14695981039346656037ull; /* FNV-1a of the path */
    for (const char *p = db_path; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    char name[64];
    snprintf(name, sizeof name, "f_%016llx", (unsigned long long)h);
    return schema_url(name);
}

void fx_config_defaults(struct server_config *cfg)
{
    server_config_default(cfg);
    cfg->port = 0;
    cfg->db_path = ":memory:";
    cfg->web_dir = NULL;
    /* agora's own engine judges unless a test names an external one (those tests set
     * analysis_engine and say so). */
    cfg->analysis_engine = "none";
    cfg->quiet_engines = 1;
}

void fx_config(struct server_config *cfg)
{
    fx_config_defaults(cfg);
    cfg->http_threads = 2;
    cfg->engine_workers = 1;
    cfg->cache_games = 64;
    cfg->new_games_per_minute = 0;
}

struct server *fx_start(const struct server_config *cfg)
{
    struct server_config plain;
    if (!cfg) {
        fx_config(&plain);
        cfg = &plain;
    }
    struct server_config on = *cfg;
    on.db_path = fx_db_for(cfg->db_path);
    if (!on.db_path)
        return NULL;
    if (on.db_pool == 0)
        on.db_pool = 4;
    char err[256] = "";
    struct server *srv = server_start(&on, err, sizeof err);
    if (!srv)
        fprintf(stderr, "server_start: %s\n", err);
    return srv;
}

int fx_start_pair(struct server_config *cfg, char *url, size_t url_size, struct server **a,
                  struct server **b)
{
    snprintf(url, url_size, "%s", fx_store_url());
    cfg->db_path = url;
    *a = fx_start(cfg);
    *b = *a ? fx_start(cfg) : NULL;
    if (*a && *b)
        return 0;
    server_stop(*a);
    *a = NULL;
    return -1;
}

void fx_tmpdb(char *dir, size_t dir_size, char *db, size_t db_size, const char *name)
{
    test_tmpdir(dir, dir_size);
    snprintf(db, db_size, "%s/%s", dir, name);
}

const char *fx_str(json_t *j, const char *key)
{
    const char *s = json_string_value(json_object_get(j, key));
    return s ? s : "";
}

long long fx_int(json_t *j, const char *key)
{
    return json_integer_value(json_object_get(j, key));
}

int fx_create(int port, const char *path, const char *body, char *id, char *token)
{
    json_t *j = NULL;
    int st = api_call(port, "POST", path, NULL, body, &j);
    snprintf(id, 40, "%s", fx_str(j, "id"));
    snprintf(token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st;
}

json_t *fx_new_game(int port, const char *game, const char *side, const char *position, char *id,
                    char *token)
{
    char body[512];
    if (position)
        snprintf(body, sizeof body,
                 "{\"game\":\"%s\",\"level\":1,\"side\":\"%s\",\"position\":\"%s\"}", game, side,
                 position);
    else
        snprintf(body, sizeof body, "{\"game\":\"%s\",\"level\":1,\"side\":\"%s\"}", game, side);
    json_t *j = NULL;
    if (api_call(port, "POST", "/api/games", NULL, body, &j) != 201) {
        json_decref(j);
        return NULL;
    }
    snprintf(id, 40, "%s", fx_str(j, "id"));
    snprintf(token, 40, "%s", fx_str(j, "token"));
    return j;
}

int fx_game_post(int port, const char *id, const char *op, const char *token, const char *body,
                 json_t **out)
{
    char path[160];
    snprintf(path, sizeof path, "/api/games/%.40s/%s", id, op);
    return api_call(port, "POST", path, token, body, out);
}

const char *fx_first_legal(json_t *state)
{
    return fx_str(json_array_get(json_object_get(state, "legal_moves"), 0), "move");
}

json_t *fx_event(struct sse_reader *r, const char *want, int timeout_ms)
{
    char name[32];
    char *data;
    while ((data = sse_next(r, name, sizeof name, timeout_ms))) {
        int hit = !strcmp(name, want);
        json_t *j = hit ? json_loads(data, 0, NULL) : NULL;
        free(data);
        if (hit)
            return j;
    }
    return NULL;
}

int fx_connect_from(int port, int last)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in src = {.sin_family = AF_INET};
    src.sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)last);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&src, sizeof src) != 0 ||
        connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int64_t fx_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t fx_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void fx_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int fx_people_game(int port, const char *body, char *game, char *creator_token, char *bob_token)
{
    char cid[40], path[128];
    if (fx_create(port, "/api/challenges", body, cid, creator_token) != 201)
        return -1;
    snprintf(path, sizeof path, "/api/challenges/%.40s/accept", cid);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &j);
    snprintf(game, 40, "%s", fx_str(j, "id"));
    snprintf(bob_token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st == 200 ? 0 : -1;
}

char *fx_fingerprint(json_t *state)
{
    json_t *f =
        json_pack("{sOsOsOsO}", "position", json_object_get(state, "position"), "moves",
                  json_object_get(state, "moves"), "status", json_object_get(state, "status"),
                  "updated", json_object_get(state, "updated"));
    char *s = json_dumps(f, JSON_SORT_KEYS | JSON_COMPACT);
    json_decref(f);
    return s;
}

char *fx_fingerprint_of(int port, const char *id)
{
    json_t *st = api_get_state(port, id);
    char *f = st ? fx_fingerprint(st) : strdup("(no state)");
    json_decref(st);
    return f;
}

int fx_move(int port, const char *id, const char *token, const char *move)
{
    json_t *j = NULL;
    int st = api_post_move(port, id, token, move, &j);
    json_decref(j);
    return st;
}

json_t *fx_state(int port, const char *id, const char *token)
{
    char path[160];
    snprintf(path, sizeof path, "/api/games/%.40s", id);
    json_t *j = NULL;
    if (api_call(port, "GET", path, token, NULL, &j) != 200) {
        json_decref(j);
        return NULL;
    }
    return j;
}

pid_t fx_spawn_worker(const char *url, int move_ms, const char *const *extra)
{
    char ms[16];
    snprintf(ms, sizeof ms, "%d", move_ms);
    /* agora's own engine judges the reviews, as fx_config's servers (extra may name
     * another: the last --analysis-engine counts). */
    char *argv[26] = {"agora", "worker", "--db", (char *)url, "--quiet", "--analysis-engine",
                      "none"};
    int argc = 7;
    if (move_ms > 0) {
        argv[argc++] = "--move-ms";
        argv[argc++] = ms;
    }
    for (int i = 0; extra && extra[i] && argc < 24; i++)
        argv[argc++] = (char *)extra[i];
    argv[argc] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        execv("./agora", argv);
        _exit(127);
    }
    return pid;
}

int fx_stop_worker(pid_t pid)
{
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

long long fx_db_number(const char *url, const char *sql)
{
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
    long long v = r && PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
                      ? strtoll(PQgetvalue(r, 0, 0), NULL, 10)
                      : -1;
    PQclear(r);
    PQfinish(c);
    return v;
}

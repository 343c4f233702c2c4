/* The HTTP layer over libmicrohttpd: bodies (16 KiB at most), the API's answers,
 * requests that wait for the computer (suspended connections, resumed by the worker
 * that moved), event streams (suspended while there is no news) and static files.
 * The daemon runs its own epoll thread pool; nothing here blocks on the engine. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis_jobs.h"
#include "api.h"
#include "cache.h"
#include "clock.h"
#include "core/error.h"
#include "games/registry.h"
#include "http_challenge_streams.h"
#include "http_limits.h"
#include "http_reply.h"
#include "http_streams.h"
#include "openings_api.h"
#include "people.h"
#include "people_json.h"
#include "puzzle_set.h"
#include "ratelimit.h"
#include "review_jobs.h"
#include "server_state.h"
#include "session.h"
#include "state_json.h"
#include "store/store_gate.h"
#include "stream_hub.h"
#include "workers.h"

/* One HTTP request's state across the callbacks. */
struct conn {
    struct api_waiter w; /* first: a struct api_waiter * is a struct conn * */
    struct server *srv;
    struct MHD_Connection *mc;
    char *body;
    size_t len;
    bool too_large;
    /* A reply made by a worker, under its session's mutex. */
    bool done, suspended;
    int status;
    char *reply;
};

static void conn_done(struct api_waiter *w, int status, char *body)
{
    struct conn *c = (struct conn *)w;
    c->status = status;
    c->reply = body;
    c->done = true;
    if (c->suspended) {
        c->suspended = false;
        MHD_resume_connection(c->mc);
    }
}

/* ---- analysis streams: the analysis thread queues text, the reader sends it ---- */

static ssize_t analysis_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct analysis_job *j = cls;
    ssize_t ret = 0;
    pthread_mutex_lock(&j->mu);
    if (j->out_off < j->out_len) {
        size_t n = j->out_len - j->out_off < max ? j->out_len - j->out_off : max;
        memcpy(buf, j->out + j->out_off, n);
        j->out_off += n;
        if (j->out_off == j->out_len)
            j->out_off = j->out_len = 0;
        ret = (ssize_t)n;
    } else if (j->finished || atomic_load(&j->srv->stopping)) {
        ret = MHD_CONTENT_READER_END_OF_STREAM;
    } else {
        j->suspended = true; /* until the next lines (analysis_jobs.c's emit) */
        MHD_suspend_connection(j->reader);
    }
    pthread_mutex_unlock(&j->mu);
    return ret;
}

static void analysis_wake(struct analysis_job *j)
{
    MHD_resume_connection(j->reader);
}

/* The response is gone (sent, or the client went away): stop the search. */
static void analysis_free(void *cls)
{
    struct analysis_job *j = cls;
    pthread_mutex_lock(&j->mu);
    j->wake = NULL;
    j->suspended = false;
    pthread_mutex_unlock(&j->mu);
    atomic_store(&j->stop, 1);
    analysis_job_put(j);
}

static enum MHD_Result start_analysis(struct conn *c, struct analysis_job *j)
{
    pthread_mutex_lock(&j->mu);
    j->reader = c->mc;
    j->wake = analysis_wake;
    pthread_mutex_unlock(&j->mu);
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, analysis_read, j, analysis_free);
    if (!r) {
        analysis_free(j);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    http_security_headers(r);
    enum MHD_Result ok = MHD_queue_response(c->mc, MHD_HTTP_OK, r);
    MHD_destroy_response(r); /* analysis_free runs when the response goes */
    return ok;
}

/* ---- static files ---- */

static const char placeholder_page[] =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>agora</title>"
    "</head>\n<body><h1>agora</h1><p>The game server is running, but the browser UI is not "
    "built yet (no web/ folder). The API is at <code>/api/games</code>.</p></body></html>\n";

static const char *content_type(const char *path)
{
    static const struct {
        const char *ext, *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".woff2", "font/woff2"},
        {".txt", "text/plain; charset=utf-8"},
        {".webmanifest", "application/manifest+json"},
    };
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(dot, types[i].ext))
            return types[i].type;
    return "application/octet-stream";
}

/* Open `rel` ("/a/b.js") under the folder `root` without leaving it: each component is
 * opened relative to the one before with O_NOFOLLOW, so no symbolic link inside web/ is
 * followed (out of it or anywhere), and "." and ".." are refused.  The root itself may
 * be a link (how it was configured).  A file descriptor, or -1. */
static int open_under(const char *root, const char *rel)
{
    int dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const char *p = rel;
    while (dir >= 0) {
        while (*p == '/')
            p++;
        size_t n = strcspn(p, "/");
        char part[256];
        if (n == 0 || n >= sizeof part || (n == 1 && p[0] == '.') ||
            (n == 2 && p[0] == '.' && p[1] == '.'))
            break;
        memcpy(part, p, n);
        part[n] = 0;
        p += n;
        bool last = !strchr(p, '/') || !p[strspn(p, "/")];
        int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY);
        int next = openat(dir, part, flags);
        close(dir);
        if (next < 0 || last)
            return next;
        dir = next;
    }
    if (dir >= 0)
        close(dir);
    return -1;
}

static enum MHD_Result serve_file(struct conn *c, const char *url)
{
    struct server *srv = c->srv;
    char rel[1024];
    size_t n = strlen(url);
    if (n == 0 || url[0] != '/' || n + 16 > sizeof rel || strstr(url, "..") || strchr(url, '\\'))
        return http_send_body(c->mc, 404, api_error_body("no such file"), "application/json");
    snprintf(rel, sizeof rel, "%s%s", url, url[n - 1] == '/' ? "index.html" : "");
    if (!srv->have_web) {
        if (!strcmp(rel, "/index.html"))
            return http_send_body(c->mc, 200, strdup(placeholder_page), "text/html; charset=utf-8");
        return http_send_body(c->mc, 404, api_error_body("no such file"), "application/json");
    }
    int fd = open_under(srv->web_dir, rel);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        if (fd >= 0)
            close(fd);
        return http_send_body(c->mc, 404, api_error_body("no such file '%.200s'", url),
                              "application/json");
    }
    struct MHD_Response *r = MHD_create_response_from_fd((uint64_t)sb.st_size, fd);
    if (!r) {
        close(fd);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type(rel));
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    http_security_headers(r);
    enum MHD_Result ok = MHD_queue_response(c->mc, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

/* ---- requests ---- */

static void client_address(struct MHD_Connection *mc, char *out, size_t size)
{
    snprintf(out, size, "?");
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!ci || !ci->client_addr)
        return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out,
                  (socklen_t)size);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out,
                  (socklen_t)size);
}

/* The request's path and query, rebuilt from MHD's arguments (those that fit). */
struct query {
    char buf[1024];
    size_t len;
};

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind;
    struct query *q = cls;
    const char *v = value ? value : "";
    size_t need = strlen(key) + strlen(v) + 2;
    if (q->len + need < sizeof q->buf) {
        snprintf(q->buf + q->len, sizeof q->buf - q->len, "%c%s=%s",
                 strchr(q->buf, '?') ? '&' : '?', key, v);
        q->len += need;
    }
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *mc, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    (void)version;
    struct server *srv = cls;
    struct conn *c = *con_cls;
    store_gate_mark_thread(); /* this is an HTTP thread: its database waits are bounded */
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return MHD_NO;
        c->srv = srv;
        c->mc = mc;
        c->w.done = conn_done;
        *con_cls = c;
        char why[128];
        int too_big = conn_limits_request_too_big(mc, url, why, sizeof why);
        if (too_big) {
            c->too_large = true;
            conn_limits_request_received(mc); /* answered now: no 408 may follow */
            return http_send_body(mc, too_big, api_error_body("%s", why), "application/json");
        }
        const char *cl =
            MHD_lookup_connection_value(mc, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > SERVER_BODY_MAX) {
            /* Refused before the body is read: the 413 goes out at once. */
            c->too_large = true;
            conn_limits_request_received(mc);
            return http_send_body(mc, 413,
                                  api_error_body("the body is over %d bytes", SERVER_BODY_MAX),
                                  "application/json");
        }
        return MHD_YES;
    }
    if (!*upload_data_size && srv->limits)
        conn_limits_request_received(mc); /* all of it is in: no deadline while answered */
    if (c->done) {                        /* resumed: the computer has replied */
        char *reply = c->reply;
        c->reply = NULL;
        return http_send_body(mc, c->status, reply, "application/json");
    }
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (c->len + n > SERVER_BODY_MAX) {
            /* A body without a length (chunked) passing the limit: libmicrohttpd cannot
             * answer in the middle of a body, so the connection is closed at once rather
             * than the rest read (and dropped) for as long as it comes. */
            return MHD_NO;
        }
        char *b = realloc(c->body, c->len + n + 1);
        if (!b)
            return MHD_NO;
        memcpy(b + c->len, upload_data, n);
        c->body = b;
        c->len += n;
        b[c->len] = 0;
        return MHD_YES;
    }

    char client[INET6_ADDRSTRLEN + 1];
    if (!srv->cfg.trust_proxy ||
        !ratelimit_forwarded_addr(
            MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "X-Forwarded-For"), client,
            sizeof client))
        client_address(mc, client, sizeof client);
    struct api_request req = {
        .method = method,
        .url = url,
        .authorization =
            MHD_lookup_connection_value(mc, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION),
        .last_event_id = MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "Last-Event-ID"),
        .origin = MHD_lookup_connection_value(mc, MHD_HEADER_KIND, "Origin"),
        .host = MHD_lookup_connection_value(mc, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST),
        .content_type =
            MHD_lookup_connection_value(mc, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE),
        .seat = MHD_lookup_connection_value(mc, MHD_GET_ARGUMENT_KIND, "seat"),
        .client = client,
        .body = c->body ? c->body : "",
        .body_len = c->len,
        .body_too_large = c->too_large,
        .waiter = &c->w,
    };
    /* MHD hands the path without its query: the query is put back (decoded) for the
     * routes that read one, and so that a ?token= is refused. */
    struct query q = {.len = 0};
    if (snprintf(q.buf, sizeof q.buf, "%s", url) < (int)sizeof q.buf) {
        q.len = strlen(q.buf);
        MHD_get_connection_values(mc, MHD_GET_ARGUMENT_KIND, query_arg, &q);
        req.url = q.buf;
    }
    /* A ?token= that did not fit is still passed on, alone, to be refused. */
    const char *tok = MHD_lookup_connection_value(mc, MHD_GET_ARGUMENT_KIND, "token");
    if (tok && !strstr(req.url, "token=")) {
        snprintf(q.buf, sizeof q.buf, "%.900s?token=x", url);
        req.url = q.buf;
    }
    struct api_response ar;
    api_handle(srv, &req, &ar);
    switch (ar.kind) {
    case API_DONE: return http_send_body(mc, ar.status, ar.body, ar.content_type);
    case API_WAIT: {
        struct session *s = ar.session;
        pthread_mutex_lock(&s->mu);
        bool done = c->done;
        if (!done) {
            c->suspended = true;
            MHD_suspend_connection(mc);
        }
        pthread_mutex_unlock(&s->mu);
        cache_put(s);
        if (done) {
            char *reply = c->reply;
            c->reply = NULL;
            return http_send_body(mc, c->status, reply, "application/json");
        }
        return MHD_YES;
    }
    case API_STREAM: return http_start_stream(c->srv, c->mc, &ar, client);
    case API_CHALLENGE_STREAM: return http_start_challenge_stream(c->srv, c->mc, &ar, client);
    case API_STATIC: return serve_file(c, ar.path);
    case API_ANALYSIS: return start_analysis(c, ar.job);
    }
    return MHD_NO;
}

static void on_completed(void *cls, struct MHD_Connection *mc, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)toe;
    struct server *srv = cls;
    if (srv->limits)
        conn_limits_request_done(mc);
    struct conn *c = *con_cls;
    if (!c)
        return;
    free(c->body);
    free(c->reply);
    free(c);
    *con_cls = NULL;
}

/* ---- the server ---- */

void server_config_default(struct server_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->host = "127.0.0.1";
    cfg->port = 8080;
    cfg->db_path = "agora.db";
    cfg->sync = STORE_SYNC_NORMAL; /* survives kill -9; see API.md "Guarantees" */
    cfg->web_dir = "web";
    cfg->http_threads = 8;
    cfg->engine_workers = 2;
    cfg->committers = 8;
    cfg->move_time_ms = 5000;
    cfg->cache_games = 0;
    cfg->cache_mb = 512;
    cfg->new_games_per_minute = 30;
    cfg->max_plies = 1000;
    cfg->analysis_threads = 2;
    cfg->analysis_nice = 19;
    cfg->analysis_max = 4;
    cfg->analysis_per_client = 2;
    cfg->analysis_ms = 10000;
    cfg->review_threads = 1;
    cfg->review_max = 2;
    cfg->connections_per_address = 64;
    cfg->streams_per_address = 32;
    cfg->streams_per_game = 64;
    cfg->header_ms = 5000;
    cfg->idle_ms = 60000;
    cfg->queued_per_address = 8;
    cfg->db_waiters = 0;
}

int server_port(const struct server *srv)
{
    return srv->port;
}

static void wake_streams(struct session *s)
{
    pthread_mutex_lock(&s->mu);
    session_notify(s);
    pthread_mutex_unlock(&s->mu);
}

void server_stop(struct server *srv)
{
    if (!srv)
        return;
    atomic_store(&srv->stopping, 1);
    clock_stop(srv);
    if (srv->buckets) {
        /* Answer every waiting request (the workers drain the queue), end every stream,
         * then stop the daemon, which must hold no suspended connection. */
        workers_stop(srv);
        analysis_jobs_stop(srv); /* every analysis ends and wakes its stream */
        review_jobs_stop(srv);
        cache_each(srv, wake_streams);
        if (srv->hub)
            stream_hub_ping_all(srv->hub, false); /* they see `stopping` and end */
        if (srv->daemon)
            MHD_stop_daemon(srv->daemon);
        conn_limits_free(srv->limits);
        stream_hub_free(srv->hub);
        cache_free(srv);
    }
    if (srv->puzzles)
        puzzle_set_free(srv->puzzles);
    free(srv->puzzles);
    if (srv->store)
        srv->store->ops->close(srv->store);
    ratelimit_free(srv->limiter);
    openings_free(srv);
    free(srv);
}

struct server *server_start(const struct server_config *cfg, char *err, size_t err_size)
{
    struct server *srv = calloc(1, sizeof *srv);
    if (!srv) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    srv->cfg = *cfg;
    openings_init(srv);
    snprintf(srv->host, sizeof srv->host, "%s", cfg->host ? cfg->host : "127.0.0.1");
    srv->cfg.host = srv->host;
    if (srv->cfg.cache_games <= 0) {
        /* States differ a lot (chess keeps 18000 plies of history: ~280 KB): budget
         * by the largest, so any mix of games fits in cache_mb. */
        size_t largest = 1;
        for (int i = 0; game_registry[i]; i++)
            if (game_registry[i]->state_size > largest)
                largest = game_registry[i]->state_size;
        size_t budget = (size_t)(srv->cfg.cache_mb > 0 ? srv->cfg.cache_mb : 512) << 20;
        srv->cfg.cache_games = (int)(budget / largest < 1000000 ? budget / largest : 1000000);
    }
    if (srv->cfg.cache_games < 16)
        srv->cfg.cache_games = 16;
    if (srv->cfg.http_threads < 1)
        srv->cfg.http_threads = 1;
    struct stat sb;
    if (cfg->web_dir && stat(cfg->web_dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
        strlen(cfg->web_dir) < sizeof srv->web_dir) {
        snprintf(srv->web_dir, sizeof srv->web_dir, "%s", cfg->web_dir);
        srv->have_web = true;
    }
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)cfg->port);
    if (!cfg->no_http && inet_pton(AF_INET, srv->host, &sa.sin_addr) != 1) {
        fail(err, err_size, "bad host '%s': expected an IPv4 address such as 127.0.0.1", srv->host);
        goto fail;
    }
    /* At most db_waiters HTTP threads inside the database at once (store_gate.h): a
     * locked database cannot take all of them. */
    int db_waiters = cfg->db_waiters > 0 ? cfg->db_waiters : (srv->cfg.http_threads + 1) / 2;
    srv->store =
        store_gate_wrap(store_sqlite_open(cfg->db_path, cfg->sync, err, err_size), db_waiters);
    if (!srv->store)
        goto fail;
    srv->puzzles = calloc(1, sizeof *srv->puzzles);
    if (!srv->puzzles ||
        puzzle_set_load(srv->puzzles, cfg->puzzles_dir, srv->store, err, err_size) != 0)
        goto fail;
    if (cfg->new_games_per_minute > 0 &&
        !(srv->limiter = ratelimit_new(cfg->new_games_per_minute))) {
        fail(err, err_size, "out of memory");
        goto fail;
    }
    cache_init(srv);
    srv->hub = stream_hub_new();
    if (!srv->buckets || !srv->hub) {
        fail(err, err_size, "out of memory");
        goto fail;
    }
    if (workers_start(srv, err, err_size) != 0 || analysis_jobs_start(srv, err, err_size) != 0 ||
        review_jobs_start(srv, err, err_size) != 0 || clock_start(srv, err, err_size) != 0)
        goto fail;
    if (cfg->no_http)
        return srv;
    srv->limits = conn_limits_new(cfg->header_ms, cfg->idle_ms, cfg->streams_per_address);
    if (!srv->limits) {
        fail(err, err_size, "cannot start the connection guard");
        goto fail;
    }
    /* Connections per address: libmicrohttpd's own cap (it closes one over it at once).
     * Behind a proxy every client has the proxy's address: the proxy must cap them. */
    unsigned per_ip = cfg->trust_proxy || cfg->connections_per_address <= 0
                          ? 0u
                          : (unsigned)cfg->connections_per_address;
    srv->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME,
        (uint16_t)cfg->port, NULL, NULL, on_request, srv, MHD_OPTION_SOCK_ADDR, &sa,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)srv->cfg.http_threads, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, srv, MHD_OPTION_NOTIFY_CONNECTION, conn_limits_notify, srv->limits,
        MHD_OPTION_URI_LOG_CALLBACK, conn_limits_uri_log, srv->limits,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)HTTP_MEMORY_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT, 120u, MHD_OPTION_CONNECTION_LIMIT,
        4000u, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_END);
    if (!srv->daemon) {
        fail(err, err_size, "cannot listen on %s:%d (in use, or not allowed)", srv->host,
             cfg->port);
        goto fail;
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
    srv->port = di ? di->port : cfg->port;
    return srv;
fail:
    server_stop(srv);
    return NULL;
}

int server_request(struct server *srv, const char *method, const char *url,
                   const char *authorization, const char *body, size_t body_len, char **out)
{
    struct api_request req = {
        .method = method,
        .url = url,
        .authorization = authorization,
        .client = "fuzz",
        .body = body,
        .body_len = body_len,
        .body_too_large = body_len > SERVER_BODY_MAX,
    };
    struct api_response ar;
    api_handle(srv, &req, &ar);
    *out = NULL;
    if (ar.kind == API_DONE) {
        *out = ar.body;
        return ar.status;
    }
    if (ar.kind == API_STREAM)
        cache_put(ar.session);
    if (ar.kind == API_ANALYSIS) { /* no stream to send it to: stopped at once */
        atomic_store(&ar.job->stop, 1);
        analysis_job_put(ar.job);
    }
    *out = strdup(ar.kind == API_STATIC ? "file" : "stream");
    return 200;
}

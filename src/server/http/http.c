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
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "server/analysis/analysis_jobs.h"
#include "server/common/api_util.h"
#include "server/common/ratelimit.h"
#include "server/games/cache.h"
#include "server/games/session.h"
#include "server/http/http.h"
#include "server/http/http_challenge_streams.h"
#include "server/http/http_host.h"
#include "server/http/http_limits.h"
#include "server/http/http_notice_streams.h"
#include "server/http/http_reply.h"
#include "server/http/http_streams.h"
#include "server/http/http_tournament_streams.h"
#include "server/routes.h"
#include "server/server_state.h"
#include "store/store_gate.h"

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

/* The client of a followed analysis hung up (under the guard's mutex). */
static void analysis_gone(void *arg)
{
    struct analysis_job *j = arg;
    atomic_store(&j->stop, 1);
}

/* The response is gone (sent, or the client went away): stop the search. */
static void analysis_free(void *cls)
{
    struct analysis_job *j = cls;
    if (j->watch) {
        conn_limits_unwatch(j->srv->limits, j->watch);
        free(j->watch);
        j->watch = NULL;
    }
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
    if (j->followed && j->srv->limits && (j->watch = malloc(sizeof(struct conn_stream_ticket))))
        conn_limits_watch(j->srv->limits, j->watch, c->mc, analysis_gone, j);
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
        return http_send_body(c->mc, 404, api_error_body(404, NULL, "no such file"),
                              "application/json");
    snprintf(rel, sizeof rel, "%s%s", url, url[n - 1] == '/' ? "index.html" : "");
    if (!srv->have_web) {
        if (!strcmp(rel, "/index.html"))
            return http_send_body(c->mc, 200, strdup(placeholder_page), "text/html; charset=utf-8");
        return http_send_body(c->mc, 404, api_error_body(404, NULL, "no such file"),
                              "application/json");
    }
    int fd = open_under(srv->web_dir, rel);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        if (fd >= 0)
            close(fd);
        return http_send_body(c->mc, 404, api_error_body(404, NULL, "no such file '%.200s'", url),
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
    char over[48]; /* the first argument that did not fit, or "" */
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
    } else if (!q->over[0]) {
        snprintf(q->over, sizeof q->over, "%.40s", key);
    }
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *mc, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
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
        const char *host = MHD_lookup_connection_value(mc, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
        if (!http_host_served(srv, host, version)) {
            c->too_large = true; /* answered now: its body is not read */
            conn_limits_request_received(mc);
            return http_send_body(mc, 421,
                                  api_error_body(421, NULL,
                                                 "this server does not serve the host '%.100s' "
                                                 "(agora serve --host-name NAME)",
                                                 host ? host : ""),
                                  "application/json");
        }
        char why[128];
        int too_big = conn_limits_request_too_big(mc, url, why, sizeof why);
        if (too_big) {
            c->too_large = true;
            conn_limits_request_received(mc); /* answered now: no 408 may follow */
            return http_send_body(mc, too_big, api_error_body(too_big, NULL, "%s", why),
                                  "application/json");
        }
        const char *cl =
            MHD_lookup_connection_value(mc, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > SERVER_BODY_MAX) {
            /* Refused before the body is read: the 413 goes out at once. */
            c->too_large = true;
            conn_limits_request_received(mc);
            return http_send_body(
                mc, 413, api_error_body(413, NULL, "the body is over %d bytes", SERVER_BODY_MAX),
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
        /* A query over its limit is refused, never read in part (issue 25). */
        if (q.over[0])
            return http_send_body(
                mc, 400,
                api_error_body(400, NULL, "bad ?%s=: too long (a query holds at most %zu bytes)",
                               q.over, sizeof q.buf - 1),
                "application/json");
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
    case API_DONE: return http_send_answer(mc, ar.status, ar.body, ar.content_type, ar.allow);
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
    case API_TOURNAMENT_STREAM: return http_start_tournament_stream(c->srv, c->mc, &ar, client);
    case API_NOTICE_STREAM: return http_start_notice_stream(c->srv, c->mc, &ar, client);
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

/* ---- the daemon ---- */

int http_check_host(const char *host, char *err, size_t err_size)
{
    struct in_addr a;
    if (inet_pton(AF_INET, host, &a) != 1)
        return fail(err, err_size, "bad host '%s': expected an IPv4 address such as 127.0.0.1",
                    host);
    return 0;
}

/* Connections held at once.  Each player of a game holds two (its event stream and a
 * kept-alive connection for its moves), so the cap is set by the limit on open files:
 * its soft value is raised to the hard one (Debian's default soft limit, 1024, would
 * hold 500 players), less FD_RESERVE for the rest of the server (the database, its
 * pool, engines' pipes, files served).  --max-connections caps it lower. */
#define FD_RESERVE 256

static unsigned connection_limit(const struct server_config *cfg)
{
    struct rlimit rl;
    rlim_t files = 4096;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        if (rl.rlim_cur < rl.rlim_max) {
            struct rlimit up = {rl.rlim_max, rl.rlim_max};
            if (setrlimit(RLIMIT_NOFILE, &up) == 0)
                rl.rlim_cur = rl.rlim_max;
        }
        files = rl.rlim_cur;
    }
    rlim_t reserve = FD_RESERVE + (rlim_t)(cfg->db_pool > 0 ? cfg->db_pool : 0);
    rlim_t most = files > reserve + 16 ? files - reserve : 16;
    if (most > 1000000)
        most = 1000000;
    if (cfg->max_connections > 0 && (rlim_t)cfg->max_connections <= most)
        return (unsigned)cfg->max_connections;
    if (cfg->max_connections > 0)
        fprintf(stderr,
                "agora: serve: --max-connections %d is over what the limit on open files "
                "(%llu) leaves: %llu\n",
                cfg->max_connections, (unsigned long long)files, (unsigned long long)most);
    return (unsigned)most;
}

int http_start(struct server *srv, char *err, size_t err_size)
{
    const struct server_config *cfg = &srv->cfg;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)cfg->port);
    if (inet_pton(AF_INET, srv->host, &sa.sin_addr) != 1)
        return fail(err, err_size, "bad host '%s': expected an IPv4 address such as 127.0.0.1",
                    srv->host);
    srv->limits = conn_limits_new(cfg->header_ms, cfg->idle_ms, cfg->streams_per_address);
    if (!srv->limits)
        return fail(err, err_size, "cannot start the connection guard");
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
        connection_limit(cfg), MHD_OPTION_LISTEN_BACKLOG_SIZE, 4096u, MHD_OPTION_END);
    if (!srv->daemon)
        return fail(err, err_size, "cannot listen on %s:%d (in use, or not allowed)", srv->host,
                    cfg->port);
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
    srv->port = di ? di->port : cfg->port;
    return 0;
}

void http_stop(struct server *srv)
{
    if (srv->daemon)
        MHD_stop_daemon(srv->daemon);
    srv->daemon = NULL;
    conn_limits_free(srv->limits);
    srv->limits = NULL;
}

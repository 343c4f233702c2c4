/* Which Host headers the server answers (http_host.h): a name is what a rebinding page
 * cannot choose, so the name is checked, not the port.  Served: an IP address of the
 * server's own (its listening address, a loopback address, or any address when it
 * listens on 0.0.0.0), `localhost`, and the names of `--host-name` (cfg.host_names, a
 * comma-separated list; an entry with a port matches that port only). */
#include "server/http/http_host.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <strings.h>

#include "server/server_state.h"

#define HOST_NAME_MAX_LEN 255

/* Does the list entry [e, e + n) name this host (name, the whole header `host`)? */
static bool entry_matches(const char *e, size_t n, const char *name, const char *host)
{
    while (n && (*e == ' ' || *e == '\t'))
        e++, n--;
    while (n && (e[n - 1] == ' ' || e[n - 1] == '\t'))
        n--;
    if (!n)
        return false;
    const char *target = memchr(e, ':', n) && e[0] != '[' ? host : name;
    return strlen(target) == n && !strncasecmp(target, e, n);
}

bool http_host_served(const struct server *srv, const char *host, const char *version)
{
    if (!host || !*host) /* HTTP/1.0 may leave it out; HTTP/1.1 must send it */
        return version && !strcmp(version, "HTTP/1.0");
    size_t len = strlen(host);
    if (len > HOST_NAME_MAX_LEN)
        return false;
    /* The name: "[v6]" without its brackets, else the part before ':'. */
    char name[HOST_NAME_MAX_LEN + 1];
    if (host[0] == '[') {
        const char *end = strchr(host, ']');
        if (!end || (end[1] && end[1] != ':'))
            return false;
        memcpy(name, host + 1, (size_t)(end - host - 1));
        name[end - host - 1] = 0;
    } else {
        size_t n = strcspn(host, ":");
        memcpy(name, host, n);
        name[n] = 0;
    }
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, name, &a4) == 1)
        return (ntohl(a4.s_addr) >> 24) == 127 || !strcmp(name, srv->host) ||
               !strcmp(srv->host, "0.0.0.0");
    if (inet_pton(AF_INET6, name, &a6) == 1)
        return IN6_IS_ADDR_LOOPBACK(&a6) || !strcmp(srv->host, "0.0.0.0");
    size_t nl = strlen(name);
    if (nl && name[nl - 1] == '.') /* "localhost." is "localhost" */
        name[--nl] = 0;
    if (!strcasecmp(name, "localhost"))
        return true;
    for (const char *e = srv->cfg.host_names; e && *e;) {
        size_t n = strcspn(e, ",");
        if (entry_matches(e, n, name, host))
            return true;
        e += n + (e[n] == ',');
    }
    return false;
}

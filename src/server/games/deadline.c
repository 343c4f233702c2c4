/* The flag timer's wake-up (deadline.h). */
#include "server/games/deadline.h"

#include <pthread.h>

#include "server/server_state.h"

void deadline_kick(struct server *srv, int64_t deadline_ms)
{
    if (!srv->ck_running || deadline_ms <= 0)
        return;
    pthread_mutex_lock(&srv->ck_mu);
    if (deadline_ms < srv->ck_until) {
        srv->ck_kicked = true;
        pthread_cond_signal(&srv->ck_cv);
    }
    pthread_mutex_unlock(&srv->ck_mu);
}

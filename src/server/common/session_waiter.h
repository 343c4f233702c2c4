/* Someone waiting for an answer from the game model (a suspended request): the API
 * fills it, the game model answers it (session.h).  In its own header so the API's
 * types (common/api_types.h) need nothing of the games' room. */
#pragma once

struct session;

/* Someone waiting for the computer's reply (a suspended request).  session_commit
 * calls answer() once, under s->mu, when the reply is made and committed (error NULL)
 * or could not be stored (error says what failed); then the session forgets it. */
struct session_waiter {
    void (*answer)(struct session_waiter *w, struct session *s, const char *error);
    int busy; /* set before answer() with an error: the database was busy or away (a 503) */
};

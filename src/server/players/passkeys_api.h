/* Passkeys (passkeys_api.c; API.md "Passkeys"): a player registers a WebAuthn
 * credential on a device; on any device that has it (synced, or a security key) it
 * signs in as the same player without a password.  The checks of WebAuthn's own are
 * src/webauthn/'s; this room keeps the challenges, the credentials and the devices. */
#pragma once

#include "server/common/route.h"

/* POST /api/me/passkeys/options, POST /api/me/passkeys, GET /api/me/passkeys,
 * POST /api/me/passkeys/revoke, POST /api/signin/passkey/options,
 * POST /api/signin/passkey. */
route_handler players_passkey_options, players_passkey_add, players_passkeys,
    players_passkey_revoke, players_signin_options, players_signin_passkey;

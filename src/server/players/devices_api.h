/* One player on several devices (devices_api.c; API.md "Devices"): the player's
 * personal link and its QR code, signing a device in through it, the devices listed and
 * revoked.  A device gets a token of its own, which stands for the player everywhere
 * (common/api_util.h api_bearer_hash). */
#pragma once

#include "server/common/route.h"

/* POST /api/me/link, POST /api/me/link/revoke, POST /api/signin, GET /api/me/devices,
 * POST /api/me/devices/{id}/revoke. */
route_handler players_link, players_link_revoke, players_signin, players_devices,
    players_device_revoke;

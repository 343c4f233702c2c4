// One player on several devices (src/server/API.md "Devices") with the player's token:
// the personal link and its QR code, signing this device in through a link, the
// devices listed and revoked.
import { request } from './http.js';
import { playerToken } from '../local/storage.js';

const enc = encodeURIComponent;

/** POST /api/me/link: a new personal link for the page's own address. */
export const makeLink = (base) => request('POST', '/api/me/link', { body: { base }, token: playerToken() });
export const revokeLink = () => request('POST', '/api/me/link/revoke', { body: {}, token: playerToken() });
/** POST /api/signin: this device signed in through a link's code. */
export const signin = (code, device) => request('POST', '/api/signin', { body: device ? { code, device } : { code } });
export const devices = () => request('GET', '/api/me/devices', { token: playerToken() });
export const revokeDevice = (id) => request('POST', `/api/me/devices/${enc(id)}/revoke`, { body: {}, token: playerToken() });

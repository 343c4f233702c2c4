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

// ---- passkeys (API.md "Passkeys"): binary fields travel as base64url.

/** Bytes (an ArrayBuffer or a view) as base64url without padding. */
export function toB64url(buf) {
  const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
/** base64url as bytes. */
export function fromB64url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** Registers a passkey of this device's authenticator for the player. */
export async function addPasskey(name) {
  const o = await request('POST', '/api/me/passkeys/options', { body: {}, token: playerToken() });
  const cred = await navigator.credentials.create({ publicKey: {
    ...o, challenge: fromB64url(o.challenge), user: { ...o.user, id: fromB64url(o.user.id) },
  } });
  return request('POST', '/api/me/passkeys', { token: playerToken(), body: {
    clientDataJSON: toB64url(cred.response.clientDataJSON), attestationObject: toB64url(cred.response.attestationObject), name,
  } });
}
export const passkeys = () => request('GET', '/api/me/passkeys', { token: playerToken() });
export const revokePasskey = (id) => request('POST', '/api/me/passkeys/revoke', { body: { id }, token: playerToken() });

/** Signs this device in with a passkey the authenticator offers for the site. */
export async function signinPasskey(device) {
  const o = await request('POST', '/api/signin/passkey/options', { body: {} });
  const cred = await navigator.credentials.get({ publicKey: { ...o, challenge: fromB64url(o.challenge) } });
  const body = {
    id: cred.id, clientDataJSON: toB64url(cred.response.clientDataJSON),
    authenticatorData: toB64url(cred.response.authenticatorData), signature: toB64url(cred.response.signature),
  };
  if (device) body.device = device;
  return request('POST', '/api/signin/passkey', { body });
}

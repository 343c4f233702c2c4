// Games between people over the server's API (src/server/API.md "People"): challenges,
// seeks, a game's operations with the visitor's own token.  The visitor's token and
// display name are kept by web/js/local/storage.js (visitor()); each game's token by
// api.js (rememberGame), so the play page acts with it.
import { rememberGame, tokenOf, withBoard } from './api.js';
import { request } from './http.js';
import { visitor, saveVisitor, clubs, saveClubs } from '../local/storage.js';

export { visitor };

function keepVisitor(token, name) {
  const v = visitor();
  saveVisitor({ token: token || v.token, name: name || v.name });
}

const call = (method, path, body, token) => request(method, path, { body, token });

/** POST /api/challenges (or /api/seeks with lobby): {id, url, token, status}. */
export async function createChallenge(fields, lobby = false) {
  const c = await call('POST', lobby ? '/api/seeks' : '/api/challenges', fields, visitor().token);
  keepVisitor(c.token, fields.name);
  return c;
}

export const getChallenge = (id) => call('GET', `/api/challenges/${encodeURIComponent(id)}`);
export const listSeeks = () => call('GET', '/api/seeks');
export const cancelChallenge = (id) => call('POST', `/api/challenges/${encodeURIComponent(id)}/cancel`, {}, visitor().token);

/** Accept a challenge or seek: the game's state, its token remembered for the game. */
export async function acceptChallenge(id, name) {
  const st = await call('POST', `/api/challenges/${encodeURIComponent(id)}/accept`, { name }, visitor().token);
  keepVisitor(st.token, name);
  rememberGame(st);
  return st;
}

/** The creator learns of the game from the challenge: remember it under their token. */
export function rememberOwnGame(gameId, game) {
  rememberGame({ id: gameId, token: visitor().token, game });
}

/** POST /api/games/{id}/{op} with the game's token (API.md "A game between people"):
 *  the state with what the board needs (layout, pieces), as every answer of a game. */
export const gameOp = async (id, op, body = {}) => withBoard(await call('POST', `/api/games/${encodeURIComponent(id)}/${op}`, body, tokenOf(id)));

// ---- clubs (API.md "Clubs"); the visitor's clubs are remembered (storage.js clubs()).
export const myClubs = clubs;

function keepClub(club) {
  const all = myClubs();
  if (club.you) all[club.id] = { name: club.name };
  else delete all[club.id];
  saveClubs(all);
}

async function clubCall(method, path, body) {
  const club = await call(method, path, body, visitor().token);
  if (club.token) keepVisitor(club.token, body && body.name);
  if (club.id) keepClub(club);
  return club;
}

export const createClub = (fields) => clubCall('POST', '/api/clubs', fields);
export const getClub = (id) => clubCall('GET', `/api/clubs/${encodeURIComponent(id)}`);
// A public club is joined without an invite (invite null).
export const joinClub = (id, invite, name) => clubCall('POST', `/api/clubs/${encodeURIComponent(id)}/join`, invite ? { invite, name } : { name });
export const leaveClub = (id) => clubCall('POST', `/api/clubs/${encodeURIComponent(id)}/leave`, {});
export const removeMember = (id, member) => clubCall('POST', `/api/clubs/${encodeURIComponent(id)}/members/${member}/remove`, {});
export const barMember = (id, member) => clubCall('POST', `/api/clubs/${encodeURIComponent(id)}/members/${member}/bar`, {});
export const setPublic = (id, pub) => clubCall('POST', `/api/clubs/${encodeURIComponent(id)}/public`, { public: pub });
/** GET /api/clubs: the public clubs whose name holds `name`, in language `lang` ('' any). */
export function findClubs(name = '', lang = '') {
  const q = new URLSearchParams();
  if (name) q.set('name', name);
  if (lang) q.set('lang', lang);
  return call('GET', `/api/clubs?${q}`);
}
export const setAdmin = (id, member, admin) => clubCall('POST', `/api/clubs/${encodeURIComponent(id)}/members/${member}/admin`, { admin });
export const clubChallenge = (id, fields) => call('POST', `/api/clubs/${encodeURIComponent(id)}/challenges`, fields, visitor().token);

// Players over the server's API (src/server/API.md "Players"): a player's page by
// public id, the search by name, the archive of games and its export, the leaderboards,
// and the visitor's own id and hiding (/api/me) with the visitor's token.
import { request } from './http.js';
import { visitor, saveVisitor } from '../local/storage.js';

const enc = encodeURIComponent;
const mine = () => visitor().token;

/** The visitor as the server knows them: {name, id, hidden}; null before a name. */
export async function me() {
  if (!mine()) return null;
  try {
    return await request('GET', '/api/me', { token: mine() });
  } catch (err) {
    if (err.status === 404 || err.status === 403) return null;
    throw err;
  }
}

/** POST /api/me: a name, or hidden (true/false) once there is one. */
export async function saveMe(fields) {
  const r = await request('POST', '/api/me', { body: fields, token: mine() });
  saveVisitor({ token: r.token || mine(), name: r.name });
  return r;
}

export const player = (id) => request('GET', `/api/players/${enc(id)}`, { token: mine() });
export const searchPlayers = (name) => request('GET', `/api/players?name=${enc(name)}`);

/** The archive's query from filters {game, opponent, result, from, to, page}: only
 *  those set. */
export function archiveQuery(f = {}) {
  const q = new URLSearchParams();
  for (const k of ['game', 'opponent', 'result', 'from', 'to', 'page'])
    if (f[k] !== undefined && f[k] !== null && f[k] !== '') q.set(k, String(f[k]));
  return q.toString();
}

export const archive = (id, f) => request('GET', `/api/players/${enc(id)}/games?${archiveQuery(f)}`, { token: mine() });
export const exportUrl = (id, f) => `/api/players/${enc(id)}/games/export?${archiveQuery({ ...f, page: undefined })}`;
export const leaderboard = (game, klass) => request('GET', `/api/leaderboards/${enc(game)}/${enc(klass)}`);

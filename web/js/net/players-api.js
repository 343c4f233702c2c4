// Players over the server's API (src/server/API.md "Players"): a player's page by
// public id, the search by name, the archive of games and its export, the leaderboards,
// the visitor's own id and hiding (/api/me) with the visitor's token, and their
// progress (stars, best scores, the repertoire) kept by the server too ("Progress").
import { request } from './http.js';
import { visitor, saveVisitor, oldTokens, forgetOldTokens, stars, saveStars, coordsBests, saveCoordsBests, repertoire, saveRepertoire } from '../local/storage.js';

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

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** This browser's progress as the server takes it (null: nothing to keep yet). */
export function localProgress() {
  const out = { stars: stars(), coords: coordsBests() };
  const rep = repertoire();
  if (isObject(rep) && Array.isArray(rep.lines)) {
    out.repertoire = { lines: rep.lines, cards: isObject(rep.cards) ? rep.cards : {} };
    if (typeof rep.changed === 'number') out.repertoire.changed = rep.changed;
  }
  const empty = !Object.keys(out.stars).length && !Object.keys(out.coords).length && !(out.repertoire && (out.repertoire.lines.length || Object.keys(out.repertoire.cards).length));
  return empty ? null : out;
}

/** Sends this browser's progress and keeps the server's merge of it with what it keeps
 *  (from another browser of the same player).  A visitor with nothing kept and no
 *  token sends nothing; a visitor without a token gets one (their identity from now). */
export async function syncProgress() {
  const v = visitor();
  const mine = localProgress();
  if (!mine && !v.token) return false;
  const send = (body) => request('POST', '/api/me/progress', { body, token: v.token });
  let r, sentRepertoire = true;
  try {
    r = await send(mine || {});
  } catch (err) {
    // A repertoire over the server's 16 KiB a request: the stars and bests still go.
    if (err.status !== 413 || !mine || !mine.repertoire) throw err;
    r = await send({ stars: mine.stars, coords: mine.coords });
    sentRepertoire = false; // the server's copy has not seen this one: keep it as it is
  }
  if (r.token) saveVisitor({ token: r.token, name: v.name });
  // Kept over what this browser holds now (a star may have been won meanwhile).
  saveStars(higher(stars(), r.stars));
  saveCoordsBests(higher(coordsBests(), r.coords));
  const rep = repertoire();
  if (r.repertoire && sentRepertoire && isObject(rep)) {
    const sent = mine && mine.repertoire ? mine.repertoire.changed : undefined;
    const linesNow = rep.changed === sent; // no line changed here since it was sent
    const cards = { ...(isObject(rep.cards) ? rep.cards : {}) };
    for (const [k, c] of Object.entries(r.repertoire.cards || {})) if (!cards[k] || cards[k].due < c.due) cards[k] = c;
    saveRepertoire({ ...rep, cards, ...(linesNow ? { lines: r.repertoire.lines, changed: r.repertoire.changed } : {}) });
  } else if (r.repertoire && !rep) {
    saveRepertoire(r.repertoire);
  }
  return true;
}

/** Each key's higher number of the two objects. */
function higher(a, b) {
  const out = { ...a };
  for (const [k, n] of Object.entries(isObject(b) ? b : {})) if (!(out[k] >= n)) out[k] = n;
  return out;
}

/** The tokens this browser kept before one identity (a token per game against the
 *  computer, the puzzle token) merged into the player's once (POST /api/me/merge):
 *  their games and puzzle rating become the player's (`also`: more, such as this
 *  device's own token before it signed in as another).  Nothing to do: no request. */
export async function mergeOldTokens(also = []) {
  const tokens = [...new Set([...also, ...oldTokens()])].filter((x) => x && x !== mine());
  if (!tokens.length) return null;
  const r = await request('POST', '/api/me/merge', { body: { tokens }, token: mine() });
  if (r.token) saveVisitor({ token: r.token, name: visitor().name });
  forgetOldTokens(tokens);
  return r;
}

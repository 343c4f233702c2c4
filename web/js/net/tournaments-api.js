// Tournaments over the server's API (src/server/API.md "Tournaments"), with the
// visitor's token between people (storage.js visitor()): an arena's game is a game
// between people, played with that same token, so it is remembered for the play page.
import { request, openEvents } from './http.js';
import { rememberGame } from './api.js';
import { visitor, saveVisitor } from '../local/storage.js';

const call = (method, path, body) => request(method, path, { body, token: visitor().token });
const path = (id, op = '') => `/api/tournaments/${encodeURIComponent(id)}${op}`;

function keep(view, name) {
  const v = visitor();
  if (view.token || name) saveVisitor({ token: view.token || v.token, name: name || v.name });
  // The player's game in the arena: the play page acts with the visitor's token.
  const g = view.me && view.me.game;
  if (g) rememberGame({ id: g.id, token: visitor().token, game: view.tournament.game });
  return view;
}

/** GET /api/tournaments?status=...&club=...: {tournaments, now} (no status: all). */
export function listTournaments(status, club) {
  const q = new URLSearchParams();
  if (status) q.set('status', status);
  if (club) q.set('club', club);
  return call('GET', `/api/tournaments?${q}`);
}
/** GET /api/tournaments/{id}: the view, with `me` for the visitor. */
export const getTournament = async (id) => keep(await call('GET', path(id)));
export async function createTournament(fields) {
  return keep(await call('POST', '/api/tournaments', fields), fields.name);
}
export async function joinTournament(id, name) {
  return keep(await call('POST', path(id, '/join'), { name }), name);
}
export const pauseTournament = async (id) => keep(await call('POST', path(id, '/pause'), {}));
export const withdrawTournament = async (id) => keep(await call('POST', path(id, '/withdraw'), {}));
export const berserk = (id, game) => call('POST', path(id, `/games/${encodeURIComponent(game)}/berserk`), {});
/** The tournament's event stream (an EventSource), or null. */
export const tournamentEvents = (id) => openEvents(path(id, '/events'));

// The server's API (see the server issue) and the visitor's own list of games: the
// secret token of each game lives in localStorage, keyed by game id.

const STORE = 'agora.games';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function myGames() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}

export function rememberGame(state) {
  const all = myGames();
  all[state.id] = { token: state.token, game: state.game, created: state.created || new Date().toISOString() };
  localStorage.setItem(STORE, JSON.stringify(all));
}

export function forgetGame(id) {
  const all = myGames();
  delete all[id];
  localStorage.setItem(STORE, JSON.stringify(all));
}

export function tokenOf(id) {
  return myGames()[id]?.token || null;
}

export function knownGameIds() {
  return Object.keys(myGames());
}

async function call(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`);
  return data;
}

export async function createGame({ game, level, side, position }) {
  const body = { game, level, side };
  if (position) body.position = position;
  const state = await call('POST', '/api/games', body);
  rememberGame(state);
  return state;
}

export const getGame = (id) => call('GET', `/api/games/${encodeURIComponent(id)}`);
export const playMove = (id, move) => call('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move }, tokenOf(id));
export const resign = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/resign`, {}, tokenOf(id));
export const offerDraw = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/draw`, {}, tokenOf(id));
export const claimDraw = (id, claim) => call('POST', `/api/games/${encodeURIComponent(id)}/claim`, { claim }, tokenOf(id));
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
export const eventsUrl = (id) => `/api/games/${encodeURIComponent(id)}/events`;

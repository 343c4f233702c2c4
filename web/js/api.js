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

// ---- board layouts: the server's catalogue (GET /api/catalog), else web/boards/*.json
let catalog = null;
const staticBoards = {};
export async function layoutOf(game) {
  if (!catalog) catalog = fetch('/api/catalog').then((r) => (r.ok ? r.json() : null)).catch(() => null);
  const c = await catalog;
  const entry = c && Array.isArray(c.games) && c.games.find((g) => g.name === game || (g.aliases || []).includes(game));
  if (entry && entry.layout) return entry.layout;
  if (!staticBoards[game]) staticBoards[game] = fetch(`boards/${game}.json`).then((r) => r.json());
  return staticBoards[game];
}

/**
 * One shape for a game state, whichever of the two the server speaks:
 *  - the contract: `board` is the layout, `pieces` a map, moves carry `san`,
 *    results read "white wins";
 *  - src/server/API.md: `board` is one letter per layout cell (layout from the
 *    catalogue), `captured_pieces` lists marked cells, moves carry `display`, results
 *    read "white-wins".
 */
export async function normalize(s) {
  if (!s || typeof s !== 'object' || !s.id || !s.game) return s;
  const out = { ...s };
  if (!s.board || Array.isArray(s.board)) {
    const layout = await layoutOf(s.game);
    if (!s.pieces) {
      const caps = new Set(s.captured_pieces || []);
      out.pieces = {};
      (s.board || []).forEach((letter, i) => {
        const cell = layout.cells[i];
        if (letter && cell) out.pieces[cell.name] = { piece: letter, captured: caps.has(cell.name) };
      });
    }
    out.board = layout;
  }
  out.moves = (s.moves || []).map((m) => ({ ...m, san: m.san ?? m.display ?? m.move }));
  out.legal_moves = (s.legal_moves || []).map((m) => ({ path: [m.to], captured: [], flags: [], ...m }));
  out.status = { reason: 'none', ...s.status, result: String((s.status && s.status.result) || 'ongoing').replace('-', ' ') };
  out.claims = s.claims || [];
  return out;
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
  return normalize(data);
}

// The server keeps one token per visitor when it is sent along with a new game.
function anyToken() {
  const all = Object.values(myGames());
  return all.length ? all[all.length - 1].token : null;
}

export async function createGame({ game, level, side, position }) {
  const body = { game, level, side };
  if (position) body.position = position;
  const state = await call('POST', '/api/games', body, anyToken());
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

// The server's API (src/server/API.md) and the visitor's own list of games: the
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

// ---- the catalogue (GET /api/catalog): the games the server plays, in the order it
// offers them, and each board's geometry.  Static, so fetched once; a failed fetch is
// not kept, so the next page asks again.
let catalogue = null;
function catalog() {
  if (!catalogue) {
    catalogue = fetch('/api/catalog')
      .then((r) => (r.ok ? r.json() : Promise.reject(new ApiError(r.status, `GET /api/catalog: HTTP ${r.status}`))))
      .catch((err) => {
        catalogue = null;
        throw err;
      });
  }
  return catalogue;
}

/** The games' names, in the catalogue's order. */
export async function gameNames() {
  return (await catalog()).games.map((g) => g.name);
}

/** A game's catalogue entry, by name or alias (undefined when the server has none). */
async function gameEntry(game) {
  return (await catalog()).games.find((g) => g.name === game || g.aliases.includes(game));
}

/** A game's levels from the catalogue: [{level, elo}] (elo null where not rated). */
export async function levelsOf(game) {
  const entry = await gameEntry(game);
  return (entry && entry.levels) || [1, 2, 3, 4, 5, 6, 7, 8].map((level) => ({ level, elo: null }));
}

export async function layoutOf(game) {
  const entry = await gameEntry(game);
  if (!entry) throw new Error(`the server has no game '${game}'`);
  return entry.layout;
}

/**
 * A state as src/server/API.md sends it, plus what the board needs: `layout` (the
 * game's layout from the catalogue) and `pieces`, a map from cell name to
 * {piece, captured} read from `board` (one letter per layout cell, in the layout's
 * order) and `captured_pieces`.
 */
export async function withBoard(s) {
  if (!s || typeof s !== 'object' || !s.id || !s.game) return s;
  const layout = await layoutOf(s.game);
  const caps = new Set(s.captured_pieces);
  const pieces = {};
  s.board.forEach((letter, i) => {
    const cell = layout.cells[i];
    if (letter && cell) pieces[cell.name] = { piece: letter, captured: caps.has(cell.name) };
  });
  return { ...s, layout, pieces };
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
  return withBoard(data);
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

// With the game's token when the visitor has one: between people the state is their side's.
export const getGame = (id) => call('GET', `/api/games/${encodeURIComponent(id)}`, undefined, tokenOf(id));
export const playMove = (id, move) => call('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move }, tokenOf(id));
export const takeBack = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/takeback`, {}, tokenOf(id));
export const resign = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/resign`, {}, tokenOf(id));
export const offerDraw = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/draw`, {}, tokenOf(id));
export const claimDraw = (id, claim) => call('POST', `/api/games/${encodeURIComponent(id)}/claim`, { claim }, tokenOf(id));
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
// `seat`: a player's seat key between people (API.md "Events and spectators").
export const eventsUrl = (id, seat) => `/api/games/${encodeURIComponent(id)}/events${seat ? `?seat=${seat}` : ''}`;

// ---- analysis (API.md "Analysis"): positions, the engine's stream, reviews.

/** The pieces map the board draws, from a position's `board` and `captured_pieces`. */
export function piecesOf(layout, board, captured = []) {
  const caps = new Set(captured);
  const pieces = {};
  (board || []).forEach((letter, i) => {
    const cell = layout.cells[i];
    if (letter && cell) pieces[cell.name] = { piece: letter, captured: caps.has(cell.name) };
  });
  return pieces;
}

async function withLayout(p) {
  const layout = await layoutOf(p.game);
  return { ...p, layout, pieces: piecesOf(layout, p.board, p.captured_pieces) };
}

/** POST /api/positions: the position after `moves` from `position` (null: the start),
 *  with its legal moves; or, with `record`, the record's start and main line, read by
 *  the server's own record reader (the browser reads no notation), and its whole tree
 *  (`tree`: variations and comments, for tree.js's addTree). */
export async function position({ game, position: start = null, moves = [], record }) {
  const body = record === undefined ? { game, position: start, moves } : { game, record };
  return withLayout(await call('POST', '/api/positions', body));
}

/** POST /api/analysis, read as a stream of server-sent events with fetch: calls
 *  onLines(lines, done) for every `line` and for `done`.  Abort with `signal`. */
export async function analyse({ game, position: start = null, moves = [], multipv = 1, nodes }, onLines, signal) {
  const body = { game, position: start, moves, multipv };
  if (nodes) body.nodes = nodes;
  const res = await fetch('/api/analysis', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' }, body: JSON.stringify(body), signal });
  if (!res.ok) {
    let msg = `HTTP ${res.status}`;
    try { msg = (await res.json()).error || msg; } catch { /* not JSON */ }
    throw new ApiError(res.status, msg);
  }
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let k;
    while ((k = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, k);
      buf = buf.slice(k + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length || (event !== 'line' && event !== 'done')) continue;
      try {
        onLines(JSON.parse(data.join('\n')).lines || [], event === 'done');
      } catch (err) {
        if (err instanceof SyntaxError) continue;
        throw err;
      }
    }
  }
}

const raw = async (method, path, body) => {
  const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`);
  return data;
};
export const startReview = (id) => raw('POST', `/api/games/${encodeURIComponent(id)}/review`, undefined);
export const getReview = (id) => raw('GET', `/api/games/${encodeURIComponent(id)}/review`);
export const importReview = (game, record) => raw('POST', '/api/reviews', { game, record });
export const getImportedReview = (id) => raw('GET', `/api/reviews/${encodeURIComponent(id)}`);
export const getRecord = (id) => fetch(recordUrl(id)).then((r) => (r.ok ? r.text() : Promise.reject(new ApiError(r.status, `HTTP ${r.status}`))));
/** A game's catalogue entry (title, start_position, layout...). */
export const entryOf = (game) => gameEntry(game);

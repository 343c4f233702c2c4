// The server's games, catalogue, positions, analysis and reviews (src/server/API.md),
// over the one HTTP client (http.js); and the visitor's own list of games: the secret
// token of each game, keyed by game id (kept by web/js/local/storage.js).
import { ApiError, request, get, post, getText, openEvents, postEvents } from './http.js';
import { gameTokens, saveGameTokens, playerToken, savePlayerToken } from '../local/storage.js';

export { ApiError };

const myGames = gameTokens;

export function rememberGame(state) {
  const all = myGames();
  all[state.id] = { token: state.token, game: state.game, created: state.created || new Date().toISOString() };
  saveGameTokens(all);
}

export function forgetGame(id) {
  const all = myGames();
  delete all[id];
  saveGameTokens(all);
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
    catalogue = get('/api/catalog')
      .catch((err) => {
        catalogue = null;
        throw err instanceof ApiError ? new ApiError(err.status, `GET /api/catalog: HTTP ${err.status}`) : err;
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

// A game's operation: its state, with the board.
const call = async (method, path, body, token, retry = false) => withBoard(await request(method, path, { body, token, retry }));

// A new game goes with the player's one token (API.md "One identity"); a visitor
// without one gets it with their first game.
export async function createGame({ game, level, side, position }) {
  const body = { game, level, side };
  if (position) body.position = position;
  const state = await call('POST', '/api/games', body, playerToken());
  if (state.token && state.token !== playerToken()) savePlayerToken(state.token);
  rememberGame(state);
  return state;
}

// With the game's token when the visitor has one: between people the state is their side's.
export const getGame = (id) => call('GET', `/api/games/${encodeURIComponent(id)}`, undefined, tokenOf(id));
// `ply`: the number the move will have once made; with it the move is sent again
// after a network error or a 503, and the server makes it once (API.md "Guarantees").
export const playMove = (id, move, ply) => call('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move, ply }, tokenOf(id), true);
export const takeBack = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/takeback`, {}, tokenOf(id));
export const resign = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/resign`, {}, tokenOf(id));
export const offerDraw = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/draw`, {}, tokenOf(id));
export const claimDraw = (id, claim) => call('POST', `/api/games/${encodeURIComponent(id)}/claim`, { claim }, tokenOf(id));
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
// `seat`: a player's seat key between people (API.md "Events and spectators").
export const eventsUrl = (id, seat) => `/api/games/${encodeURIComponent(id)}/events${seat ? `?seat=${seat}` : ''}`;
/** The game's event stream (an EventSource), or null where the browser has none. */
export const gameEvents = (id, seat) => openEvents(eventsUrl(id, seat));

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
  return withLayout(await withBoard(await post('/api/positions', body)));
}

/** POST /api/positions with "book": true, as the server answers it (no board): the
 *  position's book moves with their weights and its opening's name. */
export const bookPosition = ({ game, position: start, moves = [] }) =>
  post('/api/positions', start === undefined ? { game, moves, book: true } : { game, position: start, moves, book: true });

/** POST /api/analysis, read as a stream of server-sent events with fetch: calls
 *  onLines(lines, done, who) for every `line` and for `done`, `who` {engine, error}:
 *  the engine that judged and, when agora's own judged in place of the game's external
 *  engine, why (API.md "Analysis").  Abort with `signal`. */
export async function analyse({ game, position: start = null, moves = [], multipv = 1, nodes }, onLines, signal) {
  const body = { game, position: start, moves, multipv };
  if (nodes) body.nodes = nodes;
  await postEvents('/api/analysis', body, (event, data) => {
    if (event !== 'line' && event !== 'done') return;
    let parsed;
    try {
      parsed = JSON.parse(data);
    } catch {
      return; // not JSON: wait for the next
    }
    onLines(parsed.lines || [], event === 'done', { engine: parsed.engine || '', error: parsed.engine_error || '', tablebase: parsed.tablebase || null, proof: parsed.proof || null });
  }, signal);
}

export const startReview = (id) => request('POST', `/api/games/${encodeURIComponent(id)}/review`);
export const getReview = (id) => get(`/api/games/${encodeURIComponent(id)}/review`);
export const importReview = (game, record) => post('/api/reviews', { game, record });
export const getImportedReview = (id) => get(`/api/reviews/${encodeURIComponent(id)}`);
export const getRecord = (id) => getText(recordUrl(id));
/** A game's catalogue entry (title, start_position, layout...). */
export const entryOf = (game) => gameEntry(game);

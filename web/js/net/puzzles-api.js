// The puzzles (API.md "Puzzles") over the one HTTP client: the list, the next puzzle,
// an attempt.  The player's one token (their puzzle rating among the rest) is sent with
// every call and kept whenever the server gives one.
import { request } from './http.js';
import { playerToken, savePlayerToken } from '../local/storage.js';

async function call(method, path, body) {
  const data = await request(method, path, { body, token: playerToken() });
  if (data && data.token) savePlayerToken(data.token);
  return data;
}

/** GET /api/puzzles: the games and their puzzles' counts. */
export const listPuzzles = () => call('GET', '/api/puzzles');
/** GET /api/puzzles/next?QUERY (a URLSearchParams or its text). */
export const nextPuzzle = (query) => call('GET', `/api/puzzles/next?${query}`);
/** POST /api/puzzles/{id}/attempts: the attempt judged, both new ratings. */
export const attemptPuzzle = (id, moves) => call('POST', `/api/puzzles/${encodeURIComponent(id)}/attempts`, { moves });

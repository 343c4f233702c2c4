// The one HTTP client's retry (web/js/net/http.js): a request marked safe to send twice
// (a move with its ply) goes once more after a network error or a 503, and only once;
// other answers and unmarked requests go once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request, ApiError } from '../../web/js/net/http.js';

// fetch answering from `script` in turn: a status (with a JSON body) or 'down' (a
// network error); the requests made are counted.
function fake(script) {
  const seen = [];
  globalThis.fetch = async (path, init) => {
    seen.push({ path, body: init.body });
    const step = script[seen.length - 1];
    if (step === 'down') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(step === 200 ? { id: 'g', ply: 1 } : { error: 'no', code: 'busy' }), { status: step });
  };
  return seen;
}

const move = { body: { move: 'e2e4', ply: 1 }, token: 't', retry: true };

test('a 503 is sent once more, the same request', async () => {
  const seen = fake([503, 200]);
  assert.deepEqual(await request('POST', '/api/games/g/moves', move), { id: 'g', ply: 1 });
  assert.equal(seen.length, 2);
  assert.equal(seen[0].body, seen[1].body);
});

test('a network error is sent once more', async () => {
  const seen = fake(['down', 200]);
  assert.equal((await request('POST', '/api/games/g/moves', move)).ply, 1);
  assert.equal(seen.length, 2);
});

test('only once more: a second 503 is the answer', async () => {
  const seen = fake([503, 503, 200]);
  await assert.rejects(request('POST', '/api/games/g/moves', move), (e) => e instanceof ApiError && e.status === 503);
  assert.equal(seen.length, 2);
});

test('other answers, and requests not marked, go once', async () => {
  let seen = fake([409, 200]);
  await assert.rejects(request('POST', '/api/games/g/moves', move), (e) => e.status === 409);
  assert.equal(seen.length, 1);
  seen = fake([503, 200]);
  await assert.rejects(request('POST', '/api/games/g/resign', { body: {}, token: 't' }), (e) => e.status === 503);
  assert.equal(seen.length, 1);
  seen = fake(['down', 200]);
  await assert.rejects(request('GET', '/api/games/g'), TypeError);
  assert.equal(seen.length, 1);
});

// The browser's half of the progress kept by the server (web/js/net/players-api.js
// syncProgress), with a fake storage and a fake server: what is sent, a new token
// kept, the merge kept over what the browser won meanwhile, a removed line not brought
// back, and a repertoire over the request's limit leaving the local one as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';

class FakeStorage {
  constructor(entries = {}) { this.map = new Map(Object.entries(entries)); }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) { this.map.set(k, String(v)); }
  removeItem(k) { this.map.delete(k); }
}

globalThis.localStorage = new FakeStorage();
const S = await import('../../web/js/local/storage.js');
const P = await import('../../web/js/net/players-api.js');

// A fake server: answer(body, token) gives {status, json}; every request is recorded.
let sent = [];
function serve(answer) {
  sent = [];
  globalThis.fetch = async (path, init) => {
    const body = init.body ? JSON.parse(init.body) : undefined;
    const token = (init.headers.Authorization || '').replace('Bearer ', '') || null;
    sent.push({ path, method: init.method, body, token });
    const { status = 200, json } = await answer(body, token);
    return { ok: status < 400, status, text: async () => JSON.stringify(json) };
  };
}
const reset = (entries) => { globalThis.localStorage.map = new Map(Object.entries(entries)); };

test('a visitor with nothing and no token sends nothing', async () => {
  reset({});
  serve(() => ({ json: {} }));
  assert.equal(await P.syncProgress(), false);
  assert.equal(sent.length, 0);
});

test('stars sent without a token: the token kept, the merge kept', async () => {
  reset({ 'agora.learn': JSON.stringify({ 'agon/1/1': 2 }) });
  serve((body) => ({ json: { stars: { ...body.stars, 'chess/1/1': 3 }, coords: {}, token: 'f'.repeat(32) } }));
  assert.equal(await P.syncProgress(), true);
  assert.equal(sent[0].path, '/api/me/progress');
  assert.equal(sent[0].token, null);
  assert.deepEqual(sent[0].body.stars, { 'agon/1/1': 2 });
  assert.equal(S.visitor().token, 'f'.repeat(32));
  assert.deepEqual(S.stars(), { 'agon/1/1': 2, 'chess/1/1': 3 });
});

test('a star won while the request was on is not lost', async () => {
  reset({ 'agora.learn': JSON.stringify({ a: 1 }), 'agora.identity': JSON.stringify({ people: { token: 't1' } }) });
  serve(async (body) => {
    S.saveStars({ a: 1, b: 3 }); // won meanwhile
    return { json: { stars: { ...body.stars, c: 2 }, coords: {} } };
  });
  await P.syncProgress();
  assert.equal(sent[0].token, 't1');
  assert.deepEqual(S.stars(), { a: 1, b: 3, c: 2 });
});

test('the lines as the server keeps them, unless changed here meanwhile; cards by due', async () => {
  const rep = { lines: [{ side: 'white', moves: ['e4'] }], cards: { k: { reps: 1, interval: 1, ef: 2.5, due: 10 } }, changed: 5 };
  reset({ 'agora.openings': JSON.stringify(rep), 'agora.identity': JSON.stringify({ people: { token: 't1' } }) });
  serve((body) => {
    assert.equal(body.repertoire.changed, 5);
    return { json: { stars: {}, coords: {}, repertoire: { lines: [{ side: 'black', moves: ['d4'] }], cards: { k: { reps: 2, interval: 6, ef: 2.6, due: 99 } }, changed: 9 } } };
  });
  await P.syncProgress();
  const now = S.repertoire();
  assert.deepEqual(now.lines, [{ side: 'black', moves: ['d4'] }]);
  assert.equal(now.cards.k.due, 99);
  assert.equal(now.changed, 9);
  // A line added here while the request was on stays.
  reset({ 'agora.openings': JSON.stringify(rep), 'agora.identity': JSON.stringify({ people: { token: 't1' } }) });
  serve(() => {
    S.saveRepertoire({ ...rep, lines: [...rep.lines, { side: 'white', moves: ['d4'] }], changed: 7 });
    return { json: { stars: {}, coords: {}, repertoire: { lines: [], cards: {}, changed: 6 } } };
  });
  await P.syncProgress();
  assert.equal(S.repertoire().lines.length, 2);
  assert.equal(S.repertoire().changed, 7);
});

test('a repertoire over the limit: stars still go, the local repertoire stays', async () => {
  const rep = { lines: [{ side: 'white', moves: ['e4'] }], cards: {} };
  reset({ 'agora.openings': JSON.stringify(rep), 'agora.learn': JSON.stringify({ a: 1 }), 'agora.identity': JSON.stringify({ people: { token: 't1' } }) });
  serve((body) => (body.repertoire ? { status: 413, json: { error: 'too large', code: 'too_large' } }
    : { json: { stars: { a: 2 }, coords: {}, repertoire: { lines: [], cards: {} } } }));
  await P.syncProgress();
  assert.equal(sent.length, 2);
  assert.equal(sent[1].body.repertoire, undefined);
  assert.deepEqual(S.stars(), { a: 2 });
  assert.deepEqual(S.repertoire().lines, rep.lines);
});

// web/js/local/storage.js, the one owner of localStorage, with a fake storage: the keys
// of before issue 24 (three tokens under three keys, a level key per game) move to
// today's on the first load, so no visitor loses a game, a rating, stars or a
// repertoire; the pages then read them through the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';

class FakeStorage {
  constructor(entries = {}) { this.map = new Map(Object.entries(entries)); }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) { this.map.set(k, String(v)); }
  removeItem(k) { this.map.delete(k); }
  keys() { return [...this.map.keys()].sort(); }
}

const GAMES = { g1: { token: 'tok-1', game: 'chess', created: '2024-01-01T00:00:00.000Z' }, g2: { token: 'tok-2', game: 'agon', created: '2024-01-02T00:00:00.000Z' } };
const REPERTOIRE = { lines: [{ id: 'white:e2e4', side: 'white', moves: ['e2e4'], name: '' }], cards: { k: { ef: 2.5 } } };
// A visitor of before issue 24, with every key the pages stored then.
const before = () => ({
  'agora.games': JSON.stringify(GAMES),
  'agora.visitor': JSON.stringify({ token: 'people-tok', name: 'Ada' }),
  'agora.puzzle-token': 'puzzle-tok',
  'agora.level.chess': '5',
  'agora.level.egara-guti': '3',
  'agora.clubs': JSON.stringify({ c1: { name: 'Chess club' } }),
  'agora.openings': JSON.stringify(REPERTOIRE),
  'agora.learn': JSON.stringify({ 'chess/l1/0': 3 }),
  'agora.coords': JSON.stringify({ 'chess:white': 12 }),
  'agora.lang': 'bn',
  'agora.theme': 'dark',
  'agora.sound': 'off',
  'agora.motion': 'off',
  'agora.names': '1',
});

// The module migrates the page's storage when it is first imported.
globalThis.localStorage = new FakeStorage(before());
const S = await import('../../web/js/local/storage.js');
const api = await import('../../web/js/net/api.js');
const { rememberedLevel } = await import('../../web/js/play/levels.js');

test('the first load moves the old keys and the pages read what they kept', () => {
  assert.deepEqual(localStorage.keys(), ['agora.clubs', 'agora.coords', 'agora.identity', 'agora.lang', 'agora.learn', 'agora.levels',
    'agora.motion', 'agora.names', 'agora.openings', 'agora.sound', 'agora.theme']);
  assert.deepEqual(S.gameTokens(), GAMES);
  assert.deepEqual(api.knownGameIds(), ['g1', 'g2']);
  assert.equal(api.tokenOf('g2'), 'tok-2');
  assert.deepEqual(S.visitor(), { token: 'people-tok', name: 'Ada' });
  assert.equal(S.playerToken(), 'people-tok');
  assert.deepEqual(S.oldTokens(), []); // none of them is 32 hex digits: nothing to merge
  assert.equal(rememberedLevel('chess'), 5);
  assert.equal(rememberedLevel('egara-guti'), 3);
  assert.equal(rememberedLevel('agon'), 1);
  assert.deepEqual(S.clubs(), { c1: { name: 'Chess club' } });
  assert.deepEqual(S.repertoire(), REPERTOIRE);
  assert.deepEqual(S.stars(), { 'chess/l1/0': 3 });
  assert.deepEqual(S.coordsBests(), { 'chess:white': 12 });
  assert.deepEqual(['lang', 'theme', 'sound', 'motion', 'names'].map(S.choice), ['bn', 'dark', 'off', 'off', '1']);
});

test('migrating again changes nothing', () => {
  const s = new FakeStorage(before());
  S.migrate(s);
  const once = new Map(s.map);
  S.migrate(s);
  assert.deepEqual(s.map, once);
});

test("today's keys win over old ones found later; old games are added", () => {
  const s = new FakeStorage({
    'agora.identity': JSON.stringify({ games: { g3: { token: 'tok-3', game: 'chess' } }, people: { token: 'new-people', name: 'Bo' }, puzzles: 'new-puzzle' }),
    'agora.levels': JSON.stringify({ chess: 2 }),
    ...before(),
  });
  S.migrate(s);
  const id = JSON.parse(s.getItem('agora.identity'));
  assert.deepEqual(Object.keys(id.games).sort(), ['g1', 'g2', 'g3']);
  assert.deepEqual(id.people, { token: 'new-people', name: 'Bo' });
  assert.equal(id.puzzles, 'new-puzzle');
  assert.deepEqual(JSON.parse(s.getItem('agora.levels')), { chess: 2, 'egara-guti': 3 });
  for (const k of ['agora.games', 'agora.visitor', 'agora.puzzle-token', 'agora.level.chess', 'agora.level.egara-guti']) assert.equal(s.getItem(k), null, k);
});

test('broken old values are dropped without harm; a fresh visitor gets no keys', () => {
  const s = new FakeStorage({ 'agora.games': '{not json', 'agora.visitor': 'null', 'agora.puzzle-token': '' });
  S.migrate(s);
  assert.deepEqual(s.keys(), ['agora.identity']);
  assert.deepEqual(JSON.parse(s.getItem('agora.identity')), {});
  const fresh = new FakeStorage();
  S.migrate(fresh);
  assert.deepEqual(fresh.keys(), []);
});

test('the tokens are kept under one key, each apart', () => {
  api.rememberGame({ id: 'g9', token: 'tok-9', game: 'chess', created: 'x' });
  S.saveVisitor({ token: 'v2', name: 'Cy' });
  api.forgetGame('g1');
  const id = JSON.parse(localStorage.getItem('agora.identity'));
  assert.deepEqual(Object.keys(id.games), ['g2', 'g9']);
  assert.equal(id.puzzles, 'puzzle-tok');
  assert.deepEqual(id.people, { token: 'v2', name: 'Cy' });
  S.savePlayerToken('v3');
  assert.deepEqual(S.visitor(), { token: 'v3', name: 'Cy' });
  S.saveChoice('theme', null);
  assert.equal(localStorage.getItem('agora.theme'), null);
});

test('the old tokens, once merged, give way to the player\'s', () => {
  const hex = (c) => c.repeat(32);
  const s = new FakeStorage({ 'agora.identity': JSON.stringify({
    people: { token: hex('a'), name: 'Di' }, puzzles: hex('c'),
    games: { g1: { token: hex('1'), game: 'chess' }, g2: { token: hex('2'), game: 'agon' }, g3: { token: hex('a'), game: 'chess' }, g4: { token: 'not-a-token', game: 'chess' } },
  }) });
  const saved = globalThis.localStorage;
  globalThis.localStorage = s;
  try {
    assert.deepEqual(S.oldTokens().sort(), [hex('1'), hex('2'), hex('c')]);
    S.forgetOldTokens([hex('1'), hex('c')]);
    const id = JSON.parse(s.getItem('agora.identity'));
    assert.equal(id.games.g1.token, hex('a'));
    assert.equal(id.games.g2.token, hex('2'));
    assert.equal(id.puzzles, undefined);
    assert.deepEqual(S.oldTokens(), [hex('2')]);
    S.forgetOldTokens([hex('2')]);
    assert.deepEqual(S.oldTokens(), []);
  } finally {
    globalThis.localStorage = saved;
  }
});

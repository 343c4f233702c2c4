// Issue 25 item 12's pure logic: whether a board shows its cell names
// (web/js/board/names.js) and the coordinates trainer's naming rounds (web/js/learn/coords.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

const store = new Map();
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
const { namesShown, namesOn } = await import('../../web/js/board/names.js');
const { nameChoices, nextTarget, bestKey } = await import('../../web/js/learn/coords.js');

test('names: shown by default where no edge carries them; the switch wins either way', () => {
  assert.equal(namesShown('hex', null), true);
  assert.equal(namesShown('graph', null), true);
  assert.equal(namesShown('square', null), false);
  for (const shape of ['hex', 'graph', 'square']) {
    assert.equal(namesShown(shape, '0'), false);
    assert.equal(namesShown(shape, '1'), true);
  }
  store.set('agora.names', '0');
  assert.equal(namesOn('graph'), false);
  store.delete('agora.names');
  assert.equal(namesOn('graph'), true);
});

test('coordinates: four different names, the marked one among them, in any place', () => {
  const names = ['a1', 'b1', 'd1', 'f1', 'g1', 'b2', 'd2'];
  const places = new Set();
  let seed = 1;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < 200; i++) {
    const target = nextTarget(names, null, random);
    const c = nameChoices(names, target, 4, random);
    assert.equal(c.length, 4);
    assert.equal(new Set(c).size, 4);
    assert.ok(c.includes(target));
    assert.ok(c.every((n) => names.includes(n)));
    places.add(c.indexOf(target));
  }
  assert.deepEqual([...places].sort(), [0, 1, 2, 3]);
  assert.deepEqual(nameChoices(['x', 'y'], 'x', 4, () => 0).sort(), ['x', 'y']);
});

test('coordinates: best scores kept apart per kind of round, finding under the old key', () => {
  assert.equal(bestKey('egara-guti', 'white', 'find'), 'egara-guti/white');
  assert.equal(bestKey('egara-guti', 'black', 'name'), 'egara-guti/black/name');
});

// Unit tests of web/js/tree.js, the analysis board's move tree (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as T from '../../web/js/tree.js';

function sample() {
  // 1. e4 e5 (1... c5 2. Nf3) 2. Nf3 (2. d4) Nc6
  const t = T.createTree();
  const e4 = T.addMove(t, 0, 'e2e4', 'e4');
  const e5 = T.addMove(t, e4, 'e7e5', 'e5');
  const nf3 = T.addMove(t, e5, 'g1f3', 'Nf3');
  const nc6 = T.addMove(t, nf3, 'b8c6', 'Nc6');
  const c5 = T.addMove(t, e4, 'c7c5', 'c5');
  const nf3b = T.addMove(t, c5, 'g1f3', 'Nf3');
  const d4 = T.addMove(t, e5, 'd2d4', 'd4');
  return { t, e4, e5, nf3, nc6, c5, nf3b, d4 };
}

test('a move already in the tree is reused; a new one from an earlier point is a variation', () => {
  const { t, e4, e5, c5 } = sample();
  assert.equal(T.addMove(t, e4, 'e7e5', 'e5'), e5);
  assert.deepEqual(T.node(t, e4).children, [e5, c5]);
  assert.equal(T.isMain(t, e5), true);
  assert.equal(T.isMain(t, c5), false);
});

test('paths, moves and plies', () => {
  const { t, nc6, nf3b } = sample();
  assert.deepEqual(T.movesTo(t, nc6), ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
  assert.deepEqual(T.movesTo(t, nf3b), ['e2e4', 'c7c5', 'g1f3']);
  assert.equal(T.plyOf(t, nc6), 4);
  assert.deepEqual(T.movesTo(t, 0), []);
});

test('navigation: next, prev, first, last, siblings', () => {
  const { t, e4, e5, nf3, nc6, c5, d4 } = sample();
  assert.equal(T.next(t, 0), e4);
  assert.equal(T.next(t, e4), e5);
  assert.equal(T.prev(t, e5), e4);
  assert.equal(T.prev(t, 0), 0);
  assert.equal(T.next(t, nc6), nc6);
  assert.equal(T.last(t, 0), nc6);
  assert.equal(T.sibling(t, e5, 1), c5);
  assert.equal(T.sibling(t, c5, -1), e5);
  assert.equal(T.sibling(t, c5, 1), c5);
  assert.equal(T.sibling(t, nf3, 1), d4);
  assert.equal(T.sibling(t, 0, 1), 0);
});

test('promote: a variation moves up to the main line', () => {
  const { t, e4, e5, c5, nf3b } = sample();
  assert.equal(T.promote(t, nf3b), true);
  assert.deepEqual(T.node(t, e4).children, [c5, e5]);
  assert.equal(T.isMain(t, nf3b), true);
  assert.equal(T.promote(t, nf3b), false);
});

test('delete a variation: its whole subtree goes', () => {
  const { t, e4, e5, c5, nf3b, nf3, d4 } = sample();
  assert.equal(T.removeVariation(t, nf3b), e4);
  assert.deepEqual(T.node(t, e4).children, [e5]);
  assert.equal(T.node(t, c5), undefined);
  assert.equal(T.node(t, nf3b), undefined);
  assert.equal(T.removeNode(t, d4), e5);
  assert.deepEqual(T.node(t, e5).children, [nf3]);
});

test('PGN of the whole tree: variations in parentheses, comments in braces', () => {
  const { t, e5 } = sample();
  T.setComment(t, e5, 'the open game {ok}');
  const pgn = T.toPGN(t);
  assert.match(pgn, /^\[Event "agora analysis"\]/);
  assert.match(pgn, /\[Result "\*"\]/);
  assert.ok(pgn.trim().endsWith('1. e4 e5 {the open game ok} (1... c5 2. Nf3) 2. Nf3 (2. d4) 2... Nc6 *'), pgn);
  assert.doesNotMatch(pgn, /Variant/);
});

test('PGN of the current line only', () => {
  const { t, nf3b } = sample();
  assert.ok(T.toPGN(t, { line: nf3b }).trim().endsWith('1. e4 c5 2. Nf3 *'));
});

test('other games: a Variant tag, a start position, Black first', () => {
  const t = T.createTree({ start: 'BBBBB/BBB/BBB/1/WWW/WWW/WWWWW b 0', blackFirst: true });
  const a = T.addMove(t, 0, 'd5-d4');
  T.addMove(t, a, 'd2xd6');
  const pgn = T.toPGN(t, { variant: 'Egara-guti' });
  assert.match(pgn, /\[Variant "Egara-guti"\]\n\[SetUp "1"\]\n\[FEN "BBBBB\/BBB\/BBB\/1\/WWW\/WWW\/WWWWW b 0"\]/);
  assert.ok(pgn.trim().endsWith('1... d5-d4 2. d2xd6 *'), pgn);
});

test('rows of the move list: the main line, variations nested', () => {
  const { t } = sample();
  const r = T.rows(t).map((x) => (x.end ? ')' : `${x.start ? '(' : ''}${x.depth}:${x.number}${x.black ? '...' : '.'}${x.text}`));
  assert.deepEqual(r, ['0:1.e4', '0:1...e5', '(1:1...c5', '1:2.Nf3', ')', '0:2.Nf3', '(1:2.d4', ')', '0:2...Nc6']);
});

test('long lines are wrapped under 80 columns', () => {
  const t = T.createTree();
  let id = 0;
  for (let i = 0; i < 60; i++) id = T.addMove(t, id, `m${i}`, i % 2 ? 'Nf6' : 'Nf3');
  for (const line of T.toPGN(t).split('\n')) assert.ok(line.length < 80, line);
});

// Unit tests of web/js/analysis/tree.js, the analysis board's move tree (node --test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as T from '../../web/js/analysis/tree.js';

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

// A record's tree as POST /api/positions {"game", "record"} answers it (API.md): the
// main line's nodes, each with the lines played in its place.  This one is the
// server's answer for the PGN below (checked against ./agora serve).
const node = (move, display, comment = '', variations = []) => ({ move, display, comment, variations });
const SERVER_TREE = [
  node('e2e4', 'e4', 'best'),
  node('e7e5', 'e5', '', [
    [node('c7c5', 'c5', 'Sicilian'), node('g1f3', 'Nf3', '', [[node('b1c3', 'Nc3'), node('b8c6', 'Nc6')]]), node('d7d6', 'd6')],
    [node('e7e6', 'e6')],
  ]),
  node('g1f3', 'Nf3'),
  node('b8c6', 'Nc6', 'done'),
];
const SERVER_PGN = '1. e4 {best} e5 (1... c5 {Sicilian} 2. Nf3 (2. Nc3 Nc6) 2... d6) (1... e6) 2.\nNf3 Nc6 {done} *';

test('a record\'s tree from the server: variations (nested) and comments restored', () => {
  const t = T.createTree();
  const end = T.addTree(t, 0, SERVER_TREE);
  assert.equal(T.node(t, end).display, 'Nc6');
  assert.equal(T.node(t, end).comment, 'done');
  assert.equal(T.isMain(t, end), true);
  assert.deepEqual(T.movesTo(t, end), ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
  const e4 = T.next(t, 0);
  const [e5, c5, e6] = T.node(t, e4).children;
  assert.deepEqual([e5, c5, e6].map((id) => T.node(t, id).display), ['e5', 'c5', 'e6']);
  assert.equal(T.node(t, c5).comment, 'Sicilian');
  const [nf3, nc3] = T.node(t, c5).children;
  assert.deepEqual(T.movesTo(t, T.last(t, nc3)), ['e2e4', 'c7c5', 'b1c3', 'b8c6']);
  assert.deepEqual(T.movesTo(t, T.last(t, nf3)), ['e2e4', 'c7c5', 'g1f3', 'd7d6']);
  // exported again: the same text as the record read
  assert.ok(T.toPGN(t).endsWith(`\n\n${SERVER_PGN}\n`), T.toPGN(t));
});

test('export, import, export: the same text (a tree rebuilt from its own export)', () => {
  // The tree read back from toPGN's text is what the server gives for it: build that
  // answer from the tree itself (move, display, comment, the lines in a node's place).
  const answer = (t, id) => {
    const out = [];
    for (let cur = id; cur !== null;) {
      const n = T.node(t, cur);
      const sibs = T.node(t, n.parent).children;
      const variations = sibs[0] === cur ? sibs.slice(1).map((v) => answer(t, v)) : [];
      out.push(node(n.move, n.display, n.comment, variations));
      cur = n.children.length ? n.children[0] : null;
    }
    return out;
  };
  const { t, e5, nf3b } = sample();
  T.setComment(t, e5, 'the open game');
  T.setComment(t, nf3b, 'sharp');
  const first = T.toPGN(t, { variant: 'Agon' });
  const back = T.createTree();
  T.addTree(back, 0, answer(t, T.next(t, 0)));
  assert.equal(T.toPGN(back, { variant: 'Agon' }), first);
  // the main line alone, as older answers ({move, display} items or texts), still builds
  const plain = T.createTree();
  T.addTree(plain, 0, [{ move: 'e2e4', display: 'e4' }, 'e7e5']);
  assert.deepEqual(T.movesTo(plain, T.last(plain, 0)), ['e2e4', 'e7e5']);
});

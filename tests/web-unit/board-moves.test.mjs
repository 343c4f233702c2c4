// web/js/board/moves.js: the cells a move text names and the pieces after a move, as
// the play page and the puzzles draw them before the server's answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellsInText, piecesAfter } from '../../web/js/board/moves.js';

test('cells in a move text: the longest name at each place', () => {
  assert.deepEqual(cellsInText('b7xb2xf2', ['b7', 'b2', 'f2', 'b']), ['b7', 'b2', 'f2']);
  assert.deepEqual(cellsInText('a10-a1', ['a1', 'a10']), ['a10', 'a1']);
  assert.deepEqual(cellsInText('O-O', ['e1', 'g1']), []);
});

test('pieces after a move: moved, promoted, castled, captures crossed out', () => {
  const pieces = { e7: { piece: 'P' }, d8: { piece: 'r' }, e1: { piece: 'K' }, h1: { piece: 'R' }, c3: { piece: 'w' } };
  const promoted = piecesAfter(pieces, { from: 'e7', to: 'd8', promotion: 'q', captured: ['d8'] });
  assert.deepEqual(promoted.d8, { piece: 'Q', captured: false });
  assert.equal(promoted.e7, undefined);
  const castled = piecesAfter(pieces, { from: 'e1', to: 'g1', also_from: 'h1', also_to: 'f1' });
  assert.deepEqual([castled.g1.piece, castled.f1.piece, castled.e1, castled.h1], ['K', 'R', undefined, undefined]);
  const jumped = piecesAfter(pieces, { from: 'e1', to: 'e2', captured: ['c3'] });
  assert.deepEqual(jumped.c3, { piece: 'w', captured: true });
  assert.deepEqual(pieces.e7, { piece: 'P' }); // the pieces given are left as they were
  assert.deepEqual(piecesAfter(pieces, { from: 'a1', to: 'a2' }), pieces); // no piece there: nothing moves
});

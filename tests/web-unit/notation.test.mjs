// Unit tests of web/js/analysis/notation.js: position text written from a board (notation only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardField, positionText, boardLines } from '../../web/js/analysis/notation.js';

// A square layout like the catalogue's chess board: a1 at (0,0), y growing to Black.
const square = { shape: 'square', cells: [] };
for (let r = 1; r <= 8; r++) for (let f = 0; f < 8; f++) square.cells.push({ name: 'abcdefgh'[f] + r, x: f, y: r - 1, ring: 0, flags: [] });

test('chess: rows from the top, empty cells counted, side and fields', () => {
  const pieces = { e1: { piece: 'K' }, e8: { piece: 'k' }, h5: { piece: 'Q' } };
  assert.equal(boardField('chess', square, pieces), '4k3/8/8/7Q/8/8/8/4K3');
  assert.equal(positionText('chess', square, pieces, 'black', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), '4k3/8/8/7Q/8/8/8/4K3 b - - 0 1');
  assert.equal(positionText('chess', square, {}, 'white', ''), '8/8/8/8/8/8/8/8 w - - 0 1');
});

test('agon: files left to right, each from the bottom; a captured piece keeps its *', () => {
  const lines = boardLines('agon', square);
  assert.deepEqual(lines[0].slice(0, 2), ['a1', 'a2']);
  const pieces = { a1: { piece: 'Q', captured: true }, a3: { piece: 'g' } };
  assert.equal(boardField('agon', square, pieces).split('/')[0], 'Q*1g5');
  assert.equal(positionText('agon', square, pieces, 'white', 'x w').split(' ')[1], 'w');
});

test('other fields of the template are kept (Egara-guti\'s counter)', () => {
  assert.equal(positionText('egara-guti', square, {}, 'black', 'BBBBB/BBB w 7'), '8/8/8/8/8/8/8/8 b 7');
});

// TEST DOUBLE DATA: writes web/boards/{chess,agon,egara-guti}.json, the `board` object of
// the API contract (struct board_layout of src/core/game.h) for each game, as this
// script's author expects the server to send it.  The browser draws rules diagrams
// from these files and the API test double (tests/e2e/fake-api.mjs) sends them in
// its states.  When the real server lands, tests compare them with its `board`.
//   node tests/e2e/make-boards.mjs
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'boards');
const r3 = (v) => Math.round(v * 1000) / 1000;

function chess() {
  const cells = [];
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++)
      cells.push({ name: 'abcdefgh'[x] + (y + 1), x, y, ring: 0, flags: (x + y) % 2 === 0 ? ['dark'] : [] });
  return { shape: 'square', cells };
}

// Agon: Glinski names; axial q = file - 5, r = rank - 6 - min(q, 0).  The same picture
// as the agon branch's src/games/agon/layout.c: files as vertical columns of
// flat-topped cells one unit wide corner to corner, f1 at the bottom (y = 0).
function agon() {
  const files = 'abcdefghikl';
  const cells = [];
  for (let f = 0; f < 11; f++) {
    const q = f - 5;
    const n = 11 - Math.abs(q);
    for (let rank = 1; rank <= n; rank++) {
      const r = rank - 6 - Math.min(q, 0);
      const ring = Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
      cells.push({ name: files[f] + rank, x: r3(0.75 * f), y: r3((Math.sqrt(3) / 4) * (2 * r + q + 10)), ring, flags: ring === 0 ? ['throne'] : [] });
    }
  }
  return { shape: 'hex', cells };
}

function egara() {
  const names = ['a1', 'b1', 'd1', 'f1', 'g1', 'b2', 'd2', 'f2', 'c3', 'd3', 'e3', 'd4', 'c5', 'd5', 'e5',
    'b6', 'd6', 'f6', 'a7', 'b7', 'd7', 'f7', 'g7'];
  const lines = ['a7 b7 d7 f7 g7', 'b6 d6 f6', 'c5 d5 e5', 'c3 d3 e3', 'b2 d2 f2', 'a1 b1 d1 f1 g1',
    'd7 d6 d5 d4 d3 d2 d1', 'a7 b6 c5 d4 e3 f2 g1', 'g7 f6 e5 d4 c3 b2 a1', 'b7 b6 b2 b1', 'f7 f6 f2 f1'];
  const cells = names.map((name) => ({ name, x: name.charCodeAt(0) - 97, y: Number(name[1]) - 1, ring: 0, flags: name === 'd4' ? ['centre'] : [] }));
  const edges = [];
  for (const line of lines) {
    const pts = line.split(' ').map((p) => names.indexOf(p));
    for (let i = 1; i < pts.length; i++) edges.push([Math.min(pts[i - 1], pts[i]), Math.max(pts[i - 1], pts[i])]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { shape: 'graph', cells, edges };
}

for (const [name, board] of [['chess', chess()], ['agon', agon()], ['egara-guti', egara()]])
  writeFileSync(join(out, name + '.json'), JSON.stringify(board) + '\n');
console.log('wrote', out);

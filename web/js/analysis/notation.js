// Position text written from a board: notation, not rules (the server says whether the
// position is legal, POST /api/positions).  Each game's text lists the board's lines
// in turn, a digit counting empty cells, a letter a piece (Agon: a trailing * marks it
// captured), then the side to move and the game's other fields.  Chess and Egara-guti
// write rows from the top, each left to right; Agon writes files left to right, each
// from the bottom.  The lines come from the layout's coordinates.

// The piece letters each game's text uses, White's first (the editor's palette).
export const PIECE_LETTERS = {
  chess: ['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p'],
  agon: ['Q', 'G', 'q', 'g'],
  'egara-guti': ['W', 'B'],
};

const key = (v) => Math.round(v * 1000);

export function boardLines(game, layout) {
  const byFile = game === 'agon';
  const groups = new Map();
  for (const c of layout.cells) {
    const k = key(byFile ? c.x : c.y);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(c);
  }
  return [...groups.entries()].sort((a, b) => (byFile ? a[0] - b[0] : b[0] - a[0]))
    .map(([, cells]) => cells.sort((a, b) => (byFile ? a.y - b.y : a.x - b.x)).map((c) => c.name));
}

/** The board field of the position text for `pieces` ({cell: {piece, captured}}). */
export function boardField(game, layout, pieces) {
  return boardLines(game, layout).map((line) => {
    let out = '';
    let empty = 0;
    for (const name of line) {
      const p = pieces[name];
      if (!p || !p.piece) { empty++; continue; }
      if (empty) { out += empty; empty = 0; }
      out += p.piece + (p.captured ? '*' : '');
    }
    return empty ? out + empty : out;
  }).join('/');
}

/** A whole position text: the board, the side to move ('white'|'black'), and the
 *  other fields of `template` (a position text of the game); chess drops castling
 *  rights and the en-passant square of an edited board. */
export function positionText(game, layout, pieces, side, template) {
  const fields = String(template || '').trim().split(/\s+/);
  fields[0] = boardField(game, layout, pieces);
  fields[1] = side === 'black' ? 'b' : 'w';
  if (game === 'chess') {
    while (fields.length < 6) fields.push(['-', '-', '0', '1'][fields.length - 2]);
    fields[2] = '-';
    fields[3] = '-';
  }
  return fields.join(' ');
}

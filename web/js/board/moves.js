// What a move does to the picture on a board, from the server's description of it
// (no rules): the cells a move text names, and the pieces after a move while the
// server's next position is on its way.  Shared by the play page and the puzzles.

/** Cell names found in a move text, in order ("b7xb2xf2" -> b7 b2 f2): the longest
 *  name of the board that matches at each place; other characters are separators. */
export function cellsInText(text, names) {
  const out = [];
  const sorted = [...names].sort((a, b) => b.length - a.length);
  for (let i = 0; i < text.length;) {
    const hit = sorted.find((n) => text.startsWith(n, i));
    if (hit) { out.push(hit); i += hit.length; } else i++;
  }
  return out;
}

/** `pieces` as legal move `mv` leaves them, drawn from the move's own description
 *  (from, to, captured cells, the castling rook, the promotion letter); captured
 *  pieces are shown crossed out rather than guessed away. */
export function piecesAfter(pieces, mv) {
  const p = { ...pieces };
  const moving = p[mv.from];
  if (!moving) return p;
  delete p[mv.from];
  let letter = moving.piece;
  if (mv.promotion) letter = letter === letter.toUpperCase() ? mv.promotion.toUpperCase() : mv.promotion.toLowerCase();
  p[mv.to] = { piece: letter, captured: false };
  if (mv.also_from && p[mv.also_from]) {
    p[mv.also_to] = p[mv.also_from];
    delete p[mv.also_from];
  }
  for (const c of mv.captured || []) if (p[c] && c !== mv.to) p[c] = { ...p[c], captured: true };
  return p;
}

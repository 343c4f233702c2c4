// The opening trainer's repertoire and drill choices (issue 18), a pure module: no page,
// no storage, no rules (the moves come from the server's book and positions).
//
// A repertoire is the learner's lines, each {side, moves}.  A position is named by its
// side and the moves that reach it: "white:e2e4 e7e5".  The learner's positions are
// those where the learner's side is to move; the repertoire's moves there are the
// lines' next moves (several lines may answer one position differently: all count).
// Each learner position is one SM-2 card (web/js/openings/srs.js).
//
// The opponent's move in a drill (chooseReply):
//   candidates: the book's replies (their Polyglot weights) after which the repertoire
//     has a move, plus replies of the learner's own lines that the book lacks (weight:
//     the book's smallest weight here, or 1), again only if the repertoire goes on;
//   none: the line ends here ("end of your line");
//   due first: when some candidates lead to a position that is due (SM-2) — the next
//     learner position or any later one of the repertoire — only those are drawn;
//   then one is drawn at random in proportion to its weight, by the given random
//     source (a seedable one, mulberry32, for reproducible drills and tests).
//
// Grades (gradeOf), SM-2's q: 5 right at the first try within QUICK_MS; 4 right at the
// first try after a longer pause; 3 right after asking for a hint; 1 wrong (the right
// move is shown and must then be played, which earns nothing more).
// A line is learned when every one of its positions has an interval of at least
// LEARNED_DAYS days: SM-2's second interval, reached by two right answers in a row on
// different days (one right answer gives one day).

import { newCard, review } from './srs.js';

export const QUICK_MS = 10000;
export const LEARNED_DAYS = 6;

/** The position's name: its side and the moves reaching it. */
export const keyOf = (side, moves) => `${side}:${moves.join(' ')}`;

/** Is the learner (playing `side`) to move after `ply` moves? */
export const learnerToMove = (side, ply) => (ply % 2 === 0) === (side === 'white');

/** The positions of a line the learner answers: {key, prefix, move} for each of its moves. */
export function linePositions(line) {
  const out = [];
  for (let i = line.side === 'white' ? 0 : 1; i < line.moves.length; i += 2)
    out.push({ key: keyOf(line.side, line.moves.slice(0, i)), prefix: line.moves.slice(0, i), move: line.moves[i] });
  return out;
}

/** The repertoire of one side: position key -> the learner's moves there, in the lines' order. */
export function repertoireOf(lines, side) {
  const rep = new Map();
  for (const line of lines) {
    if (line.side !== side) continue;
    for (const p of linePositions(line)) {
      const moves = rep.get(p.key) || [];
      if (!moves.includes(p.move)) moves.push(p.move);
      rep.set(p.key, moves);
    }
  }
  return rep;
}

/** The opponent's moves of the learner's lines after `prefix` (the lines' own replies). */
export function linesReplies(lines, side, prefix) {
  const out = [];
  for (const line of lines) {
    if (line.side !== side || line.moves.length <= prefix.length) continue;
    if (prefix.every((m, i) => line.moves[i] === m) && !out.includes(line.moves[prefix.length])) out.push(line.moves[prefix.length]);
  }
  return out;
}

/** Is some position of `rep` at or after `moves` due at `now` (a position without a card is new, so due)? */
export function dueFrom(rep, cards, side, moves, now) {
  const base = keyOf(side, moves);
  const under = moves.length ? base + ' ' : base;
  for (const key of rep.keys()) {
    if (key !== base && !key.startsWith(under)) continue;
    const card = cards[key];
    if (!card || card.due <= now) return true;
  }
  return false;
}

/**
 * The replies the drill may play after `prefix` (the opponent to move):
 * [{move, weight, due}], the book's order first.  `book` is the server's book moves
 * ({move, weight}); `lines` the learner's lines; `cards` the SM-2 cards by key.
 */
export function replyCandidates({ book, lines, side, prefix, cards, now }) {
  const rep = repertoireOf(lines, side);
  const goesOn = (m) => rep.has(keyOf(side, [...prefix, m]));
  const positive = book.map((b) => b.weight).filter((w) => w > 0);
  const least = positive.length ? Math.min(...positive) : 1;
  const out = book.filter((b) => goesOn(b.move)).map((b) => ({ move: b.move, weight: Math.max(0, b.weight) }));
  for (const m of linesReplies(lines, side, prefix)) if (goesOn(m) && !out.some((c) => c.move === m)) out.push({ move: m, weight: least });
  for (const c of out) c.due = dueFrom(rep, cards, side, [...prefix, c.move], now);
  return out;
}

/** Draws one of `items` ({weight}) in proportion to its weight (all equal when all are 0). */
export function drawWeighted(items, rand) {
  const total = items.reduce((a, c) => a + c.weight, 0);
  if (!(total > 0)) return items[Math.min(items.length - 1, Math.floor(rand() * items.length))];
  let x = rand() * total;
  for (const c of items) {
    if (x < c.weight) return c;
    x -= c.weight;
  }
  return items[items.length - 1];
}

/**
 * The drill's reply after `prefix` (see replyCandidates), or null: the end of the
 * learner's line.  `ctx.focus`, when it is a candidate, is played (a drill of one line
 * follows it in its first round).
 */
export function chooseReply(ctx, rand) {
  const all = replyCandidates(ctx);
  if (!all.length) return null;
  if (ctx.focus && all.some((c) => c.move === ctx.focus)) return ctx.focus;
  const due = all.filter((c) => c.due);
  return drawWeighted(due.length ? due : all, rand).move;
}

/** SM-2's grade of an answer: {wrong, hinted, ms} (ms from the position shown to the move). */
export function gradeOf({ wrong = false, hinted = false, ms = 0 }) {
  if (wrong) return 1;
  if (hinted) return 3;
  return ms > QUICK_MS ? 4 : 5;
}

/**
 * The card after a drill's answer of grade q at `now`: SM-2's review when the card is
 * due (or new); a right answer before the card is due leaves it as it is (answering
 * again the same day says little: the schedule is SM-2's), a wrong one is a lapse at
 * any time.
 */
export function gradeCard(card, q, now) {
  const c = card || newCard(now);
  if (q >= 3 && c.due > now) return c;
  return review(c, q, now);
}

/** A position is learnt when its card's interval is at least LEARNED_DAYS. */
export const learnt = (card) => !!card && card.interval >= LEARNED_DAYS;

/** Progress over positions named by their keys: {total, known, due, learned}; a position
 *  without a card is new, so due.  The repertoire's list and the drill both count with it. */
export function keysStats(cards, keys, now) {
  const ps = keys.map((k) => cards[k]);
  const known = ps.filter(learnt).length;
  return { total: ps.length, known, due: ps.filter((c) => !c || c.due <= now).length, learned: ps.length > 0 && known === ps.length };
}

/** A line's progress: {total, known, due, learned} over its learner positions. */
export const lineStats = (cards, line, now) => keysStats(cards, linePositions(line).map((p) => p.key), now);

/** One side's progress over all its lines (a position two lines share counted once). */
export const sideStats = (cards, lines, side, now) => keysStats(cards, [...repertoireOf(lines, side).keys()], now);

/** What a drill counts: `which` a line's index (#/openings?drill=N) -> that line's
 *  progress, the very numbers of its row in the repertoire; 'white' or 'black' -> the
 *  side's.  (Before, a line's drill counted its whole side: "0 due" beside "2 due".) */
export function drillStats(cards, lines, which, now) {
  if (/^\d+$/.test(String(which))) return lines[Number(which)] ? lineStats(cards, lines[Number(which)], now) : keysStats(cards, [], now);
  return sideStats(cards, lines.filter((l) => l.side === which), which, now);
}

/** A seedable random source in [0, 1) (mulberry32): the same seed, the same drill. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

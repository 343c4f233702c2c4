// The opening drill's choices and grades (web/js/openings/repertoire.js): the opponent's reply
// drawn among the book's replies the repertoire answers, by the book's weights, due
// positions first, the end of the learner's line; the grades 5/4/3/1 and a worked SM-2
// example through them; progress per line.  The book moves are the server's answers
// for these positions (Debian's gnuchess-book), copied here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyOf, learnerToMove, repertoireOf, replyCandidates, chooseReply, drawWeighted, dueFrom, gradeOf, gradeCard, lineStats, drillStats, seeded, QUICK_MS, LEARNED_DAYS } from '../../web/js/openings/repertoire.js';
import { newCard, DAY } from '../../web/js/openings/srs.js';

const giuoco = { side: 'white', moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5'] };
const ruy = { side: 'white', moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5a4'] };
const antiSicilian = { side: 'white', moves: ['e2e4', 'c7c5', 'g1f3'] };
const french = { side: 'black', moves: ['e2e4', 'e7e6', 'd2d4', 'd7d5'] };
const lines = [giuoco, ruy, antiSicilian, french];
// The book after 1. e4 (weights of gnuchess-book; the tail left out).
const afterE4 = [{ move: 'c7c5', weight: 14550 }, { move: 'e7e5', weight: 10621 }, { move: 'e7e6', weight: 3913 }, { move: 'c7c6', weight: 2340 }, { move: 'h7h6', weight: 5 }];
const NOW = 100 * DAY;
const reviewed = (due = NOW + DAY) => ({ reps: 1, interval: 1, ef: 2.6, due });

test('the repertoire: several lines answering one position count with all their moves', () => {
  const rep = repertoireOf(lines, 'white');
  assert.deepEqual(rep.get('white:'), ['e2e4']);
  assert.deepEqual(rep.get('white:e2e4 e7e5 g1f3 b8c6'), ['f1c4', 'f1b5']);
  assert.deepEqual(rep.get('white:e2e4 c7c5'), ['g1f3']);
  assert.equal(rep.get('white:e2e4 e7e5 g1f3 b8c6 f1c4 f8c5'), undefined); // the line ends with the opponent's move
  assert.deepEqual([...repertoireOf(lines, 'black').keys()], ['black:e2e4', 'black:e2e4 e7e6 d2d4']);
  assert.ok(learnerToMove('white', 0) && !learnerToMove('white', 1) && learnerToMove('black', 1) && !learnerToMove('black', 0));
});

test('candidates: only the book replies the repertoire answers, with the book weights', () => {
  const c = replyCandidates({ book: afterE4, lines, side: 'white', prefix: ['e2e4'], cards: {}, now: NOW });
  assert.deepEqual(c.map((x) => [x.move, x.weight, x.due]), [['c7c5', 14550, true], ['e7e5', 10621, true]]);
});

test('weights: the draw follows the book weights (c5 14550 : e5 10621)', () => {
  const ctx = { book: afterE4, lines, side: 'white', prefix: ['e2e4'], cards: {}, now: NOW };
  // 25171 in all: a draw below 14550/25171 = 0.578 is c5, above it e5.
  assert.equal(chooseReply(ctx, () => 0.57), 'c7c5');
  assert.equal(chooseReply(ctx, () => 0.58), 'e7e5');
  const rand = seeded(7);
  let c5 = 0;
  for (let i = 0; i < 20000; i++) if (chooseReply(ctx, rand) === 'c7c5') c5++;
  assert.ok(Math.abs(c5 / 20000 - 14550 / 25171) < 0.015, `c5 drawn ${c5} times of 20000`);
  const zeros = [{ id: 'a', weight: 0 }, { id: 'b', weight: 0 }]; // all 0: equal shares
  assert.deepEqual([0, 0.49, 0.5, 0.99].map((x) => drawWeighted(zeros, () => x).id), ['a', 'a', 'b', 'b']);
});

test('due first: when the Sicilian positions are reviewed, the drill plays 1...e5 whatever the draw', () => {
  const cards = { 'white:': reviewed(), 'white:e2e4 c7c5': reviewed() };
  const ctx = { book: afterE4, lines, side: 'white', prefix: ['e2e4'], cards, now: NOW };
  assert.deepEqual(replyCandidates(ctx).map((x) => x.due), [false, true]);
  for (const x of [0, 0.3, 0.57, 0.99]) assert.equal(chooseReply(ctx, () => x), 'e7e5');
  // A due position further down the line counts: the Giuoco's Bc4 position due, the rest not.
  const later = { ...cards, 'white:e2e4 e7e5': reviewed(), 'white:e2e4 e7e5 g1f3 b8c6': reviewed(NOW) };
  assert.ok(dueFrom(repertoireOf(lines, 'white'), later, 'white', ['e2e4', 'e7e5'], NOW));
  // Nothing due: back to the weights among all the candidates.
  const none = { ...later, 'white:e2e4 e7e5 g1f3 b8c6': reviewed(), 'white:e2e4 e7e5 g1f3 b8c6 f1b5 a7a6': reviewed() };
  assert.equal(chooseReply({ ...ctx, cards: none }, () => 0.1), 'c7c5');
  assert.equal(chooseReply({ ...ctx, cards: none }, () => 0.9), 'e7e5');
  assert.ok(!dueFrom(repertoireOf(lines, 'white'), none, 'white', [], NOW));
});

test('the end of the line: no book reply after which the repertoire has a move', () => {
  const book = [{ move: 'f8c5', weight: 9000 }, { move: 'g8f6', weight: 4000 }];
  assert.equal(chooseReply({ book, lines, side: 'white', prefix: giuoco.moves.slice(0, 5), cards: {}, now: NOW }, () => 0.5), null);
  assert.equal(chooseReply({ book: afterE4, lines: [giuoco], side: 'white', prefix: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5'], cards: {}, now: NOW }, () => 0.5), null);
  assert.equal(chooseReply({ book: [], lines, side: 'white', prefix: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5a4'], cards: {}, now: NOW }, () => 0.5), null);
});

test("the learner's own off-book reply is a candidate with the book's least weight; a focus move is followed", () => {
  const own = { side: 'white', moves: ['e2e4', 'a7a5', 'd2d4'] };
  const c = replyCandidates({ book: afterE4, lines: [...lines, own], side: 'white', prefix: ['e2e4'], cards: {}, now: NOW });
  assert.deepEqual(c.map((x) => [x.move, x.weight]), [['c7c5', 14550], ['e7e5', 10621], ['a7a5', 5]]);
  const ctx = { book: afterE4, lines, side: 'white', prefix: ['e2e4'], cards: {}, now: NOW, focus: 'e7e5' };
  assert.equal(chooseReply(ctx, () => 0), 'e7e5');
  assert.equal(chooseReply({ ...ctx, focus: 'e7e6' }, () => 0), 'c7c5'); // not a candidate: the usual draw
});

test('black: the opponent moves first, among the book replies the lines answer', () => {
  const start = [{ move: 'e2e4', weight: 12135 }, { move: 'd2d4', weight: 11257 }];
  assert.equal(chooseReply({ book: start, lines, side: 'black', prefix: [], cards: {}, now: NOW }, () => 0.99), 'e2e4');
});

test('grades: 5 quick, 4 after a pause, 3 after a hint, 1 wrong', () => {
  assert.equal(gradeOf({ ms: 1200 }), 5);
  assert.equal(gradeOf({ ms: QUICK_MS }), 5);
  assert.equal(gradeOf({ ms: QUICK_MS + 1 }), 4);
  assert.equal(gradeOf({ hinted: true, ms: 500 }), 3);
  assert.equal(gradeOf({ hinted: true, ms: 60000 }), 3);
  assert.equal(gradeOf({ wrong: true, hinted: true, ms: 500 }), 1);
});

test('a worked SM-2 example through the drill grades 5, 4, 3, the lapse 1, then 5, 5, 5', () => {
  // EF 2.5 -> 2.6 (q5: +0.1), 2.6 (q4: 0), 2.46 (q3: -0.14), kept by the lapse, then +0.1 each.
  // Intervals: 1, 6, round(6 * 2.6) = 16, the lapse 1, then 1, 6, round(6 * 2.66 = 15.96) = 16.
  let card = newCard(0);
  let now = 0;
  const seen = [];
  for (const q of [5, 4, 3, 1, 5, 5, 5]) {
    card = gradeCard(card, q, now);
    seen.push([q, card.reps, card.interval, card.ef]);
    now = card.due;
  }
  assert.deepEqual(seen, [[5, 1, 1, 2.6], [4, 2, 6, 2.6], [3, 3, 16, 2.46], [1, 0, 1, 2.46], [5, 1, 1, 2.56], [5, 2, 6, 2.66], [5, 3, 16, 2.76]]);
});

test('early answers: a right one before the day leaves the card, a wrong one is a lapse; no card is a new one', () => {
  const card = { reps: 2, interval: 6, ef: 2.6, due: NOW + 3 * DAY };
  assert.equal(gradeCard(card, 5, NOW), card);
  assert.deepEqual(gradeCard(card, 1, NOW), { reps: 0, interval: 1, ef: 2.6, due: NOW + DAY });
  assert.deepEqual(gradeCard(undefined, 4, NOW), { reps: 1, interval: 1, ef: 2.5, due: NOW + DAY });
});

test(`progress per line: learned when every position has an interval of ${LEARNED_DAYS} days or more`, () => {
  const six = { reps: 2, interval: 6, ef: 2.5, due: NOW + 6 * DAY };
  const cards = { [keyOf('white', [])]: six, 'white:e2e4 e7e5': six, 'white:e2e4 e7e5 g1f3 b8c6': six, 'white:e2e4 c7c5': reviewed() };
  assert.deepEqual(lineStats(cards, giuoco, NOW), { total: 3, known: 3, due: 0, learned: true });
  // The Ruy Lopez shares three positions with the Giuoco; its fourth (after 4...a6) has no card yet.
  assert.deepEqual(lineStats(cards, ruy, NOW), { total: 4, known: 3, due: 1, learned: false });
  assert.deepEqual(lineStats(cards, antiSicilian, NOW), { total: 2, known: 1, due: 0, learned: false });
});

test('a line\'s drill counts what its row in the repertoire counts; a side\'s drill its side', () => {
  const six = { reps: 2, interval: 6, ef: 2.5, due: NOW + 6 * DAY };
  // The Giuoco all reviewed; the Ruy's fourth position and the anti-Sicilian's second new: due.
  const cards = { [keyOf('white', [])]: six, 'white:e2e4 e7e5': six, 'white:e2e4 e7e5 g1f3 b8c6': six };
  const lines = [giuoco, ruy, antiSicilian];
  lines.forEach((line, i) => assert.deepEqual(drillStats(cards, lines, String(i), NOW), lineStats(cards, line, NOW), `line ${i}`));
  assert.equal(drillStats(cards, lines, '0', NOW).due, 0); // "0 positions due" in the row and in its drill
  assert.equal(drillStats(cards, lines, 'white', NOW).due, 2); // the side: 4...a6 and 2...c5, each once
  assert.deepEqual(drillStats(cards, lines, '9', NOW), { total: 0, known: 0, due: 0, learned: false });
});

test('the random source is seedable: the same seed gives the same draws', () => {
  const a = seeded(42);
  const b = seeded(42);
  const xs = Array.from({ length: 50 }, () => a());
  assert.deepEqual(xs, Array.from({ length: 50 }, () => b()));
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.notDeepEqual(xs.slice(0, 5), Array.from({ length: 5 }, seeded(43)));
});

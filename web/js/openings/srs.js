// Spaced repetition by SM-2 (P. A. Wozniak, "Optimization of learning", 1990; the
// algorithm SuperMemo 2 used): a pure module, no page and no storage.  A card is
// {reps, interval, ef, due}: reps the correct answers in a row, interval the days until
// the next review, ef the easiness factor (2.5 for a new card, never below 1.3), due
// the time (ms) of the next review.  A review grades the answer q = 0..5 (5 perfect,
// 3 correct with difficulty, below 3 wrong):
//   q >= 3: the interval becomes 1 day (first), 6 days (second), then the last one
//           times ef, rounded to whole days; then ef += 0.1 - (5-q)(0.08 + (5-q)0.02)
//   q <  3: the card starts over (reps 0, interval 1 day) and ef stays as it was
// (the 1990 text: "start repetitions for the item from the beginning without changing
// the E-Factor").  The interval uses ef as it was before this review.
//
// The opening drill's grades (web/js/openings/repertoire.js gradeOf): 5 the repertoire move at
// the first try within 10 seconds; 4 at the first try after a longer pause; 3 after
// asking for a hint (the piece to move is marked); 1 a wrong move (the right one is
// shown and must then be played; that earns nothing more).  Grade 0 and 2 are not
// used.  So a quick answer raises ef by 0.1, a slow one keeps it, a hinted one lowers
// it by 0.14, and a wrong one starts the card over.

export const DAY = 24 * 60 * 60 * 1000;
export const EF_START = 2.5;
export const EF_MIN = 1.3;

/** A card never reviewed: due at once. */
export function newCard(now = 0) {
  return { reps: 0, interval: 0, ef: EF_START, due: now };
}

/** The card after an answer of quality q (0..5) at time `now` (ms). */
export function review(card, q, now) {
  if (!Number.isInteger(q) || q < 0 || q > 5) throw new RangeError(`SM-2 grades are 0..5, not ${q}`);
  if (q < 3) return { reps: 0, interval: 1, ef: card.ef, due: now + DAY };
  const interval = card.reps === 0 ? 1 : card.reps === 1 ? 6 : Math.round(card.interval * card.ef);
  const ef = Math.max(EF_MIN, round2(card.ef + (0.1 - (5 - q) * (0.08 + (5 - q) * 0.02))));
  return { reps: card.reps + 1, interval, ef, due: now + interval * DAY };
}

/** Is the card due at `now`? */
export const isDue = (card, now) => card.due <= now;

// Two decimals, so that sums of tenths stay exact (2.5 + 0.1 + 0.1 is 2.7).
function round2(x) {
  return Math.round(x * 100) / 100;
}

// SM-2 (web/js/openings/srs.js) against worked examples of the 1990 algorithm: the intervals
// 1, 6, then I(n-1) * EF; the E-Factor's change by grade (+0.10 for 5, 0 for 4,
// -0.14 for 3), its floor of 1.3, and a lapse (grade below 3) starting the card over
// without changing its E-Factor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newCard, review, isDue, DAY, EF_MIN } from '../../web/js/openings/srs.js';

const steps = (grades, card = newCard(0)) => {
  const out = [];
  let now = 0;
  for (const q of grades) {
    card = review(card, q, now);
    out.push(card);
    now = card.due;
  }
  return out;
};

test('perfect answers: intervals 1, 6, 16, 45 days; E-Factor 2.6, 2.7, 2.8, 2.9', () => {
  const s = steps([5, 5, 5, 5]);
  assert.deepEqual(s.map((c) => c.interval), [1, 6, 16, 45]); // 6 * 2.7 = 16.2, 16 * 2.8 = 44.8
  assert.deepEqual(s.map((c) => c.ef), [2.6, 2.7, 2.8, 2.9]);
  assert.deepEqual(s.map((c) => c.reps), [1, 2, 3, 4]);
});

test('grade 4 keeps the E-Factor at 2.5: intervals 1, 6, 15, 38', () => {
  const s = steps([4, 4, 4, 4]);
  assert.deepEqual(s.map((c) => c.interval), [1, 6, 15, 38]); // 15 * 2.5 = 37.5 rounds to 38
  assert.ok(s.every((c) => c.ef === 2.5));
});

test('grade 3 lowers the E-Factor by 0.14 a time, never below 1.3', () => {
  const s = steps(Array(12).fill(3));
  assert.deepEqual(s.slice(0, 3).map((c) => c.ef), [2.36, 2.22, 2.08]);
  assert.equal(s[2].interval, 13); // 6 * 2.22, the E-Factor before the third review
  assert.equal(s.at(-1).ef, EF_MIN);
});

test('a lapse starts the card over and keeps its E-Factor; then 1 and 6 days again', () => {
  const s = steps([5, 5, 5, 1, 4, 4]);
  assert.deepEqual(s.map((c) => c.interval), [1, 6, 16, 1, 1, 6]);
  assert.equal(s[3].reps, 0);
  assert.equal(s[3].ef, 2.8);
  assert.equal(s[4].ef, 2.8);
});

test('due dates: a new card is due at once, a reviewed one after its interval', () => {
  const c = newCard(1000);
  assert.ok(isDue(c, 1000));
  const r = review(c, 5, 1000);
  assert.equal(r.due, 1000 + DAY);
  assert.ok(!isDue(r, 1000 + DAY - 1) && isDue(r, 1000 + DAY));
  assert.throws(() => review(c, 6, 0), RangeError);
});

// The rating graph's model (web/js/players/rating-graph.js): one series a game and
// class in order, the points inside the margins, the axis rounded out, the numbers a
// text alternative says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphModel } from '../../web/js/players/rating-graph.js';

const history = [
  { game: 'chess', class: 'blitz', rating: 1500, at: 1 },
  { game: 'chess', class: 'blitz', rating: 1620, at: 2 },
  { game: 'agon', class: 'rapid', rating: 1440, at: 3 },
  { game: 'chess', class: 'blitz', rating: 1580, at: 4 },
];

test('one series a game and class, first seen first, with its numbers', () => {
  const m = graphModel(history, 600, 240, 36);
  assert.deepEqual(m.series.map((s) => s.key), ['chess/blitz', 'agon/rapid']);
  const blitz = m.series[0];
  assert.equal(blitz.points.length, 3);
  assert.deepEqual([blitz.first, blitz.last, blitz.high, blitz.low], [1500, 1580, 1620, 1500]);
  assert.equal(m.series[1].points.length, 1);
  assert.equal(m.min, 1400);
  assert.equal(m.max, 1650);
});

test('points lie inside the margins, later games to the right, higher ratings up', () => {
  const m = graphModel(history, 600, 240, 36);
  const all = m.series.flatMap((s) => s.points);
  for (const p of all) {
    assert.ok(p.x >= 36 && p.x <= 564, `x ${p.x}`);
    assert.ok(p.y >= 36 && p.y <= 204, `y ${p.y}`);
  }
  const [a, b, c] = m.series[0].points;
  assert.ok(a.x < b.x && b.x < c.x);
  assert.ok(b.y < a.y, 'a higher rating is drawn higher');
  assert.equal(a.x, 36);
  assert.equal(c.x, 564);
});

test('an empty history draws an empty graph around 1500', () => {
  const m = graphModel([]);
  assert.equal(m.series.length, 0);
  assert.ok(m.min < 1500 && m.max > 1500);
});

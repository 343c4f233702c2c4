// The tournament page's logic without DOM (web/js/tournaments/tourney-model.js): the
// countdown, the buttons a visitor has, a new game of theirs noticed once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countdown, countdownTarget, actions, newGame, tooLate } from '../../web/js/tournaments/tourney-model.js';

const view = (status, me = null) => ({ tournament: { status, starts: 1000, ends: 5000 }, me });

test('the countdown counts to the start, then the end, never below zero', () => {
  assert.deepEqual(countdown(3_723_000, 0), { h: 1, m: 2, s: 3 });
  assert.deepEqual(countdown(0, 5000), { h: 0, m: 0, s: 0 });
  assert.deepEqual(countdownTarget(view('upcoming')), { kind: 'starts', at: 1000 });
  assert.deepEqual(countdownTarget(view('running')), { kind: 'ends', at: 5000 });
  assert.equal(countdownTarget(view('finished')), null);
  // A running Swiss counts rounds, not time.
  assert.equal(countdownTarget({ tournament: { kind: 'swiss', status: 'running', starts: 1000 } }), null);
});

test('join for an outsider or a paused player, pause and withdraw for an active one', () => {
  assert.deepEqual(actions(view('upcoming')), ['join']);
  assert.deepEqual(actions(view('running', { state: 'active' })), ['pause', 'withdraw']);
  assert.deepEqual(actions(view('running', { state: 'paused' })), ['join']);
  assert.deepEqual(actions(view('finished', { state: 'active' })), []);
});

test('past half a Swiss, no join for a newcomer; an entrant still comes back', () => {
  const swiss = (round, me = null) => ({ tournament: { kind: 'swiss', status: 'running', round, rounds: 5 }, me });
  assert.deepEqual(actions(swiss(2)), ['join']); // 2 of 5: not past half
  assert.equal(tooLate(swiss(2).tournament), false);
  assert.deepEqual(actions(swiss(3)), []); // 3 of 5: past half
  assert.equal(tooLate(swiss(3).tournament), true);
  assert.deepEqual(actions(swiss(3, { state: 'paused' })), ['join']);
  assert.deepEqual(actions(swiss(5, { state: 'withdrawn' })), ['join']);
  assert.deepEqual(actions(swiss(4, { state: 'active' })), ['pause', 'withdraw']);
  // An arena has no such limit.
  assert.equal(tooLate({ kind: 'arena', status: 'running', round: 0, rounds: 0 }), false);
});

test('a new game is noticed once', () => {
  const a = view('running', { state: 'active', game: { id: 'g1' } });
  const b = view('running', { state: 'active', game: { id: 'g2' } });
  assert.equal(newGame(null, a), 'g1');
  assert.equal(newGame(a, a), null);
  assert.equal(newGame(a, b), 'g2');
  assert.equal(newGame(b, view('running', { state: 'active', game: null })), null);
});

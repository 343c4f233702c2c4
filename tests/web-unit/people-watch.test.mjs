// web/js/people/people-watch.js with a fake EventSource and a fake timer: the creator hears
// the accept from the challenge's stream and never polls while it works; a stream the
// browser gave up on (CLOSED: a 429 or 404 answer) falls back to polling; a dropped
// connection that the EventSource retries does not; whileVisible refreshes only while
// the page is visible, and never after stop().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchChallenge, whileVisible, challengeEventsUrl } from '../../web/js/people/people-watch.js';

class FakeES {
  static last = null;
  constructor(url) { this.url = url; this.readyState = 0; this.listeners = {}; this.closed = false; FakeES.last = this; }
  addEventListener(name, fn) { (this.listeners[name] ||= []).push(fn); }
  emit(name, data) { for (const fn of this.listeners[name] || []) fn({ data: JSON.stringify(data) }); }
  close() { this.closed = true; this.readyState = 2; }
}

function fakeTimers() {
  const timers = new Map();
  let next = 1;
  return {
    timers,
    setInterval: (fn, ms) => { timers.set(next, { fn, ms }); return next++; },
    clearInterval: (id) => timers.delete(id),
    tick: () => { for (const { fn } of [...timers.values()]) fn(); },
  };
}

test('the accept comes from the stream: no poll, the stream closed, onDone once', () => {
  const tm = fakeTimers();
  let gets = 0;
  const done = [];
  watchChallenge('ab12', (c) => done.push(c), { EventSource: FakeES, getChallenge: async () => { gets++; return {}; }, ...tm });
  const es = FakeES.last;
  assert.equal(es.url, challengeEventsUrl('ab12'));
  assert.equal(es.url, '/api/challenges/ab12/events');
  es.readyState = 1;
  es.emit('challenge', { id: 'ab12', status: 'open', game_id: null });
  assert.equal(done.length, 0);
  es.emit('challenge', { id: 'ab12', status: 'accepted', game_id: 'g1' });
  es.emit('challenge', { id: 'ab12', status: 'accepted', game_id: 'g1' });
  assert.deepEqual(done.map((c) => c.game_id), ['g1']);
  assert.ok(es.closed);
  assert.equal(tm.timers.size, 0, 'no poll was started');
  assert.equal(gets, 0);
});

test('withdrawn or expired: told once, with the status', () => {
  for (const status of ['cancelled', 'expired']) {
    const done = [];
    watchChallenge('c1', (c) => done.push(c.status), { EventSource: FakeES, getChallenge: async () => ({}), ...fakeTimers() });
    FakeES.last.emit('challenge', { status });
    assert.deepEqual(done, [status]);
    assert.ok(FakeES.last.closed);
  }
});

test('a dropped connection is retried by the EventSource, without polling', () => {
  const tm = fakeTimers();
  watchChallenge('c2', () => {}, { EventSource: FakeES, getChallenge: async () => ({}), ...tm });
  const es = FakeES.last;
  es.readyState = 0; // CONNECTING: the browser retries
  es.onerror();
  assert.equal(tm.timers.size, 0);
  assert.ok(!es.closed);
});

test('a stream that cannot be had (CLOSED) falls back to polling, which finds the accept', async () => {
  const tm = fakeTimers();
  const answers = [{ status: 'open' }, { status: 'accepted', game_id: 'g9' }];
  const done = [];
  watchChallenge('c3', (c) => done.push(c.game_id), { EventSource: FakeES, getChallenge: async () => answers.shift(), pollMs: 500, ...tm });
  const es = FakeES.last;
  es.readyState = 2; // the answer was a 429, not a stream
  es.onerror();
  assert.ok(es.closed);
  assert.equal(tm.timers.size, 1);
  assert.equal([...tm.timers.values()][0].ms, 500);
  tm.tick();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(done.length, 0);
  tm.tick();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(done, ['g9']);
  assert.equal(tm.timers.size, 0, 'the poll stopped');
});

test('no EventSource at all: poll; stop() ends everything', () => {
  const tm = fakeTimers();
  const stop = watchChallenge('c4', () => assert.fail('stopped'), { EventSource: undefined, getChallenge: async () => ({ status: 'accepted', game_id: 'x' }), ...tm });
  assert.equal(tm.timers.size, 1);
  stop();
  assert.equal(tm.timers.size, 0);
});

test('whileVisible: refreshes while visible, not while hidden, at once on return, never after stop', async () => {
  const tm = fakeTimers();
  const listeners = {};
  const doc = {
    visibilityState: 'visible',
    addEventListener: (n, fn) => { listeners[n] = fn; },
    removeEventListener: (n) => { delete listeners[n]; },
  };
  let calls = 0;
  const stop = whileVisible(async () => { calls++; }, 4000, { document: doc, ...tm });
  assert.equal([...tm.timers.values()][0].ms, 4000);
  tm.tick();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(calls, 1);
  doc.visibilityState = 'hidden';
  tm.tick();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(calls, 1, 'hidden: no refresh');
  doc.visibilityState = 'visible';
  listeners.visibilitychange();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(calls, 2, 'visible again: at once');
  stop();
  assert.equal(tm.timers.size, 0);
  assert.ok(!listeners.visibilitychange);
});

test('whileVisible: one refresh at a time', async () => {
  const tm = fakeTimers();
  let calls = 0;
  let release;
  const stop = whileVisible(() => { calls++; return new Promise((r) => { release = r; }); }, 1000, { document: { visibilityState: 'visible', addEventListener() {}, removeEventListener() {} }, ...tm });
  tm.tick();
  tm.tick();
  assert.equal(calls, 1, 'the slow one is not overtaken');
  release();
  await new Promise((r) => setTimeout(r, 0));
  tm.tick();
  assert.equal(calls, 2);
  stop();
});

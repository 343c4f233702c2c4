// The analysis board's controller (web/js/analysis/controller.js) without a browser:
// a fake server (api) with a tiny game, fake timers, and a view that records which
// parts the controller asks to draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalysis } from '../../web/js/analysis/controller.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));
async function settle() { for (let i = 0; i < 10; i++) await tick(); }

// A game on two files: a piece on a1 steps to a2 or jumps to a3 (a capture), b1 promotes
// on b2 to a Q or an R (two moves of the same path).  Moves are never refused.
const LEGAL = [
  { move: 'a1a2', display: 'A2', from: 'a1', to: 'a2', path: ['a2'], flags: [] },
  { move: 'a1a3', display: 'Ax3', from: 'a1', to: 'a3', path: ['a3'], flags: ['capture'] },
  { move: 'b1b2q', display: 'B2=Q', from: 'b1', to: 'b2', path: ['b2'], flags: ['promotion'] },
  { move: 'b1b2r', display: 'B2=R', from: 'b1', to: 'b2', path: ['b2'], flags: ['promotion'] },
];
function fakeApi() {
  const api = {
    asked: [], analyses: [],
    async position({ position, moves = [], record }) {
      api.asked.push(record !== undefined ? { record } : { position, moves: [...moves] });
      if (record !== undefined) {
        if (record === 'bad') throw Object.assign(new Error('no record'), { status: 400 });
        const line = record.split(' ');
        return { start_position: null, moves: line.map((m) => ({ move: m, display: m.toUpperCase() })), tree: line.map((m) => ({ move: m, display: m.toUpperCase() })) };
      }
      if (position === 'bad') throw Object.assign(new Error('bad position'), { status: 400 });
      return {
        position: `${position || 'start'} ${moves.join(' ')}`.trim(), side_to_move: moves.length % 2 ? 'black' : 'white',
        status: { result: 'ongoing' }, legal_moves: LEGAL, pieces: { a1: { piece: 'P' }, b1: { piece: 'P' } },
        moves: moves.map((m) => ({ move: m, display: m.toUpperCase() })), board: [],
      };
    },
    analyse(req, onLines, signal) {
      return new Promise((resolve, reject) => api.analyses.push({ req, onLines, signal, resolve, reject }));
    },
    piecesOf: () => ({}),
  };
  return api;
}
function fakeTimers() {
  const pending = new Map();
  let n = 0;
  return {
    pending,
    setTimeout: (fn, ms) => { pending.set(++n, { fn, ms }); return n; },
    clearTimeout: (id) => pending.delete(id),
    setInterval: (fn, ms) => { pending.set(++n, { fn, ms, every: true }); return n; },
    clearInterval: (id) => pending.delete(id),
    run() { for (const [id, t] of [...pending]) { if (!t.every) pending.delete(id); t.fn(); } },
  };
}
function make(opts = {}) {
  const drawn = [];
  const view = new Proxy({}, { get: (_, hook) => (...args) => drawn.push(args.length ? [hook, ...args] : hook) });
  const api = fakeApi();
  const timers = fakeTimers();
  const ctl = createAnalysis({ game: 'mini', entry: { name: 'mini', title: 'Mini', layout: { cells: [] } }, api, view, timers, ...opts });
  return { ctl, s: ctl.s, api, timers, drawn };
}

test('a link: the moves get their display texts from the server; the end is shown', async () => {
  const { ctl, s, api, drawn } = make();
  await ctl.start({ moves: ['a1a2', 'a1a3'] });
  assert.deepEqual(api.asked[0], { position: null, moves: ['a1a2', 'a1a3'] });
  assert.equal(s.cur, 2);
  assert.equal(s.P.position, 'start a1a2 a1a3');
  assert.equal(s.tree.nodes[2].display, 'A1A3');
  assert.ok(drawn.includes('all') && drawn.includes('review'));
  assert.deepEqual(drawn.filter((d) => d[0] === 'shown').at(-1), ['shown', 2]);
  assert.equal(ctl.linkQuery(), 'moves=a1a2%2Ca1a3');
  assert.equal(ctl.plyShown(), 2);
});

test('moves entered on the board grow the tree; a move from the middle is a variation', async () => {
  const { ctl, s } = make();
  await ctl.start({ ply: 0 });
  ctl.clickCell('a1');
  assert.deepEqual(s.sel, { from: 'a1', path: [] });
  assert.deepEqual(ctl.marks().targets, ['a2']);
  assert.deepEqual(ctl.marks().captureTargets, ['a3']);
  ctl.clickCell('a2');
  await settle();
  assert.equal(s.sel, null);
  const first = s.cur;
  ctl.clickCell('a1');
  ctl.clickCell('a3');
  await settle();
  assert.equal(s.tree.nodes[s.cur].parent, first);
  assert.equal(ctl.keyTarget('ArrowLeft').id, first);
  assert.equal(ctl.keyTarget('x'), null);
  await ctl.go(ctl.keyTarget('Home').id);
  ctl.clickCell('a1');
  ctl.clickCell('a3');
  await settle();
  assert.equal(s.tree.nodes[s.cur].parent, 0);
  assert.ok(!ctl.exportPGN(false).includes('undefined'));
  assert.equal(ctl.keyTarget('ArrowUp').id, first); // the main line's first move, above
});

test('two moves of one path ask which piece; the choice is played, cancel forgets the move', async () => {
  const { ctl, s } = make();
  await ctl.start();
  ctl.clickCell('b1');
  ctl.clickCell('b2');
  assert.deepEqual(s.promo.map((m) => m.move), ['b1b2q', 'b1b2r']);
  assert.deepEqual(ctl.shownPieces(), { a1: { piece: 'P' }, b2: { piece: 'P' } });
  ctl.cancelMove();
  assert.equal(s.promo, null);
  assert.equal(s.sel, null);
  ctl.clickCell('b1');
  ctl.clickCell('b2');
  ctl.pickPromotion(s.promo[1]);
  await settle();
  assert.equal(s.tree.nodes[s.cur].move, 'b1b2r');
});

test('the engine waits a moment, streams its lines, asks again when busy, stops on a move', async () => {
  const { ctl, s, api, timers } = make();
  await ctl.start();
  ctl.setEngine(true);
  assert.equal(api.analyses.length, 0); // the pause first
  timers.run();
  await settle();
  assert.equal(api.analyses.length, 1);
  const a = api.analyses[0];
  assert.deepEqual(a.req.moves, []);
  a.onLines([{ multipv: 1, pv: ['a1a3'], score: 30, depth: 5, win: 0.6 }], false);
  assert.equal(s.lines.length, 1);
  assert.equal(s.linesDone, false);
  assert.deepEqual(ctl.arrows(), [{ from: 'a1', to: 'a3', kind: 'best' }]);
  a.reject(Object.assign(new Error('busy'), { status: 503 }));
  await settle();
  timers.run(); // the retry's wait
  await settle();
  assert.equal(api.analyses.length, 2);
  ctl.clickCell('a1');
  ctl.clickCell('a2');
  await settle();
  assert.ok(api.analyses[1].signal.aborted);
  assert.deepEqual(s.lines, []);
  timers.run();
  await settle();
  assert.deepEqual(api.analyses[2].req.moves, ['a1a2']);
});

test('a position that does not read is said so; a record loads with its moves', async () => {
  const { ctl, s } = make();
  await ctl.start();
  await ctl.loadPosition('bad');
  assert.deepEqual(s.message, { key: 'an.position.bad', vars: { message: 'bad position' }, kind: 'error' });
  await ctl.loadRecord('a1a2 a1a3');
  assert.deepEqual(s.message, { key: 'an.import.ok', vars: { n: 2 }, kind: 'info' });
  assert.equal(s.cur, 2);
  await ctl.loadRecord('bad');
  assert.equal(s.message.key, 'an.import.bad');
});

test('a review is polled until done; learning from a mistake takes the better move', async () => {
  const { ctl, s, api, timers } = make();
  const plies = [
    { ply: 1, move: 'a1a2', display: 'A2', best: 'a1a3', best_display: 'Ax3', class: 'blunder' },
    { ply: 2, move: 'a1a2', display: 'A2', best: 'a1a2', best_display: 'A2', class: 'best' },
  ];
  let polls = 0;
  api.importReview = async () => ({ id: 'r1', status: 'running', done: 0, total: 2 });
  api.getImportedReview = async () => (++polls < 2 ? { status: 'running', done: 1, total: 2 } : { status: 'done', plies });
  await ctl.start();
  await ctl.reviewRecord('a1a2 a1a2');
  await settle();
  assert.equal(s.reviewState.done, 1);
  timers.run();
  await settle();
  assert.equal(s.review.plies.length, 2);
  assert.equal(timers.pending.size, 0); // the poll stopped
  ctl.startLearn('black');
  assert.equal(s.learn, null);
  assert.equal(s.message.key, 'learn.none');
  ctl.startLearn('white');
  await settle();
  assert.equal(s.cur, 0);
  ctl.clickCell('a1');
  ctl.clickCell('a2'); // the move played in the game: wrong
  assert.equal(s.learn.result, 'wrong');
  assert.equal(s.cur, 0);
  ctl.learnShow();
  assert.deepEqual(ctl.arrows(), [{ from: 'a1', to: 'a3', kind: 'best' }]);
  ctl.startLearn('white');
  await settle();
  ctl.clickCell('a1');
  ctl.clickCell('a3');
  await settle();
  assert.equal(s.learn.result, 'right');
  assert.equal(s.tree.nodes[s.cur].move, 'a1a3');
  ctl.learnStop();
  assert.equal(s.learn, null);
});

test('the editor takes the board: clicks place and remove pieces; the engine waits', async () => {
  const { ctl, s, api, timers } = make({ game: 'egara-guti' }); // a game with a palette
  await ctl.start();
  ctl.setEngine(true);
  ctl.openEditor();
  assert.equal(s.editing.letter, 'W');
  timers.run();
  await settle();
  assert.equal(api.analyses.length, 0);
  assert.deepEqual(ctl.legal(), []);
  s.editing.letter = 'Q';
  ctl.clickCell('c1');
  assert.deepEqual(s.editing.pieces.c1, { piece: 'Q', captured: false });
  ctl.clickCell('c1');
  assert.equal(s.editing.pieces.c1, undefined);
  ctl.closeEditor();
  assert.equal(s.editing, null);
  timers.run();
  await settle();
  assert.equal(api.analyses.length, 1);
});

test('an answer overtaken by a later step is not shown; nothing is drawn after dispose', async () => {
  const { ctl, s, api, drawn } = make();
  await ctl.start({ moves: ['a1a2'] });
  let release;
  const slow = new Promise((resolve) => { release = resolve; });
  const position = api.position;
  api.position = async (req) => { if (req.moves.length === 0) await slow; return position(req); };
  s.cache.clear();
  const first = ctl.go(0);
  await ctl.go(1);
  release();
  await first;
  assert.equal(s.cur, 1);
  assert.equal(s.P.position, 'start a1a2');
  ctl.dispose();
  const before = drawn.length;
  s.cache.clear();
  await ctl.go(0);
  assert.ok(!drawn.slice(before).includes('all'));
});

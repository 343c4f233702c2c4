// Moves told in words (web/js/board/narrate.js) from the server's last_move, in English and
// Bengali, and the sounds each move makes (web/js/board/sound.js), with the browser's
// pieces (fetch, document, localStorage, Web Audio) stood in for by small fakes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const store = new Map();
const heard = [];
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
globalThis.fetch = async (path) => ({ ok: true, json: async () => JSON.parse(readFileSync(join(web, path), 'utf8')) });
globalThis.document = { documentElement: {}, dispatchEvent: (e) => heard.push(e.detail) };
globalThis.CustomEvent = class { constructor(type, o) { this.type = type; this.detail = o.detail; } };
class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} }
class FakeNode { constructor() { this.gain = new FakeParam(); this.frequency = {}; } connect(n) { return n; } start() {} stop() {} }
globalThis.window = { AudioContext: class { constructor() { this.currentTime = 0; this.state = 'running'; this.destination = {}; } createOscillator() { return new FakeNode(); } createGain() { return new FakeNode(); } } };

const { setLanguage } = await import('../../web/js/common/i18n.js');
const { narrate, moveTitle, tellLast } = await import('../../web/js/board/narrate.js');
const { soundOfMove } = await import('../../web/js/board/sound.js');

const move = (o) => ({ ply: 1, side: 'black', from: '', to: '', path: [], captured: [], taken: [], flags: [], ...o });

test('a capture, a chain, a return, a promotion and check in words', async () => {
  await setLanguage('en');
  assert.equal(narrate('egara-guti', move({ display: 'd5xd3', from: 'd5', to: 'd3', path: ['d3'], captured: ['d4'], taken: ['W'], flags: ['capture'] }), 'white'),
    'The computer played d5xd3. It took your piece on d4.');
  assert.equal(narrate('egara-guti', move({ display: 'e5xc3xa1', path: ['c3', 'a1'], captured: ['d4', 'b2'], taken: ['W', 'W'], flags: ['capture', 'chain'] }), 'white'),
    'The computer played e5xc3xa1. A chain of 2 jumps took 2 of your pieces (d4, b2).');
  assert.equal(narrate('agon', move({ display: 'f2@a1', from: 'f2', to: 'a1', path: ['a1'], piece: 'g', flags: ['return'] }), 'white'),
    'The computer played f2@a1. It brought its captured guard back, to a1.');
  assert.equal(narrate('agon', move({ display: 'i4-h4', captured: ['h5'], taken: ['G'], flags: ['capture'] }), 'white'),
    'The computer played i4-h4. It took your guard on h5.');
  assert.equal(narrate('chess', move({ display: 'exd8=Q+', side: 'white', captured: ['d8'], taken: ['r'], promotion: 'q', flags: ['capture', 'promotion', 'check'] }), 'black'),
    'The computer played exd8=Q+. It took your rook on d8. The pawn became a queen. Your king is in check.');
  assert.equal(narrate('chess', move({ display: 'Qh5', side: 'white' }), 'white'), 'You played Qh5.');
  await setLanguage('bn');
  assert.equal(narrate('egara-guti', move({ display: 'e5xc3xa1', path: ['c3', 'a1'], captured: ['d4', 'b2'], taken: ['W', 'W'], flags: ['capture', 'chain'] }), 'white'),
    'কম্পিউটার চাল দিয়েছে: e5xc3xa1। ২টি লাফের এক শৃঙ্খলে আপনার ২টি ঘুঁটি গেল (d4, b2)।');
});

test('between people: the opponent played it, or to a spectator White or Black', async () => {
  await setLanguage('en');
  const last_move = move({ ply: 1, display: 'e4', side: 'white' });
  const S = { game: 'chess', people: true, you: 'black', human_side: 'black', moves: [{ display: 'e4' }], last_move };
  assert.equal(tellLast(S), 'Your opponent played e4.');
  assert.equal(tellLast({ ...S, you: null, human_side: 'white' }), 'White played e4.');
  assert.equal(tellLast({ ...S, people: undefined, you: undefined }), 'The computer played e4.');
  await setLanguage('fi');
  assert.equal(tellLast(S), 'Vastustajasi pelasi e4.');
});

test('titles read the notation sign by sign', async () => {
  await setLanguage('en');
  assert.equal(moveTitle('chess', { display: 'Nxe5+' }), 'knight takes on e5, with check');
  assert.equal(moveTitle('chess', { display: 'O-O-O' }), "castles on the queen's side");
  assert.equal(moveTitle('chess', { display: 'e8=Q#' }), 'pawn to e8, promotes to a queen, checkmate');
  assert.equal(moveTitle('agon', { display: 'b7@l6' }), 'the captured piece on b7 returns to l6');
  assert.equal(moveTitle('egara-guti', { display: 'b7xb2xf2' }), 'a chain of 2 jumps from b7 to f2');
  assert.equal(moveTitle('egara-guti', { display: 'c3-d4' }), 'a step from c3 to d4');
});

test('each move its sound, the end its own, none when switched off', () => {
  heard.length = 0;
  soundOfMove(move({ flags: [] }), false);
  soundOfMove(move({ flags: ['capture'], taken: ['W'] }), false);
  soundOfMove(move({ flags: ['capture', 'check'] }), false);
  soundOfMove(move({}), true);
  assert.deepEqual(heard, ['move', 'capture', 'check', 'end']);
  localStorage.setItem('agora.sound', 'off');
  soundOfMove(move({}), false);
  assert.equal(heard.length, 4);
});

// Sounds made in the browser (Web Audio oscillators, no files): a move, a capture,
// check, the end of a game, and low time on a clock (lowTime(), for the clocks to
// call).  On by default; the switch is remembered.  Each sound played is also told to
// the page as an `agora:sound` event (detail: its kind).
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { choice, saveChoice } from '../local/storage.js';

// Each sound: notes of [frequency Hz, start s, length s, wave].
const SOUNDS = {
  move: [[520, 0, 0.07, 'triangle']],
  capture: [[300, 0, 0.09, 'square'], [200, 0.06, 0.12, 'square']],
  check: [[660, 0, 0.1, 'sine'], [880, 0.11, 0.14, 'sine']],
  end: [[523, 0, 0.16, 'sine'], [659, 0.16, 0.16, 'sine'], [784, 0.32, 0.32, 'sine']],
  lowtime: [[1000, 0, 0.05, 'sine'], [1000, 0.14, 0.05, 'sine']],
  // A new game starts for the player (a tournament pairs them): two rising notes.
  start: [[440, 0, 0.12, 'triangle'], [660, 0.12, 0.18, 'triangle']],
  notice: [[784, 0, 0.09, 'sine'], [1047, 0.1, 0.16, 'sine']],
};
let ctx = null;

export function soundOn() {
  return choice('sound') !== 'off';
}

export function soundToggle() {
  return h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'sounds', checked: soundOn(), onchange: (e) => {
    saveChoice('sound', e.target.checked ? 'on' : 'off');
  } }), ' ', t('play.sounds'));
}

function audio() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

/**
 * Plays sound `kind` (move, capture, check, end, lowtime, start, notice) unless sounds
 * are off.
 */
export function playSound(kind) {
  const notes = SOUNDS[kind];
  if (!notes || !soundOn()) return false;
  const ac = audio();
  if (!ac) return false;
  const t0 = ac.currentTime + 0.01;
  for (const [freq, start, len, wave] of notes) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(0.18, t0 + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + len);
    osc.connect(gain).connect(ac.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + len + 0.02);
  }
  document.dispatchEvent(new CustomEvent('agora:sound', { detail: kind }));
  return true;
}

/** The sound of a move as the server describes it (`last_move`), or of the game's end. */
export function soundOfMove(m, over) {
  if (over) return playSound('end');
  const flags = (m && m.flags) || [];
  if (flags.includes('check')) return playSound('check');
  if (flags.includes('capture') || (m && m.taken && m.taken.length)) return playSound('capture');
  return playSound('move');
}

/** For a clock: the player's time is running low. */
export function lowTime() {
  return playSound('lowtime');
}

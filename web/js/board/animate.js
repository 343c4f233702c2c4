// The computer's move shown moving: the piece slides from its cell along the move's
// path (each jump of a chain in turn, a castle's rook too), a returned piece grows on
// its new cell, and the pieces it took fade out where they stood.  From the server's `last_move` and the board's cell centres only.
// Off when the visitor turns it off (remembered) or asks the system for reduced motion.
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { choice, saveChoice } from '../local/storage.js';

const STEP_MS = 220;

export function motionWanted() {
  return choice('motion') !== 'off';
}

export function motionOn() {
  const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  return motionWanted() && !reduced;
}

/** The play page's switch. */
export function motionToggle() {
  return h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'animate-moves', checked: motionWanted(), onchange: (e) => {
    saveChoice('motion', e.target.checked ? 'on' : 'off');
  } }), ' ', t('play.animate'));
}

function slide(node, points, end) {
  const frames = points.map((p) => ({ transform: `translate(${p.x - end.x}px, ${p.y - end.y}px)` }));
  frames.push({ transform: 'translate(0px, 0px)' });
  return node.animate(frames, { duration: STEP_MS * (frames.length - 1), easing: 'ease-in-out' });
}

/** Animates move `m` on the board just drawn (`handle` from drawBoard): returns the
 *  animations started (none when motion is off). */
export function animateMove(handle, m) {
  if (!m || !handle || !motionOn() || typeof Element.prototype.animate !== 'function') return [];
  const at = (cell) => handle.svg.querySelector(`.piece[data-at="${CSS.escape(cell)}"]`);
  const out = [];
  const node = at(m.to);
  if (!node) return out;
  if ((m.flags || []).includes('return')) {
    node.classList.add('arriving');
    out.push(node.animate([{ opacity: 0, transform: 'scale(0.2)' }, { opacity: 1, transform: 'scale(1)' }], { duration: 2 * STEP_MS, easing: 'ease-out' }));
    return out;
  }
  const end = handle.point(m.to);
  const points = [m.from, ...m.path.slice(0, -1)].map((c) => handle.point(c)).filter(Boolean);
  if (end && points.length) out.push(slide(node, points, end));
  if (m.also_from && m.also_to && at(m.also_to)) out.push(slide(at(m.also_to), [handle.point(m.also_from)], handle.point(m.also_to)));
  out.push(...fadeCaptured(handle, m, at));
  return out;
}

// The pieces the move took fade out where they stood (one jump of a chain after the
// other), instead of vanishing when the board is drawn.  A cell that still holds a
// piece (an Agon capture stays marked on its cell) is left alone; the mover's own
// destination (a chess capture) fades under the arriving piece.
function fadeCaptured(handle, m, at) {
  if (typeof handle.ghost !== 'function') return [];
  const cells = m.captured || [];
  const letters = m.taken || [];
  const byJump = cells.length > 1 && cells.length === m.path.length;
  const out = [];
  cells.forEach((cell, i) => {
    const letter = letters[i];
    if (!letter || (cell !== m.to && at(cell))) return;
    const ghost = handle.ghost(cell, letter);
    if (!ghost) return;
    const a = ghost.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 1.5 * STEP_MS, delay: byJump ? i * STEP_MS : 0, easing: 'ease-in', fill: 'both' });
    a.onfinish = () => ghost.remove();
    a.oncancel = () => ghost.remove();
    out.push(a);
  });
  return out;
}

// The board of the lessons and the trainers: web/js/board/board.js drawn from a server
// position, a piece picked by a click (or the keyboard: arrows move among cells, Enter
// or Space picks), then one of the destinations the server's legal moves name; when
// several legal moves share a start and a destination (a promotion, two capture
// chains) their display texts are offered as buttons.  Stars and goals are drawn over
// the cells.  No rules here: the moves are the server's.
import { t } from '../common/i18n.js';
import { drawBoard, boardKeys } from '../board/board.js';
import { cellLabel } from '../board/cells.js';
import { piecesOf } from '../net/api.js';
import { h } from '../common/dom.js';
import { remaining } from './lesson-core.js';

const SVG = 'http://www.w3.org/2000/svg';
const memory = new WeakMap(); // host -> {state, selected, focus}

/** The stage's cells to mark: stars still to collect, pieces still to capture. */
export function starMarks(stage, run) {
  const left = remaining(stage, run);
  return stage.goal.kind === 'reach' ? { star: left } : stage.goal.kind === 'capture' ? { goal: left } : {};
}

/** Draws a five-pointed star over each named cell of a drawn board. */
export function drawStars(handle, cells) {
  for (const name of cells) {
    const p = handle.point(name);
    if (!p) continue;
    const pts = [];
    for (let k = 0; k < 10; k++) {
      const r = k % 2 ? 9 : 22;
      const a = (Math.PI / 5) * k - Math.PI / 2;
      pts.push(`${(p.x + r * Math.cos(a)).toFixed(1)},${(p.y + r * Math.sin(a)).toFixed(1)}`);
    }
    const star = document.createElementNS(SVG, 'polygon');
    star.setAttribute('points', pts.join(' '));
    star.setAttribute('class', 'star-mark');
    star.setAttribute('data-star', name);
    handle.svg.appendChild(star);
  }
}

/** Offers a choice among moves (buttons with their display texts) in `host`. */
export function chooseAmong(host, moves, done) {
  if (moves.length === 1) {
    host.replaceChildren();
    return done(moves[0]);
  }
  host.replaceChildren(h('p', {}, t('learn.choose')), ...moves.map((m) => h('button', { type: 'button', class: 'choice', onclick: () => { host.replaceChildren(); done(m); } }, m.display)));
  host.querySelector('button').focus();
}

/** pickMove(host, moves, done): the choice shown next to a lesson's board. */
export function pickMove(boardHost, moves, done) {
  const box = boardHost.parentNode.querySelector('#lesson-choice') || boardHost;
  chooseAmong(box, moves, done);
}

/**
 * Draws `state` (a POST /api/positions answer) in `host`, playable when `enabled`:
 * onMove(moves) gets the legal moves from the picked cell to the picked destination.
 */
export function playBoard(host, { game, layout, state, flipped = false, enabled = true, extra = {}, title = '', onMove }) {
  let mem = memory.get(host);
  if (!mem || mem.state !== state) mem = { state, selected: null, focus: mem?.focus || null };
  memory.set(host, mem);
  const legal = enabled ? state.legal_moves || [] : [];
  const pieces = piecesOf(layout, state.board, state.captured_pieces);
  const last = state.moves.length ? state.moves[state.moves.length - 1] : null;
  const lastLegal = last ? cellsOf(last.move, layout) : [];
  const from = mem.selected;
  const here = from ? legal.filter((m) => m.from === from) : [];
  const mk = {
    last: lastLegal,
    selected: from ? [from] : [],
    targets: here.filter((m) => !(m.captured || []).length).map((m) => m.to),
    captureTargets: here.filter((m) => (m.captured || []).length).map((m) => m.to),
    allowed: [],
    movable: from ? [] : [...new Set(legal.map((m) => m.from))],
    ...extra,
  };
  const stars = mk.star || [];
  const handle = drawBoard(host, layout, pieces, {
    game, flipped, names: true, marks: mk, interactive: true, title,
    label: (name, piece) => cellLabel(game, layout, name, piece, mk) + (stars.includes(name) ? ', ' + t('learn.star') : '') + ((mk.goal || []).includes(name) ? ', ' + t('learn.target') : '') + ((mk.hint || []).includes(name) ? ', ' + t('drill.hintcell') : ''),
  });
  drawStars(handle, stars);
  if (enabled) handle.svg.classList.add('my-turn');
  const focusName = mem.focus && handle.cellNode(mem.focus) ? mem.focus : from || mk.movable[0] || handle.names[0];
  const node = handle.cellNode(focusName);
  if (node) node.setAttribute('tabindex', '0');

  function pick(name) {
    if (!enabled) return;
    mem.focus = name;
    if (from && name !== from) {
      const moves = here.filter((m) => m.to === name);
      if (moves.length) {
        mem.selected = null;
        return onMove(moves);
      }
    }
    mem.selected = name !== from && legal.some((m) => m.from === name) ? name : null;
    redraw();
  }
  function redraw() {
    playBoard(host, { game, layout, state, flipped, enabled, extra, title, onMove });
    host.querySelector(`[data-cell="${CSS.escape(mem.focus || '')}"]`)?.focus();
  }
  handle.svg.addEventListener('click', (e) => {
    const cell = e.target.closest('[data-cell]');
    if (cell) pick(cell.dataset.cell);
  });
  boardKeys(handle.svg, { handle: () => handle, activate: pick, focused: (cell) => { mem.focus = cell; } });
  return handle;
}

/** The cells a move text names, in order (the layout's names found in it). */
export function cellsOf(text, layout) {
  const names = new Set(layout.cells.map((c) => c.name));
  return (String(text).match(/[a-z][0-9]+/g) || []).filter((c) => names.has(c));
}

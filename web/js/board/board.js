// The one board renderer: draws any game's board as SVG from the server's data.
//
//   board  = {shape: "square"|"hex"|"graph", cells: [{name, x, y, ring, flags}], edges}
//   pieces = {"e4": {piece: "P", captured: false}, ...}   (letters of the position text)
//
// It knows no rules: where a piece may go, what is captured, whose turn it is all come
// from the caller as lists of cell names (marks).  Coordinates are the layout's own,
// y growing upwards; `flipped` turns the picture half round (the black side's view).

import { namesOn } from './names.js';

const SVG = 'http://www.w3.org/2000/svg';
const S = 60; // screen units per layout unit

// Chess letters drawn as the filled Unicode figures, coloured by side.
const CHESS_GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function hexPoints(cx, cy, pointy) {
  const r = S / Math.sqrt(3); // circumradius of a cell one unit wide across its flats
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = ((pointy ? 30 : 0) + 60 * k) * (Math.PI / 180);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
}

// The geometry of a hex layout from its data alone: the distance between neighbouring
// centres (the unit the picture is scaled to), and whether the cells are pointy
// (neighbours level with each other, in horizontal rows) or flat-topped.
function hexGeometry(cells) {
  let best = Infinity;
  let level = false;
  for (let i = 0; i < cells.length; i++)
    for (let j = i + 1; j < cells.length; j++) {
      const dx = cells[i].x - cells[j].x;
      const dy = cells[i].y - cells[j].y;
      const d = Math.hypot(dx, dy);
      if (d < best - 1e-3) {
        best = d;
        level = Math.abs(dy) < 1e-3;
      } else if (Math.abs(d - best) < 1e-3 && Math.abs(dy) < 1e-3) level = true;
    }
  return { pointy: level, unit: Number.isFinite(best) && best > 0 ? best : 1 };
}

// Piece letters are those of each game's position text: upper case is White, except
// in Egara-guti, whose text writes W and B.
const LETTER_SIDE = { 'egara-guti': { W: 'white', B: 'black' } };

/** Which side a piece letter belongs to. */
export function pieceSide(letter, game = '') {
  const table = LETTER_SIDE[game];
  if (table && table[letter]) return table[letter];
  return letter === letter.toUpperCase() ? 'white' : 'black';
}

/**
 * Draws the board into `host` (replacing what was there) and returns a handle:
 *   {svg, cellNode(name), point(name) -> {x, y} in svg units}
 * options:
 *   game      "chess" | "agon" | "egara-guti" (only picks piece figures)
 *   flipped   view from the top side
 *   labels    write each cell's name in it
 *   names     write the names, shown or hidden by the visitor's switch (names.js:
 *             by default on boards without coordinates on their edges)
 *   marks     {last: [], selected: [], targets: [], captureTargets: [], movable: [],
 *              allowed: [], path: [], capturing: [], check: []}   (cell names)
 *   label(cellName, piece) -> text for screen readers
 *   title     accessible name of the whole board
 *   interactive  cells are focusable buttons with spoken labels (the play page);
 *             otherwise the board is one picture (role img) named by title
 *   arrows    [{from, to, kind}] arrows drawn over the board between cell centres
 *             (the engine's best move: kind "best", others "line")
 */
export function drawBoard(host, board, pieces, options = {}) {
  const { flipped = false, marks = {}, game = '' } = options;
  const labels = !!options.labels || !!options.names;
  const shape = board.shape;
  // Hex layouts are scaled so that neighbouring centres lie one unit apart.
  const geo = shape === 'hex' ? hexGeometry(board.cells) : { pointy: false, unit: 1 };
  const pointy = geo.pointy;
  const k = (flipped ? -1 : 1) / geo.unit;
  const pos = new Map();
  for (const c of board.cells) pos.set(c.name, { x: k * c.x * S, y: -k * c.y * S, cell: c });

  const pad = shape === 'square' ? S / 2 : shape === 'hex' ? S * 0.62 : S * 0.5;
  const xs = [...pos.values()].map((p) => p.x);
  const ys = [...pos.values()].map((p) => p.y);
  const minX = Math.min(...xs) - pad, maxX = Math.max(...xs) + pad;
  const minY = Math.min(...ys) - pad, maxY = Math.max(...ys) + pad;
  const m = shape === 'square' ? 18 : 6; // the square board's frame carries its coordinates

  const svg = el('svg', {
    viewBox: `${minX - m} ${minY - m} ${maxX - minX + 2 * m} ${maxY - minY + 2 * m}`,
    class: `board board-${shape}` + (options.labels || (options.names && namesOn(shape)) ? ' with-labels' : ''),
    role: options.interactive ? 'group' : 'img',
    'aria-label': options.title || '',
  });
  if (options.names) svg.dataset.names = shape;
  const sets = {};
  for (const [k, v] of Object.entries(marks)) sets[k] = new Set(v || []);
  const has = (k, name) => sets[k] && sets[k].has(name);

  // Frame behind the cells; on a square board it carries the file letters along the
  // bottom and the rank numbers up the left side, read from the cell names.
  if (shape === 'square') {
    el('rect', { x: minX - m, y: minY - m, width: maxX - minX + 2 * m, height: maxY - minY + 2 * m, rx: 6, class: 'frame' }, svg);
    const bottom = Math.max(...ys), left = Math.min(...xs);
    for (const [name, p] of pos) {
      if (Math.abs(p.y - bottom) < 1)
        el('text', { x: p.x, y: maxY + m * 0.72, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, svg).textContent = name.replace(/[0-9]+$/, '');
      if (Math.abs(p.x - left) < 1)
        el('text', { x: minX - m / 2, y: p.y + 4, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, svg).textContent = name.replace(/^[a-z]+/, '');
    }
  }
  if (shape === 'graph') {
    const lines = el('g', { class: 'edges' }, svg);
    for (const [i, j] of board.edges || []) {
      const a = pos.get(board.cells[i].name), b = pos.get(board.cells[j].name);
      el('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, lines);
    }
  }

  const cellsG = el('g', { class: 'cells' }, svg);
  const piecesG = el('g', { class: 'pieces' }, svg);
  const namesG = el('g', { class: 'names', 'aria-hidden': 'true' }, svg);
  const overlayG = el('g', { class: 'overlay' }, svg);
  const nodes = new Map();

  for (const c of board.cells) {
    const p = pos.get(c.name);
    const g = el('g', options.interactive ? { class: 'cell', 'data-cell': c.name, role: 'button', tabindex: '-1' } : { class: 'cell', 'data-cell': c.name }, cellsG);
    const classes = ['cell'];
    if (c.flags.includes('dark')) classes.push('dark');
    if (c.flags.includes('throne')) classes.push('throne');
    if (c.flags.includes('centre')) classes.push('centre');
    if (shape === 'hex') classes.push('ring' + c.ring);
    for (const k of Object.keys(sets)) if (has(k, c.name)) classes.push('m-' + k);
    g.setAttribute('class', classes.join(' '));
    let shapeNode;
    if (shape === 'square') shapeNode = el('rect', { x: p.x - S / 2, y: p.y - S / 2, width: S, height: S, class: 'bg' }, g);
    else if (shape === 'hex') shapeNode = el('polygon', { points: hexPoints(p.x, p.y, pointy), class: 'bg' }, g);
    else {
      el('circle', { cx: p.x, cy: p.y, r: S * 0.46, class: 'hit' }, g);
      shapeNode = el('circle', { cx: p.x, cy: p.y, r: c.flags.includes('centre') ? S * 0.16 : S * 0.11, class: 'bg' }, g);
    }
    shapeNode.setAttribute('data-shape', '1');
    if (c.flags.includes('throne')) drawCrown(g, p.x, p.y, S * 0.22, 'throne-mark');
    if (labels) {
      // In a corner the piece leaves free: a square's top left, a hex cell's lowest
      // point, below and right of a graph's point.
      const off = shape === 'square' ? [-S * 0.46, -S * 0.32] : shape === 'hex' ? [0, S * 0.5] : [S * 0.3, S * 0.44];
      el('text', { x: p.x + off[0], y: p.y + off[1], class: 'cell-name' + (c.flags.includes('dark') ? ' on-dark' : ''), 'text-anchor': shape === 'square' ? 'start' : 'middle' }, namesG)
        .textContent = c.name;
    }
    // Markers for destinations sit above the pieces so a capture ring shows round them.
    if (has('targets', c.name) || has('captureTargets', c.name) || has('allowed', c.name)) {
      const cls = has('captureTargets', c.name) ? 'dest dest-capture' : has('allowed', c.name) ? 'dest dest-allowed' : 'dest';
      if (has('captureTargets', c.name)) el('circle', { cx: p.x, cy: p.y, r: S * 0.42, class: cls }, overlayG);
      else el('circle', { cx: p.x, cy: p.y, r: S * 0.15, class: cls }, overlayG);
    }
    const piece = pieces[c.name];
    if (piece && piece.piece) drawPiece(piecesG, game, piece, p.x, p.y, shape, c.name, has('capturing', c.name));
    if (options.interactive) {
      g.setAttribute('aria-label', options.label ? options.label(c.name, piece) : c.name);
      g.setAttribute('aria-pressed', has('selected', c.name) ? 'true' : 'false');
    }
    nodes.set(c.name, g);
  }

  if (options.arrows && options.arrows.length) drawArrows(svg, options.arrows, pos, shape);

  host.replaceChildren(svg);
  return {
    svg,
    cellNode: (name) => nodes.get(name),
    point: (name) => pos.get(name),
    names: board.cells.map((c) => c.name),
    // A piece drawn on cell `name` for a moment (the animation's fading capture): under
    // the pieces, without data-at (it is not on the board), hidden from screen readers.
    ghost: (name, letter) => {
      const p = pos.get(name);
      if (!p) return null;
      const g = drawPiece(piecesG, game, { piece: letter }, p.x, p.y, shape, null, false);
      g.removeAttribute('data-at');
      g.classList.add('ghost');
      g.dataset.ghost = name;
      g.setAttribute('aria-hidden', 'true');
      piecesG.prepend(g);
      return g;
    },
  };
}

let arrowIds = 0;

// Arrows over every kind of board: a shaft from one cell's centre towards another's,
// stopping short of it, with a head; the graph board's points are closer, so thinner.
function drawArrows(svg, arrows, pos, shape) {
  const id = `arrowhead-${++arrowIds}`;
  const defs = el('defs', {}, svg);
  for (const kind of ['best', 'line']) {
    const marker = el('marker', { id: `${id}-${kind}`, viewBox: '0 0 10 10', refX: '4', refY: '5', markerWidth: '2.4', markerHeight: '2.4', orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0L10,5L0,10z', class: `arrow-head arrow-head-${kind}` }, marker);
  }
  const g = el('g', { class: 'arrows', 'aria-hidden': 'true' }, svg);
  const width = shape === 'graph' ? S * 0.13 : S * 0.17;
  for (const a of arrows) {
    const p = pos.get(a.from), q = pos.get(a.to);
    if (!p || !q || a.from === a.to) continue;
    const dx = q.x - p.x, dy = q.y - p.y, d = Math.hypot(dx, dy);
    const stop = Math.min(S * 0.3, d / 3);
    const x2 = q.x - (dx / d) * stop, y2 = q.y - (dy / d) * stop;
    el('line', { x1: p.x, y1: p.y, x2: x2.toFixed(2), y2: y2.toFixed(2), class: `arrow arrow-${a.kind || 'best'}`, 'stroke-width': width, 'marker-end': `url(#${id}-${a.kind === 'line' ? 'line' : 'best'})`, 'data-from': a.from, 'data-to': a.to }, g);
  }
}

function drawCrown(parent, cx, cy, r, cls) {
  // A five-pointed crown outline: used for the throne and the Agon queen.
  const pts = [
    [-1, 0.55], [-1, -0.35], [-0.5, 0.1], [0, -0.6], [0.5, 0.1], [1, -0.35], [1, 0.55],
  ].map(([x, y]) => `${(cx + x * r).toFixed(2)},${(cy + y * r).toFixed(2)}`);
  return el('polygon', { points: pts.join(' '), class: cls }, parent);
}

function drawPiece(parent, game, piece, x, y, shape, name, capturing) {
  const letter = piece.piece;
  const side = pieceSide(letter, game);
  const g = el('g', { class: `piece ${side}` + (piece.captured ? ' captured' : '') + (capturing ? ' capturing' : ''), 'data-piece': letter, 'data-at': name }, parent);
  const r = shape === 'graph' ? S * 0.3 : S * 0.38;
  if (game === 'chess') {
    el('text', { x, y: y + S * 0.02, class: 'glyph', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g)
      .textContent = CHESS_GLYPH[letter.toLowerCase()] || letter;
  } else {
    el('circle', { cx: x, cy: y, r, class: 'stone' }, g);
    el('circle', { cx: x, cy: y, r: r * 0.72, class: 'stone-inner' }, g);
    if (letter.toLowerCase() === 'q') drawCrown(g, x, y + r * 0.05, r * 0.55, 'crown');
  }
  if (piece.captured || capturing) {
    const d = r * 0.62;
    el('path', { d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`, class: 'x-mark' }, g);
  }
  return g;
}

/** Keyboard play on a board, the same on every page: Enter or Space on a cell calls
 *  activate(name), Escape calls cancel() (when given), and the arrows move the focus
 *  (one cell with tabindex 0) to the cell in that direction, telling focused(name).
 *  `target` is the element the keys are listened on; handle() the board drawn now;
 *  stop: keys on the board go no further (a page with keys of its own). */
export function boardKeys(target, { handle, activate, cancel, focused, stop = false }) {
  target.addEventListener('keydown', (e) => {
    const g = e.target.closest && e.target.closest('[data-cell]');
    if (!g) return;
    if (stop) e.stopPropagation();
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      activate(g.dataset.cell);
      return;
    }
    if (e.key === 'Escape') {
      if (cancel) cancel();
      return;
    }
    const board = handle();
    const to = neighbourInDirection(board, g.dataset.cell, e.key);
    if (!to) return;
    e.preventDefault();
    g.setAttribute('tabindex', '-1');
    focused(to);
    const node = board.cellNode(to);
    node.setAttribute('tabindex', '0');
    node.focus();
  });
}

/** Moves keyboard focus among cells with the arrow keys: the nearest cell that lies
 *  in the pressed direction on screen.  Returns the name to focus, or null. */
export function neighbourInDirection(handle, from, key) {
  const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  if (!dir) return null;
  const a = handle.point(from);
  let best = null, bestScore = Infinity;
  for (const name of handle.names) {
    if (name === from) continue;
    const b = handle.point(name);
    const dx = b.x - a.x, dy = b.y - a.y;
    const along = dx * dir[0] + dy * dir[1];
    if (along < S * 0.3) continue;
    const across = Math.abs(dx * dir[1] - dy * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = name; }
  }
  return best;
}

// Game review (API.md "Analysis"): the graph of the win chance over a game, the marks
// of each move, accuracy per side, and the list of a side's mistakes to learn from.
// The review's numbers are the server's; this only draws them.
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const svgEl = (name, attrs = {}, parent = null) => {
  const n = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (parent) parent.appendChild(n);
  return n;
};

export const CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
export const SYMBOL = { best: '!', good: '', inaccuracy: '?!', mistake: '?', blunder: '??' };
export const isError = (c) => c === 'inaccuracy' || c === 'mistake' || c === 'blunder';

/** The mover of ply `ply` (1-based) when the game began with `blackFirst`. */
export const moverOf = (ply, blackFirst) => ((ply - 1 + (blackFirst ? 1 : 0)) % 2 === 0 ? 'white' : 'black');

/** White's win chance before the first ply and after each ply: [w0, w1, ...]. */
export function whiteCurve(review, blackFirst) {
  const plies = review.plies || [];
  if (!plies.length) return [];
  const white = (p, w) => (moverOf(p.ply, blackFirst) === 'white' ? w : 1 - w);
  return [white(plies[0], plies[0].win_before), ...plies.map((p) => white(p, p.win_after))];
}

/**
 * The graph: White's win chance over the game (SVG), each ply a focusable point;
 * onPick(ply) when one is clicked or chosen with Enter.  `current` marks a ply.
 */
export function drawGraph(host, review, blackFirst, current, onPick) {
  const curve = whiteCurve(review, blackFirst);
  const W = 300, H = 110, n = Math.max(curve.length - 1, 1);
  const X = (i) => (i / n) * W, Y = (w) => H - w * H;
  const svg = svgEl('svg', { viewBox: `-4 -4 ${W + 8} ${H + 8}`, class: 'graph', role: 'group', 'aria-label': t('review.graph') });
  svgEl('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }, svg);
  svgEl('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }, svg);
  if (curve.length) {
    const pts = curve.map((w, i) => `${X(i).toFixed(1)},${Y(w).toFixed(1)}`);
    svgEl('polygon', { points: `0,${H} ${pts.join(' ')} ${W},${H}`, class: 'graph-white' }, svg);
    svgEl('polyline', { points: pts.join(' '), class: 'graph-line' }, svg);
  }
  (review.plies || []).forEach((p) => {
    const i = p.ply;
    if (i >= curve.length) return;
    const cls = p.class || 'good';
    const g = svgEl('g', { class: `graph-point c-${cls}` + (i === current ? ' current' : ''), role: 'button', tabindex: '0', 'data-ply': i,
      'aria-label': t('review.point', { ply: num(i), move: p.display, mark: t('class.' + cls), win: num(Math.round(curve[i] * 100)) }) }, svg);
    svgEl('rect', { x: X(i) - W / n / 2, y: 0, width: W / n, height: H, class: 'graph-hit' }, g);
    svgEl('circle', { cx: X(i), cy: Y(curve[i]), r: isError(cls) ? 5 : 3 }, g);
    g.addEventListener('click', () => onPick(i));
    g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onPick(i); } });
  });
  host.replaceChildren(svg);
  return svg;
}

/** The review's summary: accuracy of each side, how many marks of each kind, and the
 *  thresholds by which moves are marked. */
export function summary(review, blackFirst) {
  const count = (side, cls) => (review.plies || []).filter((p) => p.class === cls && moverOf(p.ply, blackFirst) === side).length;
  const th = review.thresholds || {};
  return h('div', { class: 'review-summary' },
    h('table', { class: 'accuracy' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('side.white')), h('th', { scope: 'col' }, t('side.black')))),
      h('tbody', {},
        h('tr', { class: 'acc-row' }, h('th', { scope: 'row' }, t('review.accuracy')),
          ...['white', 'black'].map((s) => h('td', { id: `accuracy-${s}` }, review.accuracy && review.accuracy[s] != null ? num(Number(review.accuracy[s]).toFixed(1)) + '%' : '—'))),
        ...CLASSES.filter((c) => c !== 'good').map((c) => h('tr', {}, h('th', { scope: 'row' }, h('span', { class: `mark c-${c}` }, SYMBOL[c]), ' ', t('class.' + c)),
          ...['white', 'black'].map((s) => h('td', {}, num(count(s, c)))))))),
    h('p', { class: 'thresholds muted', id: 'thresholds' }, t('review.thresholds', {
      inaccuracy: num(th.inaccuracy ?? 10), mistake: num(th.mistake ?? 20), blunder: num(th.blunder ?? 30) })));
}

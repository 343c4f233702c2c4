// A player's rating history as an SVG graph: one line a game and rating class, the
// ratings on the vertical axis, the games in order on the horizontal one.  The model
// (graphModel) knows no DOM, so it is tested alone (tests/web-unit/rating-graph.test.mjs);
// the drawing gives the graph a title and a text alternative (a sentence a line, read
// by screen readers in place of the picture).
const SVG = 'http://www.w3.org/2000/svg';

/** The history's points ({game, class, rating, at}, oldest first) as series, one a game
 *  and class in the order they first appear, each {key, game, klass, points: [{x, y,
 *  rating, at}], first, last, high, low}, scaled into width x height (a margin `pad`
 *  inside), with the axis's bounds {min, max} (rounded out to 50s). */
export function graphModel(history, width = 600, height = 240, pad = 36) {
  const series = new Map();
  history.forEach((p, i) => {
    const key = `${p.game}/${p.class}`;
    if (!series.has(key)) series.set(key, { key, game: p.game, klass: p.class, raw: [] });
    series.get(key).raw.push({ i, rating: p.rating, at: p.at });
  });
  const ratings = history.map((p) => p.rating);
  const min = ratings.length ? Math.floor((Math.min(...ratings) - 1) / 50) * 50 : 1450;
  const max = ratings.length ? Math.ceil((Math.max(...ratings) + 1) / 50) * 50 : 1550;
  const n = Math.max(history.length - 1, 1);
  const x = (i) => pad + ((width - 2 * pad) * i) / n;
  const y = (r) => height - pad - ((height - 2 * pad) * (r - min)) / (max - min);
  const out = [...series.values()].map((s) => ({
    key: s.key,
    game: s.game,
    klass: s.klass,
    points: s.raw.map((p) => ({ x: Math.round(x(p.i) * 10) / 10, y: Math.round(y(p.rating) * 10) / 10, rating: p.rating, at: p.at })),
    first: s.raw[0].rating,
    last: s.raw[s.raw.length - 1].rating,
    high: Math.max(...s.raw.map((p) => p.rating)),
    low: Math.min(...s.raw.map((p) => p.rating)),
  }));
  return { series: out, min, max, width, height, pad };
}

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The graph (an <svg role="img">) of `history`; `label(series)` names a line,
 *  `describe(series)` says it in words, `num` writes a number in the page's digits, and
 *  `title` names the graph.  The sentences are the graph's description. */
export function ratingGraph(history, { title, label, describe, num, id = 'rating-graph' }) {
  const m = graphModel(history);
  const svg = el('svg', { viewBox: `0 0 ${m.width} ${m.height}`, role: 'img', class: 'rating-graph', id, 'aria-labelledby': `${id}-title ${id}-desc` });
  svg.append(el('title', { id: `${id}-title` }, title));
  svg.append(el('desc', { id: `${id}-desc` }, m.series.map(describe).join(' ')));
  const axis = el('g', { class: 'axis', 'aria-hidden': 'true' });
  for (const r of [m.min, (m.min + m.max) / 2, m.max]) {
    const yy = m.height - m.pad - ((m.height - 2 * m.pad) * (r - m.min)) / (m.max - m.min);
    axis.append(el('line', { x1: m.pad, x2: m.width - m.pad, y1: yy, y2: yy, class: 'grid' }));
    axis.append(el('text', { x: 2, y: yy + 4, class: 'tick' }, num(Math.round(r))));
  }
  svg.append(axis);
  m.series.forEach((s, i) => {
    const g = el('g', { class: `series series-${i % 6}`, 'data-series': s.key, 'aria-hidden': 'true' });
    g.append(el('polyline', { points: s.points.map((p) => `${p.x},${p.y}`).join(' '), fill: 'none' }));
    for (const p of s.points) g.append(el('circle', { cx: p.x, cy: p.y, r: 3 }));
    const lastPoint = s.points[s.points.length - 1];
    g.append(el('text', { x: Math.min(lastPoint.x + 4, m.width - 80), y: lastPoint.y - 6, class: 'series-label' }, label(s)));
    svg.append(g);
  });
  return svg;
}

// Demonstrations (issue 18's "videos"): #/demo/GAME/ID plays a move script of
// web/lessons/GAME.json ({"id", "position", "moves"}) on our own board, a caption per
// move in the reader's language (demo.GAME.ID.N), with play, pause, step back and
// forward, from the start, and speed.  Every position is the server's (POST
// /api/positions for each prefix of the script).  A moved piece glides from its cell
// to the next; with reduced motion asked for, the board steps instead.
import { t, num } from '../common/i18n.js';
import * as api from '../net/api.js';
import { h } from '../common/dom.js';
import { drawBoard } from '../board/board.js';
import { lessonsOf } from './learn.js';

const SPEEDS = [0.5, 1, 2];

export async function showDemo(app, game, id) {
  const data = await lessonsOf(game);
  const demo = data.demos.find((d) => d.id === id);
  if (!demo) throw new Error(t('demo.none'));
  const layout = await api.layoutOf(game);
  const title = t(`demo.${game}.${id}`);
  document.title = `${title} — agora`;
  // The position before each move and after the last, all from the server.
  const states = await Promise.all(demo.moves.map((_, i) => api.position({ game, position: demo.position, moves: demo.moves.slice(0, i) }))
    .concat(api.position({ game, position: demo.position, moves: demo.moves })));
  const reduced = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  let at = 0;
  let speed = 1;
  let timer = null;

  const boardHost = h('div', { id: 'board', class: 'board-host demo-board' });
  const caption = h('p', { id: 'demo-caption', class: 'demo-caption', 'aria-live': 'polite' });
  const where = h('p', { id: 'demo-where', class: 'muted' });
  const playBtn = h('button', { type: 'button', id: 'demo-play', class: 'primary', onclick: () => (timer ? pause() : play()) });
  const backBtn = h('button', { type: 'button', id: 'demo-back', onclick: () => { pause(); show(at - 1); } }, t('demo.back'));
  const stepBtn = h('button', { type: 'button', id: 'demo-step', onclick: () => { pause(); show(at + 1, true); } }, t('demo.step'));
  const startBtn = h('button', { type: 'button', id: 'demo-start', onclick: () => { pause(); show(0); } }, t('demo.restart'));
  const speedSel = h('select', { id: 'demo-speed', onchange: (e) => { speed = Number(e.target.value); if (timer) { pause(); play(); } } },
    SPEEDS.map((s) => h('option', { value: s, selected: s === 1 }, t('demo.speed.' + String(s).replace('.', '_')))));

  function show(i, animate = false) {
    at = Math.max(0, Math.min(i, demo.moves.length));
    const s = states[at];
    const prev = at > 0 ? states[at - 1] : null;
    const played = prev ? prev.legal_moves.find((m) => m.move === demo.moves[at - 1]) : null;
    const last = played ? [played.from, ...(played.path || [played.to])] : [];
    const handle = drawBoard(boardHost, layout, api.piecesOf(layout, s.board, s.captured_pieces), { game, marks: { last, capturing: [] }, title: `${title}: ${t('demo.move', { n: at, total: demo.moves.length })}` });
    if (animate && played && !reduced()) glide(handle, played);
    caption.textContent = at === 0 ? t('demo.ready') : `${num(at)}. ${s.moves[at - 1].display} — ${t(`demo.${game}.${id}.${at}`)}`;
    where.textContent = t('demo.move', { n: at, total: demo.moves.length });
    backBtn.disabled = at === 0;
    stepBtn.disabled = at === demo.moves.length;
    playBtn.textContent = timer ? t('demo.pause') : t('demo.play');
  }

  // The moved piece drawn at its old cell, then moved to its new one (along its path).
  function glide(handle, move) {
    const piece = handle.svg.querySelector(`.pieces [data-at="${CSS.escape(move.to)}"]`);
    if (!piece || !piece.animate) return;
    const cells = [move.from, ...(move.path || [move.to])];
    const end = handle.point(move.to);
    const frames = cells.map((c) => {
      const p = handle.point(c);
      return { transform: `translate(${p.x - end.x}px, ${p.y - end.y}px)` };
    });
    piece.animate(frames, { duration: (350 * cells.length) / speed, easing: 'ease-in-out' });
  }

  function play() {
    if (at >= demo.moves.length) show(0);
    const tick = () => {
      if (at >= demo.moves.length) return pause();
      show(at + 1, true);
      timer = setTimeout(tick, 1800 / speed);
    };
    timer = setTimeout(tick, 300);
    show(at);
  }
  function pause() {
    clearTimeout(timer);
    timer = null;
    show(at);
  }

  app.replaceChildren(h('div', { class: 'learn-page demo', 'data-game': game, 'data-demo': id },
    h('p', {}, h('a', { href: `#/learn/${game}` }, t('learn.of', { game: t(`game.${game}`) })), ' · ', h('a', { href: `#/rules/${game}` }, t('rules.of', { game: t(`game.${game}`) }))),
    h('h1', {}, title),
    h('div', { class: 'lesson-play' }, boardHost,
      h('div', { class: 'lesson-side' }, caption, where,
        h('div', { class: 'demo-controls', role: 'group', 'aria-label': t('demo.controls') }, startBtn, backBtn, playBtn, stepBtn),
        h('p', {}, h('label', { for: 'demo-speed' }, t('demo.speed')), ' ', speedSel)))));
  show(0);
  return () => clearTimeout(timer);
}


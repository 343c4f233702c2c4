// The opening trainer (issue 18), #/openings: a repertoire of chess lines built from the
// server's opening book (POST /api/positions with "book": true gives a position's book
// moves with their weights and its opening's name), picked from suggested lines
// (web/lessons/openings.json) or by clicking through the book; then drills
// (#/openings?drill=LINE): the trainer plays the other side's moves of the line, the
// learner must find the repertoire's move; a wrong move shows the right one.  Each
// position the learner answers is a card scheduled by SM-2 (web/js/srs.js).  The
// repertoire and the cards stay in localStorage.
import { t } from './i18n.js';
import * as api from './api.js';
import { h } from './dom.js';
import { newCard, review, isDue } from './srs.js';
import { playBoard, chooseAmong } from './learn-board.js';

const GAME = 'chess';
const STORE = 'agora.openings';

export function loadRepertoire() {
  try {
    const r = JSON.parse(localStorage.getItem(STORE));
    if (r && Array.isArray(r.lines) && r.cards) return r;
  } catch { /* a fresh start */ }
  return { lines: [], cards: {} };
}
const save = (r) => localStorage.setItem(STORE, JSON.stringify(r));

/** The positions of a line the learner answers: {key, prefix, move} for each of its moves. */
export function linePositions(line) {
  const out = [];
  const first = line.side === 'white' ? 0 : 1;
  for (let i = first; i < line.moves.length; i += 2)
    out.push({ key: `${line.side}:${line.moves.slice(0, i).join(' ')}`, prefix: line.moves.slice(0, i), move: line.moves[i] });
  return out;
}

/** Adds a line (its cards new, due now); the same line is not added twice. */
export function addLine(rep, line, now = Date.now()) {
  const id = `${line.side}:${line.moves.join(' ')}`;
  if (!rep.lines.some((l) => l.id === id)) rep.lines.push({ id, side: line.side, moves: line.moves, name: line.name || '' });
  for (const p of linePositions(line)) {
    const card = rep.cards[p.key];
    if (!card || card.move !== p.move) rep.cards[p.key] = { ...newCard(now), move: p.move };
  }
  return rep;
}

const lineStats = (rep, line, now) => {
  const ps = linePositions(line).map((p) => rep.cards[p.key]).filter(Boolean);
  return { total: ps.length, known: ps.filter((c) => c.reps > 0).length, due: ps.filter((c) => isDue(c, now)).length };
};

// A position with its book moves and name (api.position sends no "book").
async function ask(moves) {
  const res = await fetch('/api/positions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: GAME, moves, book: true }) });
  const data = await res.json();
  if (!res.ok) throw new api.ApiError(res.status, data.error || `HTTP ${res.status}`);
  return data;
}
const nameOf = (s) => (s.book && s.book.name ? `${s.book.name.code} ${s.book.name.name}` : t('open.unnamed'));

export async function showOpenings(app) {
  document.title = `${t('open.heading')} — agora`;
  const q = new URLSearchParams(location.hash.split('?')[1] || '');
  if (q.get('drill') !== null) return drill(app, q.get('drill'));
  const layout = await api.layoutOf(GAME);
  const suggested = (await (await fetch('lessons/openings.json')).json()).lines;
  let rep = loadRepertoire();
  const now = Date.now();

  const repList = h('ul', { id: 'open-repertoire', class: 'open-lines' });
  function showRepertoire() {
    rep = loadRepertoire();
    repList.replaceChildren(...(rep.lines.length ? rep.lines.map((l, i) => {
      const s = lineStats(rep, l, now);
      return h('li', { 'data-line': l.id },
        h('strong', {}, t('open.as', { name: l.name || t('open.unnamed'), side: t('side.' + l.side) })), ' ',
        h('span', { class: 'muted' }, t('open.progress', { known: s.known, total: s.total }), ' · ', t('open.due', { n: s.due })), ' ',
        h('a', { class: 'button small primary', href: `#/openings?drill=${i}` }, t('open.drill')), ' ',
        h('button', { type: 'button', class: 'small', onclick: () => { rep.lines.splice(i, 1); save(rep); showRepertoire(); } }, t('open.remove')));
    }) : [h('li', { class: 'muted' }, t('open.empty'))]));
  }

  const sugList = h('ul', { id: 'open-suggested', class: 'open-lines' });
  for (const line of suggested) {
    const item = h('li', { 'data-suggested': line.id }, '…');
    sugList.append(item);
    ask(line.moves).then((s) => {
      const named = { ...line, name: nameOf(s) };
      item.replaceChildren(h('span', { class: 'open-name' }, t('open.as', { name: named.name, side: t('side.' + line.side) })), ' ',
        h('button', { type: 'button', class: 'small add-line', onclick: () => { save(addLine(loadRepertoire(), named)); showRepertoire(); item.querySelector('button').disabled = true; } }, t('open.add')));
    });
  }

  // Exploring the book: the board, the book's moves with their share, the name.
  let moves = [];
  let state = null;
  const boardHost = h('div', { id: 'board', class: 'board-host open-board' });
  const nameLine = h('p', { id: 'open-name', class: 'open-name', 'aria-live': 'polite' });
  const bookList = h('ul', { id: 'open-book', class: 'open-tree' });
  const sideSel = h('select', { id: 'open-side' }, ['white', 'black'].map((s) => h('option', { value: s }, t('side.' + s))));
  const msg = h('p', { role: 'status', id: 'open-msg' });
  const choice = h('div', { id: 'lesson-choice' });
  async function go(next) {
    moves = next;
    state = await ask(moves);
    const total = state.book.moves.reduce((a, m) => a + m.weight, 0) || 1;
    nameLine.textContent = `${t('open.name')}: ${nameOf(state)}`;
    bookList.replaceChildren(...(state.book.moves.length ? state.book.moves.map((m) => h('li', {},
      h('button', { type: 'button', 'data-move': m.move, onclick: () => go([...moves, m.move]) }, m.display), ' ',
      h('span', { class: 'muted' }, t('open.weight', { pct: Math.round((100 * m.weight) / total) })))) : [h('li', { class: 'muted' }, t('open.out'))]));
    playBoard(boardHost, { game: GAME, layout, state, flipped: sideSel.value === 'black', title: t('play.board', { game: t('game.chess') }),
      onMove: (ms) => chooseAmong(choice, ms, (m) => go([...moves, m.move])) });
  }
  sideSel.addEventListener('change', () => go(moves));

  app.replaceChildren(h('div', { class: 'learn-page openings' },
    h('p', {}, h('a', { href: '#/learn' }, t('learn.page.heading'))),
    h('h1', {}, t('open.heading')),
    h('p', { class: 'lead' }, t('open.intro')),
    h('h2', {}, t('open.repertoire')), repList,
    h('h2', {}, t('open.suggested')), sugList,
    h('h2', {}, t('open.tree')),
    h('div', { class: 'lesson-play' }, boardHost,
      h('div', { class: 'lesson-side' }, nameLine,
        h('p', {}, h('label', { for: 'open-side' }, t('open.side')), ' ', sideSel), bookList, choice,
        h('p', {},
          h('button', { type: 'button', id: 'open-back', onclick: () => go(moves.slice(0, -1)) }, t('open.back')), ' ',
          h('button', { type: 'button', id: 'open-start', onclick: () => go([]) }, t('open.start')), ' ',
          h('button', { type: 'button', id: 'open-add', class: 'primary', onclick: () => {
            if (!moves.length) return;
            save(addLine(loadRepertoire(), { side: sideSel.value, moves, name: state.book.name ? nameOf(state) : '' }));
            msg.textContent = t('open.added');
            showRepertoire();
          } }, t('open.add'))), msg))));
  showRepertoire();
  await go([]);
}

// A drill of one line (its index in the repertoire), or of the line with most due.
async function drill(app, which) {
  const layout = await api.layoutOf(GAME);
  let rep = loadRepertoire();
  const now = Date.now();
  let index = Number(which);
  if (!(which !== '' && rep.lines[index])) {
    const dues = rep.lines.map((l) => lineStats(rep, l, now).due);
    index = dues.indexOf(Math.max(...dues));
  }
  const line = rep.lines[index];
  if (!line) {
    location.hash = '#/openings';
    return;
  }
  const boardHost = h('div', { id: 'board', class: 'board-host open-board' });
  const status = h('p', { id: 'drill-status', role: 'status', 'aria-live': 'polite' });
  const nameLine = h('p', { id: 'open-name', class: 'open-name' });
  const progress = h('p', { id: 'drill-progress', class: 'muted' });
  const choice = h('div', { id: 'lesson-choice' });
  const actions = h('p', {});
  app.replaceChildren(h('div', { class: 'learn-page openings drill', 'data-line': line.id },
    h('p', {}, h('a', { href: '#/openings' }, t('open.heading'))),
    h('h1', {}, t('open.as', { name: line.name || t('open.unnamed'), side: t('side.' + line.side) })),
    h('div', { class: 'lesson-play' }, boardHost, h('div', { class: 'lesson-side' }, nameLine, status, progress, choice, actions))));
  let ply = 0;
  let timer = null;
  let note = ''; // what the last answer earned, said before the next question

  const showProgress = () => {
    const s = lineStats(rep, line, Date.now());
    progress.textContent = `${t('open.progress', { known: s.known, total: s.total })} · ${t('open.due', { n: s.due })}`;
  };
  async function at(n, extra = {}, enabled = false) {
    ply = n;
    const state = await ask(line.moves.slice(0, n));
    nameLine.textContent = `${t('open.name')}: ${nameOf(state)}`;
    playBoard(boardHost, { game: GAME, layout, state, flipped: line.side === 'black', enabled, extra, title: t('play.board', { game: t('game.chess') }),
      onMove: (ms) => chooseAmong(choice, ms, (m) => answer(m, state)) });
    return state;
  }
  function grade(q) {
    rep = loadRepertoire();
    const key = `${line.side}:${line.moves.slice(0, ply).join(' ')}`;
    if (rep.cards[key]) rep.cards[key] = { ...review(rep.cards[key], q, Date.now()), move: rep.cards[key].move };
    save(rep);
    showProgress();
  }
  async function answer(m, state) {
    const right = line.moves[ply];
    if (m.move === right) {
      grade(4);
      note = t('open.right', { move: m.display });
      status.textContent = note;
      return step(ply + 1);
    }
    grade(1);
    const good = state.legal_moves.find((l) => l.move === right);
    await at(ply, { path: good ? [good.from, good.to] : [] });
    // Said once the board shows the right move (the position comes from the server).
    status.textContent = t('open.wrong', { move: good ? good.display : right });
    timer = setTimeout(() => step(ply + 1), 1600);
  }
  async function step(n) {
    clearTimeout(timer);
    if (n >= line.moves.length) {
      await at(n);
      status.textContent = t('open.done');
      actions.replaceChildren(h('a', { class: 'button primary', id: 'drill-again', href: `#/openings?drill=${index}&r=${Date.now()}` }, t('open.drill')), ' ',
        h('a', { class: 'button', href: '#/openings' }, t('open.repertoire')));
      document.getElementById('drill-again').focus();
      return;
    }
    const learners = (n % 2 === 0) === (line.side === 'white');
    if (learners) {
      await at(n, {}, true);
      status.textContent = (note ? note + ' ' : '') + t('open.yourmove');
      note = '';
      return;
    }
    await at(n);
    timer = setTimeout(() => step(n + 1), 600); // the trainer plays the other side's book move
  }
  showProgress();
  status.textContent = t('open.yourmove');
  await step(0);
  return () => clearTimeout(timer);
}


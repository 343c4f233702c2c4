// The opening trainer (issue 18), #/openings: a repertoire of chess lines built from the
// server's opening book (POST /api/positions with "book": true gives a position's book
// moves with their weights and its opening's name), picked from suggested lines
// (web/lessons/openings.json) or by clicking through the book; then drills
// (#/openings?drill=SIDE or ?drill=LINE, web/js/openings/openings-drill.js): the trainer plays the
// opponent's book moves among those the repertoire answers, the learner must find the
// repertoire's move.  Each position the learner answers is a card scheduled by SM-2
// (web/js/openings/srs.js, grades in web/js/openings/repertoire.js).  The repertoire and the cards stay
// in localStorage (web/js/local/storage.js).
import { t } from '../common/i18n.js';
import * as api from '../net/api.js';
import { staticJson } from '../net/http.js';
import { h } from '../common/dom.js';
import { newCard } from './srs.js';
import { playBoard, chooseAmong } from '../learn/learn-board.js';
import { linePositions, lineStats } from './repertoire.js';
import { drill, gradesHelp } from './openings-drill.js';
import { repertoire, saveRepertoire } from '../local/storage.js';

const GAME = 'chess';

export function loadRepertoire() {
  try {
    const r = repertoire();
    if (r && Array.isArray(r.lines) && r.cards) return r;
  } catch { /* a fresh start */ }
  return { lines: [], cards: {} };
}
// A change of the lines says when it was made: the server keeps the lines changed last
// (API.md "Progress"), so a removed line stays removed on the player's other browsers.
const save = (r) => saveRepertoire({ ...r, changed: Date.now() });

/** Adds a line (its cards new, due now); the same line is not added twice. */
export function addLine(rep, line, now = Date.now()) {
  const id = `${line.side}:${line.moves.join(' ')}`;
  if (!rep.lines.some((l) => l.id === id)) rep.lines.push({ id, side: line.side, moves: line.moves, name: line.name || '' });
  // One card a position: a second line answering a known position differently keeps its card.
  for (const p of linePositions(line)) if (!rep.cards[p.key]) rep.cards[p.key] = newCard(now);
  return rep;
}

// A position with its book moves and name (api.position sends no "book").
const ask = (moves) => api.bookPosition({ game: GAME, moves });
const nameOf = (s) => (s.book && s.book.name ? `${s.book.name.code} ${s.book.name.name}` : t('open.unnamed'));

export async function showOpenings(app) {
  document.title = `${t('open.heading')} — agora`;
  const q = new URLSearchParams(location.hash.split('?')[1] || '');
  if (q.get('drill') !== null) return drill(app, q.get('drill'), q, { ask, nameOf, loadRepertoire, save });
  const layout = await api.layoutOf(GAME);
  const suggested = (await staticJson('lessons/openings.json')).lines;
  let rep = loadRepertoire();

  const repList = h('ul', { id: 'open-repertoire', class: 'open-lines' });
  const sideDrills = h('p', { id: 'open-drills' });
  function showRepertoire() {
    rep = loadRepertoire();
    const now = Date.now(); // counted when drawn, as the drill counts
    sideDrills.replaceChildren(...['white', 'black'].filter((s) => rep.lines.some((l) => l.side === s)).flatMap((s) => [
      h('a', { class: 'button primary', id: `drill-${s}`, href: `#/openings?drill=${s}` }, t('drill.side', { side: t('side.' + s) })), ' ']));
    repList.replaceChildren(...(rep.lines.length ? rep.lines.map((l, i) => {
      const s = lineStats(rep.cards, l, now);
      return h('li', { 'data-line': l.id, class: s.learned ? 'learned' : '' },
        h('strong', {}, t('open.as', { name: l.name || t('open.unnamed'), side: t('side.' + l.side) })), ' ',
        h('span', { class: 'muted' }, t('open.progress', { known: s.known, total: s.total }), ' · ', t('open.due', { n: s.due }), s.learned ? ` · ${t('drill.learned')}` : ''), ' ',
        h('a', { class: 'button small', href: `#/openings?drill=${i}`, title: t('drill.line') }, t('open.drill')), ' ',
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
    gradesHelp(),
    h('h2', {}, t('open.repertoire')), sideDrills, repList,
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

// The opening trainer's drill (issue 18), #/openings?drill=SIDE (white or black) or
// ?drill=N (line N of the repertoire: its side, the first round along that line), with
// an optional &seed=N for a reproducible drill.  The trainer plays the opponent's book
// moves, varied among the book's replies that the learner's repertoire answers, due
// positions first (web/js/openings/repertoire.js chooseReply); the learner finds a repertoire
// move (any of them where the lines answer a position in more than one way; the drill
// goes on along the one played).  Grades for SM-2: 5 quick, 4 after a pause, 3 after a
// hint (the piece to move is marked), 1 wrong (the right move is shown, then the
// learner plays it).  Rounds follow each other on the page with one random source.
// The positions and legal moves are the server's (POST /api/positions, "book": true).
import { t } from '../common/i18n.js';
import * as api from '../net/api.js';
import { h } from '../common/dom.js';
import { playBoard, chooseAmong } from '../learn/learn-board.js';
import { keyOf, learnerToMove, repertoireOf, chooseReply, gradeOf, gradeCard, lineStats, drillStats, seeded, QUICK_MS, LEARNED_DAYS } from './repertoire.js';

const GAME = 'chess';

/** The help on grades and scheduling, shown on the trainer's pages. */
export function gradesHelp() {
  return h('details', { class: 'drill-help', id: 'drill-help' },
    h('summary', {}, t('drill.help.title')),
    h('ul', {},
      h('li', {}, t('drill.help.g5', { s: QUICK_MS / 1000 })),
      h('li', {}, t('drill.help.g4', { s: QUICK_MS / 1000 })),
      h('li', {}, t('drill.help.g3')),
      h('li', {}, t('drill.help.g1'))),
    h('p', {}, t('drill.help.early')),
    h('p', {}, t('drill.help.replies')),
    h('p', {}, t('drill.help.learned', { days: LEARNED_DAYS })));
}

export async function drill(app, which, query, { ask, nameOf, loadRepertoire, save }) {
  const layout = await api.layoutOf(GAME);
  let store = loadRepertoire();
  const focusLine = /^\d+$/.test(which) ? store.lines[Number(which)] : null;
  const side = which === 'white' || which === 'black' ? which : focusLine?.side;
  if (!side || !store.lines.some((l) => l.side === side)) {
    location.hash = '#/openings';
    return;
  }
  const seedText = query.get('seed');
  const rand = seeded(seedText !== null && /^\d+$/.test(seedText) ? Number(seedText) : Math.floor(Math.random() * 2 ** 32));

  const boardHost = h('div', { id: 'board', class: 'board-host open-board' });
  const status = h('p', { id: 'drill-status', role: 'status', 'aria-live': 'polite' });
  const nameLine = h('p', { id: 'open-name', class: 'open-name' });
  const roundLine = h('p', { id: 'drill-round', class: 'muted' });
  const progress = h('p', { id: 'drill-progress', class: 'muted' });
  const linesList = h('ul', { id: 'drill-lines', class: 'open-lines' });
  const choice = h('div', { id: 'lesson-choice' });
  const hintButton = h('button', { type: 'button', id: 'drill-hint', disabled: true }, t('drill.hint'));
  const actions = h('p', {});
  app.replaceChildren(h('div', { class: 'learn-page openings drill', 'data-side': side },
    h('p', {}, h('a', { href: '#/openings' }, t('open.heading'))),
    h('h1', {}, t('drill.heading', { side: t('side.' + side) })),
    h('div', { class: 'lesson-play' }, boardHost,
      h('div', { class: 'lesson-side' }, roundLine, nameLine, status, h('p', {}, hintButton), choice, actions, progress, linesList)),
    gradesHelp()));

  let round = 0;
  let timer = null;
  let alive = true;
  let note = ''; // what the last move earned, said with the next question

  function showProgress() {
    store = loadRepertoire();
    const now = Date.now();
    const mine = store.lines.filter((l) => l.side === side);
    const { known, total, due } = drillStats(store.cards, store.lines, which, now);
    progress.textContent = `${t('open.progress', { known, total })} · ${t('open.due', { n: due })}`;
    linesList.replaceChildren(...mine.map((l) => {
      const s = lineStats(store.cards, l, now);
      return h('li', { 'data-line': l.id, class: s.learned ? 'learned' : '' },
        h('span', {}, l.name || t('open.unnamed')), ': ',
        h('span', { class: 'muted' }, t('open.progress', { known: s.known, total: s.total }), ' · ', t('open.due', { n: s.due }), s.learned ? ` · ${t('drill.learned')}` : ''));
    }));
  }
  const displayOf = (state, move) => state.legal_moves.find((l) => l.move === move)?.display || move;
  const orList = (items) => items.join(t('drill.or'));

  async function show(prefix, enabled, extra = {}, onPick = null) {
    const state = await ask(prefix);
    if (!alive) return null;
    nameLine.textContent = `${t('open.name')}: ${nameOf(state)}`;
    draw(state, enabled, extra, onPick);
    return state;
  }
  function draw(state, enabled, extra, onPick) {
    playBoard(boardHost, { game: GAME, layout, state, flipped: side === 'black', enabled, extra, title: t('play.board', { game: t('game.chess') }),
      onMove: (ms) => chooseAmong(choice, ms, (m) => onPick(m)) });
  }

  function grade(key, q, now) {
    store = loadRepertoire();
    const before = store.cards[key];
    const after = gradeCard(before, q, now);
    store.cards[key] = after;
    save(store);
    showProgress();
    return after !== before || !before; // false: a right answer before its day (the card stays)
  }

  async function learnerTurn(prefix, answers) {
    const key = keyOf(side, prefix);
    let hinted = false;
    let wrong = false;
    let t0 = 0;
    const state = await show(prefix, true, {}, onPick);
    if (!state) return;
    t0 = Date.now();
    const rightMoves = state.legal_moves.filter((l) => answers.includes(l.move));
    status.textContent = (note ? note + ' ' : '') + t('open.yourmove');
    note = '';
    hintButton.disabled = false;
    hintButton.onclick = () => {
      hinted = true;
      hintButton.disabled = true;
      draw(state, true, { hint: [...new Set(rightMoves.map((l) => l.from))] }, onPick);
      status.textContent = t('drill.hinted');
    };
    function onPick(m) {
      if (answers.includes(m.move)) {
        hintButton.disabled = true;
        const now = Date.now();
        if (wrong) note = t('drill.fixed', { move: m.display });
        else {
          const q = gradeOf({ hinted, ms: now - t0 });
          note = grade(key, q, now) ? t('drill.g' + q, { move: m.display }) : t('drill.early', { move: m.display });
        }
        const others = rightMoves.filter((l) => l.move !== m.move).map((l) => l.display);
        if (others.length) note += ' ' + t('drill.also', { moves: orList(others) });
        return step([...prefix, m.move]);
      }
      if (!wrong) grade(key, 1, Date.now());
      wrong = true;
      hintButton.disabled = true;
      draw(state, true, { path: rightMoves.flatMap((l) => [l.from, l.to]) }, onPick);
      status.textContent = t('drill.g1', { move: orList(rightMoves.map((l) => l.display)) });
    }
  }

  async function step(prefix) {
    clearTimeout(timer);
    if (!alive) return;
    store = loadRepertoire();
    const rep = repertoireOf(store.lines, side);
    if (learnerToMove(side, prefix.length)) {
      const answers = rep.get(keyOf(side, prefix));
      if (answers) return learnerTurn(prefix, answers);
      return end(prefix);
    }
    const state = await show(prefix, false);
    if (!state) return;
    const onLine = focusLine && round === 1 && focusLine.moves.length > prefix.length && prefix.every((m, i) => focusLine.moves[i] === m);
    const focus = onLine ? focusLine.moves[prefix.length] : null;
    const reply = chooseReply({ book: state.book.moves, lines: store.lines, side, prefix, cards: store.cards, now: Date.now(), focus }, rand);
    if (!reply) return end(prefix);
    status.textContent = (note ? note + ' ' : '') + t('drill.thinking');
    note = (note ? note + ' ' : '') + t('drill.played', { move: displayOf(state, reply) }); // the grade is said until the learner's next move
    timer = setTimeout(() => step([...prefix, reply]), 600); // the opponent's book move, after a moment
  }

  async function end(prefix) {
    hintButton.disabled = true;
    if (!(await show(prefix, false))) return;
    status.textContent = (note ? note + ' ' : '') + t('drill.end');
    note = '';
    actions.replaceChildren(h('button', { type: 'button', class: 'primary', id: 'drill-again', onclick: () => newRound() }, t('drill.again')), ' ',
      h('a', { class: 'button', href: '#/openings' }, t('open.repertoire')));
    document.getElementById('drill-again').focus();
  }

  function newRound() {
    round++;
    roundLine.textContent = t('drill.round', { n: round });
    actions.replaceChildren();
    store = loadRepertoire();
    const now = Date.now();
    const keys = [...repertoireOf(store.lines, side).keys()];
    note = keys.some((k) => !store.cards[k] || store.cards[k].due <= now) ? '' : t('open.nothing'); // drilled all the same
    return step([]);
  }

  showProgress();
  await newRound();
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}

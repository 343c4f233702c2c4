// The coordinates trainer (issue 18): #/coordinates/GAME, two kinds of round of 30
// seconds, seen from White's side or Black's:
//   find  a cell's name is shown; click that cell (or reach it with the arrows and
//         press Enter), as many times as you can;
//   name  a cell is marked on the board; pick its name among four.
// Between rounds the board writes every cell's name, to learn them (issue 25 item 12:
// Agon's and Egara-guti's moves are written with names their boards cannot show on an
// edge).  The board and the names are the server's catalogue layout; the best score
// per game, side and kind stays in localStorage (local/storage.js).
import { t } from '../common/i18n.js';
import * as api from '../net/api.js';
import { h } from '../common/dom.js';
import { drawBoard, boardKeys } from '../board/board.js';
import { coordsBests, saveCoordsBests } from '../local/storage.js';

export const SECONDS = 30;
export const CHOICES = 4;

const bests = coordsBests;

/** The next cell to find: any cell but the last one. */
export function nextTarget(names, previous, random = Math.random) {
  const pool = names.filter((n) => n !== previous);
  return pool[Math.floor(random() * pool.length)];
}

/** The names offered for the marked cell `target`: it and n - 1 others, all
 *  different, in a random order (all the names when there are fewer). */
export function nameChoices(names, target, n = CHOICES, random = Math.random) {
  const others = names.filter((x) => x !== target);
  const picked = [target];
  while (picked.length < n && others.length) picked.push(others.splice(Math.floor(random() * others.length), 1)[0]);
  for (let i = picked.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [picked[i], picked[j]] = [picked[j], picked[i]];
  }
  return picked;
}

/** The key of a best score: "GAME/SIDE" for finding (as before issue 25), with
 *  "/name" added for naming. */
export const bestKey = (game, side, mode) => `${game}/${side}` + (mode === 'name' ? '/name' : '');

export async function showCoordinates(app, game) {
  if (!(await api.gameNames()).includes(game)) throw new Error(t('coords.nogame'));
  const layout = await api.layoutOf(game);
  const names = layout.cells.map((c) => c.name);
  document.title = `${t('coords.heading', { game: t(`game.${game}`) })} — agora`;
  let side = 'white', mode = 'find', score = 0, target = null, left = 0, timer = null, focus = names[0], flash = null;
  const boardHost = h('div', { id: 'board', class: 'board-host coords-board' });
  const prompt = h('p', { id: 'coords-target', class: 'coords-target', 'aria-live': 'assertive' }, t('coords.intro'));
  const choices = h('div', { id: 'coords-choices', class: 'coords-choices', role: 'group', 'aria-label': t('coords.which') });
  const scoreLine = h('p', { id: 'coords-score' });
  const clock = h('p', { id: 'coords-clock', class: 'muted' });
  const bestLine = h('p', { id: 'coords-best', class: 'muted' });
  const study = h('p', { id: 'coords-study', class: 'muted' }, t('coords.study'));
  const sideSel = h('select', { id: 'coords-side', onchange: (e) => { side = e.target.value; draw(); showBest(); } },
    ['white', 'black'].map((s) => h('option', { value: s }, t('side.' + s))));
  const modeSel = h('select', { id: 'coords-mode', onchange: (e) => { mode = e.target.value; intro(); showBest(); } },
    ['find', 'name'].map((m) => h('option', { value: m }, t('coords.mode.' + m))));
  const startBtn = h('button', { type: 'button', id: 'coords-start', class: 'primary', onclick: start }, t('coords.start'));

  const key = () => bestKey(game, side, mode);
  const showBest = () => { bestLine.textContent = t('coords.best', { n: bests()[key()] || 0 }); };
  const intro = () => { prompt.textContent = t(mode === 'name' ? 'coords.intro.name' : 'coords.intro'); };

  function draw() {
    const marks = {};
    if (timer && mode === 'name') marks.selected = [target];
    if (flash) marks[flash.kind] = [flash.cell];
    const handle = drawBoard(boardHost, layout, {}, {
      game, flipped: side === 'black', interactive: true, title: t('coords.board', { game: t(`game.${game}`) }),
      labels: !timer, marks,
      label: (name) => (timer && mode === 'name' && name === target ? t('coords.marked') : name),
    });
    study.hidden = !!timer;
    if (timer) handle.svg.classList.add('my-turn');
    const node = handle.cellNode(focus) || handle.cellNode(names[0]);
    node.setAttribute('tabindex', '0');
    handle.svg.addEventListener('click', (e) => {
      const cell = e.target.closest('[data-cell]');
      if (cell) answer(cell.dataset.cell);
    });
    boardKeys(handle.svg, { handle: () => handle, activate: answer, focused: (cell) => { focus = cell; } });
    return handle;
  }

  // Names rounds: the marked cell's name among four buttons.
  function ask() {
    if (mode !== 'name' || !timer) return choices.replaceChildren();
    choices.replaceChildren(...nameChoices(names, target).map((name) =>
      h('button', { type: 'button', class: 'coords-choice', 'data-name': name, onclick: () => named(name) }, name)));
  }

  function tell() {
    scoreLine.textContent = t('coords.score', { n: score });
    prompt.textContent = mode === 'name' ? t('coords.which') : t('coords.find', { cell: target });
  }

  function answer(name) {
    if (!timer || mode !== 'find') return;
    focus = name;
    const right = name === target;
    if (right) {
      score++;
      target = nextTarget(names, target);
    }
    flash = { kind: right ? 'found' : 'missed', cell: name };
    tell();
    draw();
    boardHost.querySelector(`[data-cell="${CSS.escape(name)}"]`)?.focus();
  }

  function named(name) {
    if (!timer) return;
    const was = target;
    const right = name === target;
    if (right) {
      score++;
      target = nextTarget(names, target);
    }
    flash = { kind: right ? 'found' : 'missed', cell: was };
    tell();
    draw();
    if (right) ask();
    else choices.querySelector(`[data-name="${CSS.escape(name)}"]`)?.setAttribute('disabled', '');
    (choices.querySelector('button:not([disabled])') || choices).focus?.();
  }

  function start() {
    clearInterval(timer);
    score = 0;
    left = SECONDS;
    flash = null;
    target = nextTarget(names, null);
    timer = setInterval(() => {
      left--;
      clock.textContent = t('coords.left', { n: left });
      if (left <= 0) stop();
    }, 1000);
    sideSel.disabled = modeSel.disabled = startBtn.disabled = true;
    clock.textContent = t('coords.left', { n: left });
    tell();
    draw();
    ask();
    if (mode === 'name') choices.querySelector('button')?.focus();
    else boardHost.querySelector('[tabindex="0"]')?.focus();
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    flash = null;
    const all = bests();
    const record = score > (all[key()] || 0);
    if (record) {
      all[key()] = score;
      saveCoordsBests(all);
    }
    prompt.textContent = t(record ? 'coords.record' : 'coords.over', { n: score });
    sideSel.disabled = modeSel.disabled = startBtn.disabled = false;
    startBtn.textContent = t('coords.again');
    ask();
    showBest();
    draw();
    startBtn.focus();
  }

  app.replaceChildren(h('div', { class: 'learn-page coords', 'data-game': game },
    h('p', {}, h('a', { href: '#/learn' }, t('learn.page.heading'))),
    h('h1', {}, t('coords.heading', { game: t(`game.${game}`) })),
    h('div', { class: 'lesson-play' }, boardHost,
      h('div', { class: 'lesson-side' }, prompt, choices, scoreLine, clock, bestLine, study,
        h('p', {}, h('label', { for: 'coords-mode' }, t('coords.mode')), ' ', modeSel),
        h('p', {}, h('label', { for: 'coords-side' }, t('coords.side')), ' ', sideSel),
        h('p', {}, startBtn)))));
  draw();
  showBest();
  return () => clearInterval(timer);
}

// The coordinates trainer (issue 18): #/coordinates/GAME shows a cell's name; click
// that cell (or reach it with the arrows and press Enter) as many times as you can in
// 30 seconds, seen from White's side or Black's.  The board is the server's catalogue
// layout; the best score per game and side stays in localStorage (local/storage.js).
import { t } from '../common/i18n.js';
import * as api from '../net/api.js';
import { h } from '../common/dom.js';
import { drawBoard, boardKeys } from '../board/board.js';
import { coordsBests, saveCoordsBests } from '../local/storage.js';

export const SECONDS = 30;

const bests = coordsBests;

/** The next cell to find: any cell but the last one. */
export function nextTarget(names, previous, random = Math.random) {
  const pool = names.filter((n) => n !== previous);
  return pool[Math.floor(random() * pool.length)];
}

export async function showCoordinates(app, game) {
  if (!(await api.gameNames()).includes(game)) throw new Error(t('coords.nogame'));
  const layout = await api.layoutOf(game);
  const names = layout.cells.map((c) => c.name);
  document.title = `${t('coords.heading', { game: t(`game.${game}`) })} — agora`;
  let side = 'white', score = 0, target = null, left = 0, timer = null, focus = names[0];
  const boardHost = h('div', { id: 'board', class: 'board-host coords-board' });
  const prompt = h('p', { id: 'coords-target', class: 'coords-target', 'aria-live': 'assertive' }, t('coords.intro'));
  const scoreLine = h('p', { id: 'coords-score' });
  const clock = h('p', { id: 'coords-clock', class: 'muted' });
  const bestLine = h('p', { id: 'coords-best', class: 'muted' });
  const sideSel = h('select', { id: 'coords-side', onchange: (e) => { side = e.target.value; draw(); showBest(); } },
    ['white', 'black'].map((s) => h('option', { value: s }, t('side.' + s))));
  const startBtn = h('button', { type: 'button', id: 'coords-start', class: 'primary', onclick: start }, t('coords.start'));

  const bestKey = () => `${game}/${side}`;
  const showBest = () => { bestLine.textContent = t('coords.best', { n: bests()[bestKey()] || 0 }); };

  function draw(flash = null) {
    const handle = drawBoard(boardHost, layout, {}, {
      game, flipped: side === 'black', interactive: true, title: t('coords.board', { game: t(`game.${game}`) }),
      marks: flash ? { [flash.kind]: [flash.cell] } : {},
      label: (name) => name,
    });
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

  function answer(name) {
    if (!timer) return;
    focus = name;
    const right = name === target;
    if (right) {
      score++;
      target = nextTarget(names, target);
    }
    scoreLine.textContent = t('coords.score', { n: score });
    prompt.textContent = t('coords.find', { cell: target });
    draw({ kind: right ? 'found' : 'missed', cell: name });
    boardHost.querySelector(`[data-cell="${CSS.escape(name)}"]`)?.focus();
  }

  function start() {
    clearInterval(timer);
    score = 0;
    left = SECONDS;
    target = nextTarget(names, null);
    timer = setInterval(() => {
      left--;
      clock.textContent = t('coords.left', { n: left });
      if (left <= 0) stop();
    }, 1000);
    sideSel.disabled = true;
    startBtn.disabled = true;
    scoreLine.textContent = t('coords.score', { n: score });
    clock.textContent = t('coords.left', { n: left });
    prompt.textContent = t('coords.find', { cell: target });
    draw();
    boardHost.querySelector('[tabindex="0"]')?.focus();
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    const all = bests();
    const record = score > (all[bestKey()] || 0);
    if (record) {
      all[bestKey()] = score;
      saveCoordsBests(all);
    }
    prompt.textContent = t(record ? 'coords.record' : 'coords.over', { n: score });
    sideSel.disabled = false;
    startBtn.disabled = false;
    startBtn.textContent = t('coords.again');
    showBest();
    draw();
    startBtn.focus();
  }

  app.replaceChildren(h('div', { class: 'learn-page coords', 'data-game': game },
    h('p', {}, h('a', { href: '#/learn' }, t('learn.page.heading'))),
    h('h1', {}, t('coords.heading', { game: t(`game.${game}`) })),
    h('div', { class: 'lesson-play' }, boardHost,
      h('div', { class: 'lesson-side' }, prompt, scoreLine, clock, bestLine,
        h('p', {}, h('label', { for: 'coords-side' }, t('coords.side')), ' ', sideSel),
        h('p', {}, startBtn)))));
  draw();
  showBest();
  return () => clearInterval(timer);
}

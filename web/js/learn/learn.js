// The lessons (issue 18): #/learn (every game's lessons, demonstrations and trainers),
// #/learn/GAME (its lessons with the stars won), #/learn/GAME/LESSON?stage=N (a stage
// on the board).  The stages are data (web/lessons/GAME.json); every legal move and
// every position comes from the server, and web/js/learn/lesson-core.js judges the stage by
// the server's answers.  The stars won stay in localStorage (local/storage.js).
import { errorText, t } from '../common/i18n.js';
import * as api from '../net/api.js';
import { staticJson } from '../net/http.js';
import { h } from '../common/dom.js';
import * as core from './lesson-core.js';
import { pickMove, playBoard, starMarks } from './learn-board.js';
import { namesToggle } from '../board/names.js';
import { stars, saveStars } from '../local/storage.js';

const cache = {};

/** A game's lessons and demonstrations (web/lessons/GAME.json). */
export function lessonsOf(game) {
  if (!cache[game]) cache[game] = staticJson(`lessons/${game}.json`);
  return cache[game];
}

const progress = stars;

function remember(key, stars) {
  const all = progress();
  if (!(all[key] >= stars)) all[key] = stars;
  saveStars(all);
}

const starText = (n, total = 3) => t('learn.stars', { n, total });
const starGlyphs = (n) => h('span', { class: 'stars', 'aria-hidden': 'true' }, '\u2605'.repeat(n) + '\u2606'.repeat(3 - n));

async function showIndex(app) {
  document.title = `${t('learn.page.heading')} — agora`;
  const games = await api.gameNames();
  app.replaceChildren(h('div', { class: 'learn-page' },
    h('h1', {}, t('learn.page.heading')),
    h('p', { class: 'lead' }, t('learn.intro')),
    h('div', { class: 'learn-games' }, games.map((g) => h('section', { class: 'learn-game', 'data-game': g, 'aria-labelledby': `lg-${g}` },
      h('h2', { id: `lg-${g}` }, t(`game.${g}`)),
      h('ul', {},
        h('li', {}, h('a', { href: `#/learn/${g}`, class: 'lessons-link' }, t('learn.lessons'))),
        h('li', {}, h('a', { href: `#/coordinates/${g}`, class: 'coords-link' }, t('coords.link'))),
        g === 'chess' ? h('li', {}, h('a', { href: '#/openings', class: 'openings-link' }, t('open.link'))) : null))))));
}

async function showGameLessons(app, game) {
  const data = await lessonsOf(game);
  const done = progress();
  document.title = `${t('learn.of', { game: t(`game.${game}`) })} — agora`;
  const lessons = data.lessons.map((lesson) => {
    const got = lesson.stages.reduce((sum, s) => sum + (done[`${game}/${lesson.id}/${s.id}`] || 0), 0);
    const total = lesson.stages.length * 3;
    return h('li', { 'data-lesson': lesson.id },
      h('a', { href: `#/learn/${game}/${lesson.id}` }, t(`learn.${game}.${lesson.id}`)), ' ',
      starGlyphs(Math.round((3 * got) / total)), h('span', { class: 'muted' }, ' ', starText(got, total)),
      lesson.demo ? h('a', { class: 'button small demo-link', href: `#/demo/${game}/${lesson.demo}` }, t('learn.watch')) : null);
  });
  app.replaceChildren(h('div', { class: 'learn-page' },
    h('p', {}, h('a', { href: '#/learn' }, t('learn.page.heading'))),
    h('h1', {}, t('learn.of', { game: t(`game.${game}`) })),
    h('ol', { class: 'lesson-list' }, lessons),
    h('h2', {}, t('learn.demos')),
    h('ul', { class: 'demo-list' }, data.demos.map((d) => h('li', {}, h('a', { href: `#/demo/${game}/${d.id}` }, t(`demo.${game}.${d.id}`))))),
    h('p', {}, h('a', { class: 'button', href: `#/rules/${game}` }, t('rules.of', { game: t(`game.${game}`) })), ' ',
      h('a', { class: 'button', href: `#/coordinates/${game}` }, t('coords.link')))));
}

async function showStage(app, game, lessonId, index) {
  const data = await lessonsOf(game);
  const li = data.lessons.findIndex((l) => l.id === lessonId);
  if (li < 0) return showGameLessons(app, game);
  const lesson = data.lessons[li];
  const si = Math.min(Math.max(index, 0), lesson.stages.length - 1);
  const stage = { ...lesson.stages[si], game };
  const key = `${game}/${lesson.id}/${stage.id}`;
  const title = t(`learn.${game}.${lesson.id}`);
  document.title = `${title} — agora`;
  const layout = await api.layoutOf(game);
  const ask = (body) => api.position(body);
  let run = core.newRun(stage);
  let state = await core.current(stage, run, ask);
  let busy = false;

  const status = h('p', { id: 'lesson-status', role: 'status', 'aria-live': 'polite' });
  const counter = h('p', { id: 'lesson-moves', class: 'muted' });
  const actions = h('p', { class: 'lesson-actions' });
  const boardHost = h('div', { id: 'board', class: 'board-host lesson-board' });
  const next = si + 1 < lesson.stages.length ? `#/learn/${game}/${lesson.id}?stage=${si + 2}`
    : li + 1 < data.lessons.length ? `#/learn/${game}/${data.lessons[li + 1].id}` : `#/learn/${game}`;

  function goalLine() {
    const g = stage.goal;
    if (g.kind === 'reach') return t('learn.goal.reach', { n: core.remaining(stage, run).length });
    if (g.kind === 'capture') return t('learn.goal.capture', { n: core.remaining(stage, run).length });
    return t('learn.yourmove');
  }

  function retry() {
    run = core.newRun(stage);
    core.current(stage, run, ask).then((s) => { state = s; draw(); status.textContent = goalLine(); });
  }

  function draw() {
    counter.textContent = t('learn.moves', { n: run.used, par: stage.par, max: stage.max });
    const playing = run.outcome === 'playing';
    playBoard(boardHost, {
      game, layout, state, flipped: stage.side === 'black', enabled: playing && !busy,
      extra: starMarks(stage, run), title: t('play.board', { game: t(`game.${game}`) }),
      onMove: (moves) => pickMove(boardHost, moves, (m) => move(m.move)),
    });
    actions.replaceChildren(...[
      run.outcome === 'solved' ? h('a', { class: 'button primary', id: 'lesson-next', href: next }, t('learn.stage.next')) : null,
      run.outcome !== 'playing' || run.used ? h('button', { type: 'button', id: 'lesson-retry', onclick: retry }, t('learn.retry')) : null,
      lesson.demo ? h('a', { class: 'button', href: `#/demo/${game}/${lesson.demo}` }, t('learn.watch')) : null,
      h('a', { class: 'button', href: `#/learn/${game}` }, t('learn.all'))].filter(Boolean));
  }

  async function move(text) {
    if (busy) return;
    busy = true;
    try {
      const res = await core.play(stage, run, state, text, ask);
      run = res.run;
      if (res.reply && run.outcome === 'playing') {
        state = res.after; // the learner's move first, then the reply
        draw();
        await new Promise((r) => setTimeout(r, 350));
      }
      state = res.state;
      if (run.outcome === 'solved') {
        remember(key, run.stars);
        status.replaceChildren(starGlyphs(run.stars), ' ', t('learn.solved'), ' ', starText(run.stars));
      } else if (run.outcome === 'failed') {
        status.textContent = t('learn.failed') + ' ' + (run.why === 'moves' ? t('learn.why.moves') : t('reason.' + run.why));
      } else {
        const last = state.moves[state.moves.length - 1];
        status.textContent = goalLine() + (res.reply && last ? ' ' + t('learn.reply', { move: last.display }) : '');
      }
    } catch (err) {
      status.textContent = t('error.generic', { message: errorText(err) });
    } finally {
      busy = false;
      draw();
      if (run.outcome === 'solved') document.getElementById('lesson-next')?.focus();
    }
  }

  const best = progress()[key] || 0;
  app.replaceChildren(h('div', { class: 'learn-page lesson', 'data-game': game, 'data-lesson': lesson.id, 'data-stage': stage.id },
    h('p', {}, h('a', { href: `#/learn/${game}` }, t('learn.of', { game: t(`game.${game}`) }))),
    h('h1', {}, title),
    h('p', { class: 'muted' }, t('learn.stage', { n: si + 1, total: lesson.stages.length }), best ? ' · ' + t('learn.best', { n: best }) : ''),
    h('p', { class: 'lesson-text', id: 'lesson-text' }, t(`learn.${game}.${lesson.id}.${stage.id}`)),
    h('div', { class: 'lesson-play' }, boardHost, h('div', { class: 'lesson-side' }, status, counter, h('div', { id: 'lesson-choice' }), actions, h('p', {}, namesToggle(layout.shape))))));
  status.textContent = goalLine();
  draw();
}

/** #/learn, #/learn/GAME, #/learn/GAME/LESSON?stage=N */
export async function showLearn(app, parts) {
  const q = new URLSearchParams(location.hash.split('?')[1] || '');
  const games = await api.gameNames();
  if (!parts[0] || !games.includes(parts[0])) return showIndex(app);
  if (!parts[1]) return showGameLessons(app, parts[0]);
  return showStage(app, parts[0], decodeURIComponent(parts[1]), (Number(q.get('stage')) || 1) - 1);
}

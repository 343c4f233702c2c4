// The analysis board's review section (the graph, the summary, "learn from your
// mistakes" buttons, the progress while it runs) and the learning box shown under the
// status.  Draws the controller's state (controller.js).
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import * as T from './tree.js';
import { drawGraph, summary } from './review.js';

export function reviewView(ctl) {
  const { s } = ctl;
  const host = h('section', { class: 'review', id: 'review', 'aria-labelledby': 'review-h' });
  const graphHost = h('div', { class: 'graph-host', id: 'graph' });

  function graph() {
    if (!s.review) return;
    drawGraph(graphHost, s.review, s.tree.blackFirst, T.isMain(s.tree, s.cur) ? T.plyOf(s.tree, s.cur) : -1, (ply) => ctl.go(ctl.nodeAtPly(ply)));
  }

  function render() {
    const { review, reviewState, source } = s;
    const items = [h('h2', { id: 'review-h' }, t('review.heading'))];
    if (!review && !reviewState) {
      if (source) items.push(h('p', {}, h('button', { type: 'button', id: 'start-review', class: 'primary', onclick: () => ctl.startGameReview() }, t('review.start'))));
      else items.push(h('p', { class: 'muted' }, t('review.import')));
    } else if (reviewState && reviewState.status === 'error') items.push(h('p', { class: 'error' }, t('error.generic', { message: reviewState.message })));
    else if (reviewState) {
      const done = reviewState.done || 0, total = reviewState.total || 0;
      items.push(h('p', { id: 'review-progress-text' }, t('review.running', { done: num(done), total: num(total) })),
        h('progress', { id: 'review-progress', max: total || 1, value: done, 'aria-label': t('review.heading') }));
    } else {
      items.push(graphHost, summary(review, s.tree.blackFirst));
      if (review.engine) {
        items.push(h('p', { class: 'muted small-text', id: 'review-engine' }, review.engine_error
          ? t('review.engine.fallback', { engine: review.engine, error: review.engine_error })
          : t('review.engine', { engine: review.engine })));
      }
      const sides = source ? [source.human_side] : ['white', 'black'];
      items.push(h('p', {}, ...sides.map((side) => h('button', { type: 'button', class: 'learn-button', id: `learn-${side}`, onclick: () => ctl.startLearn(side) },
        t(source ? 'learn.start' : 'learn.start.side', { side: t('side.' + side) })))));
    }
    host.replaceChildren(...items);
    if (review) graph();
  }

  /** The learning box: the task, the answer, and its buttons. */
  function learnBox() {
    const { learn } = s;
    const p = ctl.learnPly();
    const parts = [h('strong', {}, t('learn.heading', { k: num(learn.k + 1), n: num(learn.list.length) })), ' '];
    if (learn.result === 'right') parts.push(h('span', { id: 'learn-result', class: 'right' }, t('learn.right', { move: p.best_display })));
    else if (learn.answered) parts.push(h('span', { id: 'learn-result' }, t('learn.answer', { move: p.best_display })));
    else {
      parts.push(h('span', { id: 'learn-task' }, t('learn.task', { side: t('side.' + learn.side), move: p.display })));
      if (learn.result === 'wrong') parts.push(' ', h('span', { id: 'learn-result', class: 'wrong' }, t('learn.wrong')));
    }
    const btns = [];
    if (!learn.answered) btns.push(h('button', { type: 'button', class: 'small', id: 'learn-show', onclick: () => ctl.learnShow() }, t('learn.show')));
    if (learn.k + 1 < learn.list.length) btns.push(h('button', { type: 'button', class: 'small', id: 'learn-next', onclick: () => ctl.learnNext() }, t('learn.next')));
    btns.push(h('button', { type: 'button', class: 'small', id: 'learn-stop', onclick: () => ctl.learnStop() }, t('learn.stop')));
    return h('div', { class: 'learn', id: 'learn' }, h('p', {}, ...parts), h('p', { class: 'learn-buttons' }, ...btns));
  }

  return { host, render, graph, learnBox };
}

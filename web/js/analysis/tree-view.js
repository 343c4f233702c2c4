// The analysis board's move list: the tree's rows (variations nested, comments, the
// review's marks and better moves), the buttons that promote or delete a variation,
// and the current move's comment.  Draws the controller's state (controller.js).
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import * as T from './tree.js';
import { SYMBOL, isError } from './review.js';

export function treeView(ctl) {
  const { s } = ctl;
  const moveList = h('div', { class: 'tree-moves', id: 'tree', role: 'group', 'aria-label': t('play.moves') });
  const promoteBtn = h('button', { type: 'button', id: 'promote', class: 'small', onclick: () => ctl.promote() }, t('an.promote'));
  const deleteBtn = h('button', { type: 'button', id: 'delete', class: 'small', onclick: () => ctl.deleteVariation() }, t('an.delete'));
  const actions = h('div', { class: 'tree-actions' }, promoteBtn, deleteBtn);
  const comment = h('input', { type: 'text', id: 'comment', 'aria-label': t('an.comment'), placeholder: t('an.comment'), onchange: (e) => ctl.setComment(e.target.value) });

  function moveButton(r, rv, numText) {
    const cur = s.cur;
    return h('button', { type: 'button', class: 'mv' + (r.id === cur ? ' current' : '') + (rv ? ` c-${rv.class}` : ''), 'data-node': r.id, 'data-ply': r.ply,
      'aria-current': r.id === cur ? 'step' : null, tabindex: r.id === cur || (!cur && r.ply === 1 && !r.depth) ? '0' : '-1',
      'aria-label': `${num(r.number)}${r.black ? '…' : '.'} ${r.text}` + (rv ? ', ' + t('class.' + rv.class) : '') + (r.depth ? ', ' + t('an.variation') : ''),
      onclick: () => ctl.go(r.id) },
      numText ? h('span', { class: 'num' }, numText) : null, r.text,
      rv && SYMBOL[rv.class] ? h('span', { class: `mark c-${rv.class}`, 'aria-hidden': 'true' }, SYMBOL[rv.class]) : null);
  }

  function render() {
    const { tree, cur, review } = s;
    if (!tree) return;
    const hadFocus = moveList.contains(document.activeElement);
    const byPly = review ? new Map(review.plies.map((p) => [p.ply, p])) : null;
    const stack = [moveList];
    const inner = [];
    let brk = false; // a variation or comment came between: a black move shows its number
    for (const r of T.rows(tree)) {
      if (r.end) { stack.pop(); brk = true; continue; }
      if (r.start) {
        const v = h('span', { class: 'variation', 'data-depth': r.depth });
        if (stack[stack.length - 1] === moveList) inner.push(v); else stack[stack.length - 1].append(v);
        stack.push(v);
      }
      const rv = byPly && T.isMain(tree, r.id) ? byPly.get(r.ply) : null;
      const numText = !r.black ? num(r.number) + '.' : r.start || brk || r.ply === 1 ? num(r.number) + '…' : '';
      brk = !!r.comment;
      const target = stack[stack.length - 1];
      const put = (x) => (target === moveList ? inner.push(x) : target.append(x));
      put(moveButton(r, rv, numText));
      if (r.comment) put(h('span', { class: 'comment' }, r.comment));
      if (rv && isError(rv.class) && rv.best_display && rv.best !== rv.move) {
        put(h('span', { class: 'better', 'data-ply': r.ply }, t('review.better', { move: rv.best_display })));
        brk = true;
      }
    }
    moveList.replaceChildren(...(inner.length ? inner : [h('span', { class: 'muted' }, t('an.nomoves'))]));
    const curBtn = moveList.querySelector('.mv.current');
    if (curBtn) {
      curBtn.scrollIntoView({ block: 'nearest' });
      if (hadFocus) curBtn.focus({ preventScroll: true });
    }
    comment.value = cur && tree.nodes[cur] ? tree.nodes[cur].comment : '';
    comment.disabled = !cur;
    promoteBtn.disabled = !cur || T.isMain(tree, cur);
    deleteBtn.disabled = !cur;
  }

  return { moveList, actions, comment, render };
}

// The analysis board itself: the position (or the editor's pieces) drawn with the
// move being entered, the last move, the engine's or the better move's arrows; the
// promotion chooser; the buttons under it (navigate, flip, cell names).  Clicks and
// keys on the board go to the controller (controller.js).
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { drawBoard, boardKeys } from '../board/board.js';
import { cellLabel } from '../board/cells.js';
import { promotionBox, showPromotion } from '../board/promotion.js';
import { namesToggle } from '../board/names.js';
import * as T from './tree.js';

export function boardView(ctl) {
  const { s } = ctl;
  const { game, layout } = s;
  let focusCell = null;
  let handle = null;
  const boardHost = h('div', { class: 'board-host', id: 'board' });
  const chooser = promotionBox();
  const button = (id, label, onclick, text) => h('button', { type: 'button', id, 'aria-label': label, title: label, onclick }, text);
  const nav = h('div', { class: 'nav-buttons', role: 'group', 'aria-label': t('an.navigate') },
    button('nav-first', t('an.first'), () => ctl.go(0), '⏮'),
    button('nav-prev', t('an.prev'), () => ctl.go(T.prev(s.tree, s.cur)), '◀'),
    button('nav-next', t('an.next'), () => ctl.go(T.next(s.tree, s.cur)), '▶'),
    button('nav-last', t('an.last'), () => ctl.go(T.last(s.tree, s.cur)), '⏭'),
    h('button', { type: 'button', id: 'flip', onclick: () => ctl.flip() }, t('play.flip')),
    namesToggle(layout.shape));

  function draw() {
    if (!s.P && !s.editing) return;
    const mk = ctl.marks();
    const hadFocus = boardHost.contains(document.activeElement);
    handle = drawBoard(boardHost, layout, ctl.shownPieces(), {
      game, flipped: s.flipped, names: true, marks: mk, interactive: true, arrows: ctl.arrows(),
      title: t('an.board', { game: t(`game.${game}`) }), label: (n, p) => cellLabel(game, layout, n, p, mk),
    });
    handle.svg.classList.add('my-turn');
    if (!focusCell || !handle.cellNode(focusCell)) focusCell = mk.selected[0] || mk.movable[0] || handle.names[0];
    const node = handle.cellNode(focusCell);
    node.setAttribute('tabindex', '0');
    if (hadFocus) node.focus({ preventScroll: true });
  }

  function renderChooser() {
    showPromotion(chooser, game, s.promo, s.P && s.P.side_to_move === 'white', {
      pick: (mv) => ctl.pickPromotion(mv),
      cancel: () => ctl.cancelMove(),
    });
  }

  const clickCell = (cell) => {
    focusCell = cell;
    ctl.clickCell(cell);
  };
  boardHost.addEventListener('click', (e) => {
    const g = e.target.closest && e.target.closest('[data-cell]');
    if (g) clickCell(g.dataset.cell);
  });
  boardKeys(boardHost, {
    handle: () => handle,
    activate: clickCell,
    cancel: () => ctl.cancelMove(),
    focused: (cell) => { focusCell = cell; },
    stop: true,
  });

  return { boardHost, chooser, nav, draw, renderChooser };
}

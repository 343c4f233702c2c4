// Cell names on the boards (issue 25 item 12).  Agon's and Egara-guti's moves are
// written with cell names ("f1-e2", "d3xd5") that their boards have no edge to carry,
// so their play, analysis, puzzle and lesson boards write each cell's name in a corner
// of it by default; a square board carries its coordinates on its frame and writes none.
// One switch (id show-names, beside each such board) hides or shows them everywhere,
// remembered as agora.names ("1" shown, "0" hidden; nothing chosen: the default).
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { choice, saveChoice } from '../local/storage.js';

/** Whether a board of this shape shows its cell names, given the remembered choice
 *  ("1", "0" or null): by default only boards without coordinates on their edges. */
export function namesShown(shape, saved) {
  if (saved === '1') return true;
  if (saved === '0') return false;
  return shape !== 'square';
}

/** The same, with the choice remembered in this browser. */
export const namesOn = (shape) => namesShown(shape, choice('names'));

/** Shows or hides the names on every board drawn with `names: true` on the page now. */
function refresh() {
  for (const svg of document.querySelectorAll('svg.board[data-names]'))
    svg.classList.toggle('with-labels', namesOn(svg.dataset.names));
}

/** The switch, for a board of this shape; `changed(on)` after the choice is kept. */
export function namesToggle(shape, changed = () => {}) {
  return h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'show-names', checked: namesOn(shape), onchange: (e) => {
    saveChoice('names', e.target.checked ? '1' : '0');
    refresh();
    changed(e.target.checked);
  } }), ' ', t('play.names'));
}

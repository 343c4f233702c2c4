// The promotion chooser shared by the boards (the play page, the puzzles): when the
// legal moves entered share their whole path and differ only in the piece a pawn
// becomes, a small dialog asks which, one button a piece (its glyph and its name in
// the page's language) and Cancel.  The first choice takes the focus.
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { pieceName } from './cells.js';

const GLYPH = { q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E' };

/** The chooser's box (hidden until show() fills it). */
export function promotionBox() {
  return h('div', { class: 'chooser', id: 'promotion', role: 'dialog', 'aria-label': t('play.promote'), hidden: true });
}

/** Fills `box` with a choice among `moves` (legal moves with `promotion` letters) for
 *  the white or black side, or hides it when `moves` is null.  pick(move) and cancel()
 *  are called on a choice. */
export function showPromotion(box, game, moves, white, { pick, cancel }) {
  box.hidden = !moves;
  if (!moves) return box.replaceChildren();
  box.replaceChildren(h('p', {}, t('play.promote')), h('div', { class: 'choices' }, moves.map((mv) => {
    const letter = white ? mv.promotion.toUpperCase() : mv.promotion.toLowerCase();
    return h('button', { type: 'button', 'data-promotion': mv.promotion, onclick: () => pick(mv) },
      h('span', { class: 'glyph ' + (white ? 'white' : 'black'), 'aria-hidden': 'true' }, GLYPH[mv.promotion] || letter),
      h('span', {}, pieceName(game, mv.promotion)));
  })), h('button', { type: 'button', class: 'small', id: 'promotion-cancel', onclick: cancel }, t('play.cancel')));
  box.querySelector('button').focus();
}

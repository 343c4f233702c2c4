// The analysis board's position editor: a palette of pieces (Agon's captured ones too)
// and "remove", the side to move, clear, the game's start, the position's text, done.
// Draws the controller's state (controller.js); the board itself takes the clicks.
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { pieceSide } from '../board/board.js';
import { pieceName } from '../board/cells.js';
import { PIECE_LETTERS } from './notation.js';

const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };

export function editorView(ctl) {
  const { s } = ctl;
  const game = s.game;
  const host = h('div', { class: 'editor', id: 'editor' });
  const section = h('details', { class: 'edit', id: 'edit-section', ontoggle: (e) => { if (e.target.open) ctl.openEditor(); else ctl.closeEditor(); } },
    h('summary', {}, t('an.edit')), host);

  function renderText() {
    const out = host.querySelector('#editor-text');
    if (out) out.value = ctl.editorText();
  }

  function palette() {
    // Agon's text marks a captured piece with '*': the palette offers those too.
    const letters = [...PIECE_LETTERS[game], ...(game === 'agon' ? PIECE_LETTERS[game].map((l) => l + '*') : []), ''];
    return h('div', { class: 'palette', role: 'radiogroup', 'aria-label': t('an.edit.palette') }, letters.map((l) => {
      const side = l ? pieceSide(l[0], game) : '';
      const label = l ? `${t('side.' + side)} ${pieceName(game, l[0])}` + (l.endsWith('*') ? `, ${t('play.captured')}` : '') : t('an.edit.remove');
      return h('button', { type: 'button', role: 'radio', class: 'pal' + (l ? ` ${side}` : ' remove'), 'data-letter': l, 'aria-checked': s.editing.letter === l ? 'true' : 'false', 'aria-label': label, title: label,
        onclick: () => ctl.setEditorLetter(l) },
        l ? (game === 'chess' ? GLYPH[l.toLowerCase()] : l) : '✕');
    }));
  }

  function render() {
    const side = h('select', { id: 'editor-side', onchange: (e) => ctl.setEditorSide(e.target.value) },
      ['white', 'black'].map((v) => h('option', { value: v, selected: s.editing.side === v }, t('side.' + v))));
    host.replaceChildren(
      h('p', { class: 'muted' }, t('an.edit.hint')),
      palette(),
      h('p', {}, h('label', { for: 'editor-side' }, t('an.edit.side')), ' ', side, ' ',
        h('button', { type: 'button', class: 'small', id: 'editor-clear', onclick: () => ctl.clearEditor() }, t('an.edit.clear')), ' ',
        h('button', { type: 'button', class: 'small', id: 'editor-start', onclick: () => ctl.editorStart() }, t('an.edit.start'))),
      h('textarea', { id: 'editor-text', rows: 2, readonly: true, spellcheck: 'false', 'aria-label': t('an.position') }),
      h('p', {}, h('button', { type: 'button', class: 'primary', id: 'editor-done', onclick: () => ctl.editorDone() }, t('an.edit.done'))));
    renderText();
    const on = host.querySelector('.pal[aria-checked="true"]');
    if (on && document.activeElement && document.activeElement.classList && document.activeElement.classList.contains('pal')) on.focus();
  }

  function closed() {
    section.open = false;
    host.replaceChildren();
  }

  return { section, render, renderText, closed };
}

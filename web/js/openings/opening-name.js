// The opening's name, live, on the play page and the analysis board (issue 18): one
// line in the page's panel, from the server's opening names (POST /api/positions with
// "book": true: the last named position on the way to the shown one).  Games without
// names show nothing.  One call per position shown; answers are kept.
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { ApiError, bookPosition } from '../net/api.js';

const known = new Map(); // "game|start|moves" -> name text or ''
const NAMED_PLIES = 40; // the names' lines are shorter: the name after this stays the same

/** Shows the name of `s` (a state or position: game, start_position, moves) in `panel`. */
export function showOpeningName(panel, s) {
  if (!panel || !s || !s.game) return;
  let line = panel.querySelector('.opening-name');
  if (!line) {
    line = h('p', { class: 'opening-name muted', id: 'opening-name', hidden: true });
    const title = panel.querySelector('h1');
    if (title) title.after(line);
    else panel.prepend(line);
  }
  const moves = (s.moves || []).slice(0, NAMED_PLIES).map((m) => m.move);
  const key = `${s.game}|${s.start_position || ''}|${moves.join(' ')}`;
  line.dataset.key = key;
  const put = (text) => {
    if (line.dataset.key !== key) return; // a later position was shown meanwhile
    line.hidden = !text;
    line.textContent = text ? `${t('open.name')}: ${text}` : '';
  };
  if (known.has(key)) return put(known.get(key));
  bookPosition({ game: s.game, position: s.start_position || null, moves })
    .catch((err) => {
      if (err instanceof ApiError) return null; // the server said no: no name
      throw err;
    })
    .then((p) => {
      const name = p && p.book && p.book.name ? `${p.book.name.code} ${p.book.name.name}` : '';
      known.set(key, name);
      put(name);
    })
    .catch(() => put(''));
}

// The computer's level's measured Elo beside the level chooser (GET /api/catalog
// `level_elo`, where the game's engine has a table), as a guide when choosing one.
import { t, num } from './i18n.js';
import { entryOf } from './api.js';
import { h } from './dom.js';

export async function showLevelElo(select, game) {
  const entry = await entryOf(game).catch(() => null);
  const elo = entry && entry.level_elo;
  if (!elo || !select.parentNode) return;
  const hint = h('span', { class: 'muted level-elo', id: `${select.id}-elo`, 'aria-live': 'polite' });
  const show = () => {
    const e = elo[Number(select.value) - 1];
    hint.textContent = e ? ' ' + t('people.level.elo', { elo: num(e) }) : '';
  };
  select.after(hint);
  select.setAttribute('aria-describedby', hint.id);
  select.addEventListener('change', show);
  show();
}

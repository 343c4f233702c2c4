// The level chooser of the home and new-game pages: each level's short name, its
// measured rating (the catalogue's `levels`, from the engine profiles' tables) and a
// sentence on how it plays.  A first visit gets level 1; later visits the level last
// chosen for that game (remembered when a game is started).
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { level as storedLevel, saveLevel } from '../local/storage.js';

export function rememberedLevel(game) {
  const v = Number(storedLevel(game));
  return Number.isInteger(v) && v >= 1 && v <= 8 ? v : 1;
}

export function rememberLevel(game, level) {
  saveLevel(game, Number(level));
}

/** The text of one level's option: "1 · Beginner · Elo 400". */
export function levelText(l) {
  const parts = [num(l.level), t(`level.${l.level}.name`)];
  if (l.elo) parts.push(t('level.elo', { elo: l.elo }));
  return parts.join(' · ');
}

/** A select of the game's levels and the sentence on the chosen one (kept in step):
 *  {select, about}.  `levels` as the catalogue gives them. */
export function levelPicker(id, levels, value) {
  const about = h('p', { class: 'level-about', id: `${id}-about`, 'aria-live': 'polite' });
  const select = h('select', { id, name: 'level', 'aria-describedby': about.id });
  for (const l of levels) select.append(h('option', { value: l.level, selected: l.level === value }, levelText(l)));
  const tell = () => { about.textContent = t(`level.${select.value}.about`); };
  select.addEventListener('change', tell);
  tell();
  return { select, about };
}

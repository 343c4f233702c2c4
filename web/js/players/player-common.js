// What the player pages share: dates in the page's language and digits, a game's row
// (date, game, opponent with a link to their page, result, links to watch, review and
// analyse it), and the error box.
import { t, num, language, errorText } from '../common/i18n.js';
import { h } from '../common/dom.js';

/** A time (ms since 1970) as a date in the page's language, its digits the page's. */
export function dateText(ms) {
  try {
    return num(new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(ms)));
  } catch {
    return num(new Date(ms).toISOString().slice(0, 10));
  }
}

export const errorBox = (err) => h('p', { class: 'error', role: 'alert' }, t('error.generic', { message: errorText(err) }));

/** The opponent of an archive's game: a link to their page when they have one. */
export function opponentOf(g) {
  const o = g.opponent || {};
  if (o.level !== undefined) return t('player.vs.computer', { level: o.level });
  return o.id ? h('a', { href: `#/player/${o.id}`, class: 'player-link' }, o.name) : o.name;
}

/** A table of an archive's games (a caption names it, for screen readers only where a
 *  heading above says the same); `againstHref(id)`, when given, links each opponent's
 *  games with the player. */
export function gamesTable(games, caption, id, captionShown = true, againstHref = null) {
  return h('table', { class: 'games-table', id },
    h('caption', { class: captionShown ? null : 'sr-only' }, caption),
    h('thead', {}, h('tr', {}, ['date', 'game', 'opponent', 'result', 'links'].map((c) => h('th', { scope: 'col' }, t('archive.col.' + c))))),
    h('tbody', {}, games.map((g) => h('tr', { 'data-game': g.id },
      h('td', {}, dateText(g.created)),
      h('td', {}, t(`game.${g.game}`), g.class ? ` (${t('people.class.' + g.class)})` : ''),
      h('td', {}, opponentOf(g), againstHref && g.opponent && g.opponent.id
        ? [h('br'), h('a', { href: againstHref(g.opponent.id), class: 'against' }, t('archive.against', { name: g.opponent.name }))] : ''),
      h('td', { class: `result result-${g.result}` }, t('player.result.' + g.result), g.rating_after ? ` · ${num(g.rating_after)}` : ''),
      h('td', { class: 'links' },
        h('a', { href: `#/game/${g.id}`, class: 'button small' }, t(g.result === 'ongoing' ? 'player.watch' : 'player.open')), ' ',
        g.result !== 'ongoing' ? [h('a', { href: `#/review/${g.id}`, class: 'button small' }, t('review.button')), ' '] : '',
        h('a', { href: `#/analysis/${g.game}?game=${g.id}`, class: 'button small' }, t('an.button')))))));
}

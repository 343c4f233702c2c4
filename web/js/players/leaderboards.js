// The leaderboards, #/leaderboards/GAME/CLASS: the top players of a game and rating
// class, by the server's rule (said on the page, from the answer), a game and a class
// to choose, and the search for a player by name.
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { leaderboard, searchPlayers } from '../net/players-api.js';
import { gameNames } from '../net/api.js';
import { errorBox } from './player-common.js';

export const CLASSES = ['blitz', 'rapid', 'classical', 'correspondence'];

function searchForm() {
  const out = h('div', { id: 'player-search-out', 'aria-live': 'polite' });
  const form = h('form', { id: 'player-search', role: 'search', onsubmit: async (e) => {
    e.preventDefault();
    out.replaceChildren();
    try {
      const r = await searchPlayers(form.name.value.trim());
      out.replaceChildren(r.players.length ? h('ul', { id: 'player-found' }, r.players.map((p) => h('li', {}, h('a', { href: `#/player/${p.id}` }, p.name))))
        : h('p', { class: 'muted' }, t('player.search.none')));
    } catch (err) { out.replaceChildren(errorBox(err)); }
  } },
    h('label', { for: 'player-search-name' }, t('player.search.label')), ' ',
    h('input', { id: 'player-search-name', name: 'name', required: true, maxlength: 40, type: 'search' }), ' ',
    h('button', { type: 'submit', id: 'player-search-go' }, t('player.search.go')));
  return [form, out];
}

export async function showLeaderboards(app, game, klass) {
  const games = await gameNames();
  if (!games.includes(game)) game = games.includes('chess') ? 'chess' : games[0];
  if (!CLASSES.includes(klass)) klass = 'blitz';
  document.title = `${t('board.heading')} — agora`;
  let body;
  try {
    const b = await leaderboard(game, klass);
    const caption = t('board.caption', { game: t(`game.${game}`), class: t('people.class.' + klass) });
    body = [h('p', { id: 'board-rule' }, t('board.rule', { games: b.rule.games, deviation: b.rule.deviation, days: b.rule.days })),
      b.players.length ? h('table', { id: 'board' },
        h('caption', {}, caption),
        h('thead', {}, h('tr', {}, ['rank', 'player', 'rating', 'games'].map((c) => h('th', { scope: 'col' }, t('board.col.' + c))))),
        h('tbody', {}, b.players.map((p) => h('tr', {},
          h('td', {}, num(p.rank)),
          h('th', { scope: 'row' }, h('a', { href: `#/player/${p.id}` }, p.name)),
          h('td', {}, num(p.rating)), h('td', {}, num(p.games))))))
        : h('p', { class: 'muted', id: 'board' }, t('board.none'))];
  } catch (err) { body = [errorBox(err)]; }
  const pick = (id, label, value, options) => [h('label', { for: id }, label), ' ',
    h('select', { id }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text))), ' '];
  app.replaceChildren(h('div', { class: 'narrow boards-page' },
    h('h1', {}, t('board.heading')),
    h('form', { class: 'filters', id: 'board-choose', onsubmit: (e) => {
      e.preventDefault();
      location.hash = `#/leaderboards/${e.target.querySelector('#board-game').value}/${e.target.querySelector('#board-class').value}`;
    } },
      pick('board-game', t('board.choose.game'), game, games.map((g) => [g, t(`game.${g}`)])),
      pick('board-class', t('board.choose.class'), klass, CLASSES.map((c) => [c, t('people.class.' + c)])),
      h('button', { type: 'submit', id: 'board-show' }, t('archive.filter.apply'))),
    ...body,
    h('section', { 'aria-labelledby': 'player-search-h' }, h('h2', { id: 'player-search-h' }, t('player.search')), ...searchForm())));
}

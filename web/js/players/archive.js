// A player's archive, #/player/ID/games?game=&opponent=&result=&from=&to=&page=: every
// game of theirs the server keeps, filtered and paged by the server, with links to
// watch, review and analyse each, and the export of one game's records (PGN for the
// game whose records are PGN) as one file.  The filters live in the address, so a
// filtered page can be kept and shared.
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { archive, exportUrl } from '../net/players-api.js';
import { gameNames } from '../net/api.js';
import { errorBox, gamesTable } from './player-common.js';

const FIELDS = ['game', 'opponent', 'result', 'from', 'to'];

function filtersOf(query) {
  const f = {};
  for (const k of [...FIELDS, 'page']) if (query.get(k)) f[k] = query.get(k);
  return f;
}

const go = (id, f) => { location.hash = `#/player/${id}/games?${new URLSearchParams(Object.entries(f).filter(([, v]) => v)).toString()}`; };

function select(id, name, value, options) {
  return h('select', { id, name }, options.map(([v, label]) => h('option', { value: v, selected: v === (value || '') }, label)));
}

export async function showArchive(app, id, query) {
  const f = filtersOf(query);
  const games = await gameNames();
  const msg = h('div', { 'aria-live': 'polite', id: 'archive-msg' });
  let a;
  try {
    a = await archive(id, f);
  } catch (err) {
    if (err.status === 404) throw err; // no such player: the router says so
    a = null;
    msg.replaceChildren(errorBox(err));
  }
  const name = a ? a.name : '';
  document.title = `${t('archive.heading', { name })} — agora`;
  const form = h('form', { id: 'archive-filters', class: 'filters', onsubmit: (e) => {
    e.preventDefault();
    const next = {};
    for (const k of FIELDS) next[k] = form[k].value.trim();
    go(id, next);
  } },
    h('label', { for: 'f-game' }, t('archive.filter.game')), ' ',
    select('f-game', 'game', f.game, [['', t('archive.filter.any')], ...games.map((g) => [g, t(`game.${g}`)])]), ' ',
    h('label', { for: 'f-opponent' }, t('archive.filter.opponent')), ' ',
    select('f-opponent', 'opponent', f.opponent,
      [['', t('archive.filter.any')], ['computer', t('archive.filter.computer')], ...(f.opponent && f.opponent !== 'computer' ? [[f.opponent, t('archive.filter.that')]] : [])]), ' ',
    h('label', { for: 'f-result' }, t('archive.filter.result')), ' ',
    select('f-result', 'result', f.result, [['', t('archive.filter.any')], ...['win', 'draw', 'loss', 'ongoing'].map((r) => [r, t('player.result.' + r)])]), ' ',
    h('label', { for: 'f-from' }, t('archive.filter.from')), ' ', h('input', { type: 'date', id: 'f-from', name: 'from', value: f.from || '' }), ' ',
    h('label', { for: 'f-to' }, t('archive.filter.to')), ' ', h('input', { type: 'date', id: 'f-to', name: 'to', value: f.to || '' }), ' ',
    h('button', { type: 'submit', class: 'primary', id: 'archive-apply' }, t('archive.filter.apply')));
  const page = Number(f.page || 1);
  const list = a && a.games.length ? gamesTable(a.games, t('archive.page', { n: num(page) }), 'archive-games', true, (opp) => `#/player/${id}/games?opponent=${opp}`) : h('p', { class: 'muted', id: 'archive-games' }, t('archive.none'));
  const nav = h('nav', { 'aria-label': t('archive.pages'), class: 'pager' },
    page > 1 ? h('a', { class: 'button', id: 'archive-newer', href: '#', onclick: (e) => { e.preventDefault(); go(id, { ...f, page: page - 1 > 1 ? page - 1 : '' }); } }, t('archive.prev')) : '', ' ',
    a && a.more ? h('a', { class: 'button', id: 'archive-older', href: '#', onclick: (e) => { e.preventDefault(); go(id, { ...f, page: page + 1 }); } }, t('archive.next')) : '');
  const exports = h('p', { id: 'archive-export' }, games.filter((g) => !f.game || g === f.game).flatMap((g) => [
    h('a', { class: 'button small', href: exportUrl(id, { ...f, game: g }), download: `${name || id}-${g}.pgn` }, t('archive.export', { game: t(`game.${g}`) })), ' ']));
  app.replaceChildren(h('div', { class: 'wide archive-page' },
    h('h1', {}, name ? h('a', { href: `#/player/${id}` }, name) : '', ' — ', t('archive.title')),
    form, msg, list, nav, h('h2', {}, t('archive.exports')), exports));
}

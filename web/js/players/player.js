// A player's page, #/player/ID: their ratings (a table), the rating history (a graph
// with its text alternative), results against the computer by level, puzzle ratings,
// clubs and recent games with links; on their own page, whether they hide from search
// and leaderboards.  #/me: the visitor's own page, or a name to choose first.  The
// search by name is on the leaderboards' page (leaderboards.js).
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { me, saveMe, player } from '../net/players-api.js';
import { visitor } from '../local/storage.js';
import { graphModel, ratingGraph } from './rating-graph.js';
import { dateText, errorBox, gamesTable } from './player-common.js';
import { devicesSection } from './devices.js';
import { challengeForm, awaitAccept } from '../people/people.js';
import { createChallenge } from '../net/people-api.js';

const section = (id, heading, ...body) => h('section', { 'aria-labelledby': `${id}-h`, id }, h('h2', { id: `${id}-h` }, heading), ...body);
const seriesName = (s) => `${t(`game.${s.game}`)} ${t('people.class.' + s.klass)}`;

function ratingsTable(p) {
  if (!p.ratings.length) return h('p', { class: 'muted' }, t('player.ratings.none'));
  return h('table', { id: 'player-ratings' },
    h('caption', { class: 'sr-only' }, t('player.ratings')),
    h('thead', {}, h('tr', {}, ['game', 'class', 'rating', 'deviation', 'games'].map((c) => h('th', { scope: 'col' }, t('player.col.' + c))))),
    h('tbody', {}, p.ratings.map((r) => h('tr', {},
      h('th', { scope: 'row' }, t(`game.${r.game}`)),
      h('td', {}, t('people.class.' + r.class)),
      h('td', {}, num(r.rating), r.established ? '' : h('span', { class: 'muted' }, ` (${t('player.provisional')})`)),
      h('td', {}, num(r.deviation)),
      h('td', {}, num(r.games))))));
}

function history(p) {
  if (!p.history.length) return h('p', { class: 'muted' }, t('player.history.none'));
  const describe = (s) => t('player.history.summary', { name: seriesName(s), first: num(s.first), last: num(s.last), high: num(s.high), low: num(s.low), n: s.points.length });
  const graph = ratingGraph(p.history, { title: t('player.history.title', { name: p.name }), label: seriesName, describe, num });
  // The graph's words, shown too: one sentence a game and class.
  return h('figure', { class: 'rating-history' }, graph,
    h('figcaption', { id: 'rating-graph-text' }, h('ul', {}, graphModel(p.history).series.map((s) => h('li', {}, describe(s))))));
}

function computer(p) {
  if (!p.computer.length) return h('p', { class: 'muted' }, t('player.computer.none'));
  return h('table', { id: 'player-computer' },
    h('caption', { class: 'sr-only' }, t('player.computer')),
    h('thead', {}, h('tr', {}, ['game', 'level', 'wins', 'draws', 'losses'].map((c) => h('th', { scope: 'col' }, t('player.col.' + c))))),
    h('tbody', {}, p.computer.map((r) => h('tr', {},
      h('th', { scope: 'row' }, t(`game.${r.game}`)), h('td', {}, num(r.level)),
      h('td', {}, num(r.wins)), h('td', {}, num(r.draws)), h('td', {}, num(r.losses))))));
}

function hideSwitch(p, msg) {
  const box = h('input', { type: 'checkbox', id: 'player-hidden', checked: p.hidden, onchange: async () => {
    msg.replaceChildren();
    try {
      const r = await saveMe({ hidden: box.checked });
      msg.replaceChildren(h('p', {}, t(r.hidden ? 'player.hidden.on' : 'player.hidden.off')));
    } catch (err) { box.checked = !box.checked; msg.replaceChildren(errorBox(err)); }
  } });
  return h('p', {}, box, ' ', h('label', { for: 'player-hidden' }, t('player.hidden.label')));
}

// Another player's page: a challenge made to them (API.md "Notifications": they are
// told of it on every device), then the game once they accept.
async function challengeThem(p, stops) {
  const out = h('div', { 'aria-live': 'polite', id: 'player-challenge-out' });
  const form = await challengeForm('player-challenge', t('player.challenge.send'), async (f) => {
    const c = await createChallenge({ ...f, to: p.id });
    out.replaceChildren(h('p', { id: 'player-challenge-sent' }, t('player.challenge.sent', { name: p.name })));
    stops.push(awaitAccept(c.id, f.game, (st) => out.replaceChildren(h('p', {}, t('people.status.' + st)))));
  });
  return [form, out];
}

export async function showPlayer(app, id) {
  const p = await player(id);
  const stops = [];
  document.title = `${p.name} — agora`;
  const msg = h('div', { 'aria-live': 'polite', id: 'player-msg' });
  app.replaceChildren(h('div', { class: 'narrow player-page' },
    h('h1', {}, p.name),
    h('p', { class: 'muted' }, t('player.since', { date: dateText(p.created) })),
    p.me ? [hideSwitch(p, msg), msg] : '',
    section('player-ratings-s', t('player.ratings'), ratingsTable(p)),
    section('player-history', t('player.history'), history(p)),
    section('player-computer-s', t('player.computer'), computer(p)),
    section('player-puzzles', t('player.puzzles'), p.puzzles.length ? h('ul', {}, p.puzzles.map((z) => h('li', {},
      t('player.puzzles.row', { game: t(`game.${z.game}`), rating: num(z.rating), solved: num(z.solved), attempts: num(z.attempts) }))))
      : h('p', { class: 'muted' }, t('player.puzzles.none'))),
    section('player-clubs', t('player.clubs'), p.clubs.length ? h('ul', {}, p.clubs.map((c) => h('li', {},
      h('a', { href: `#/club/${c.id}` }, c.name), ' ', h('span', { class: 'muted' }, t('club.role.' + c.role)))))
      : h('p', { class: 'muted' }, t('player.clubs.none'))),
    section('player-games', t('player.games'),
      p.games.length ? gamesTable(p.games, t('player.games'), 'player-recent', false) : h('p', { class: 'muted' }, t('player.games.none')),
      h('p', {}, h('a', { class: 'button', id: 'player-archive', href: `#/player/${p.id}/games` }, t('player.games.all')))),
    p.me ? devicesSection() : section('player-challenge', t('player.challenge', { name: p.name }), ...(await challengeThem(p, stops)))));
  return () => { for (const stop of stops) if (stop) stop(); };
}

/** #/me: the visitor's page, or the name to choose before there is one. */
export async function showMe(app) {
  const mine = await me();
  if (mine) {
    location.replace(`#/player/${mine.id}`);
    return;
  }
  document.title = `${t('nav.me')} — agora`;
  const msg = h('div', { 'aria-live': 'polite' });
  const form = h('form', { id: 'me-form', onsubmit: async (e) => {
    e.preventDefault();
    msg.replaceChildren();
    try {
      const r = await saveMe({ name: form.name.value.trim() });
      location.hash = `#/player/${r.id}`;
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  } },
    h('p', {}, h('label', { for: 'me-name' }, t('people.name')), ' ',
      h('input', { id: 'me-name', name: 'name', required: true, maxlength: 40, value: visitor().name || '' }), ' ',
      h('button', { type: 'submit', class: 'primary', id: 'me-save' }, t('player.me.save'))), msg);
  app.replaceChildren(h('div', { class: 'narrow' }, h('h1', {}, t('nav.me')), h('p', {}, t('player.me.noname')), form,
    h('p', {}, h('a', { href: '#/signin', id: 'me-signin' }, t('signin.elsewhere')))));
}

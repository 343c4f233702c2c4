// agora in the browser: the shell (header, language switcher, router) and the home,
// new-game and rules pages.  The play page lives in play.js.  Routes (location.hash):
//   #/                 home: the server's games (its catalogue), the visitor's unfinished games
//   #/new/GAME         new game: level, side, optional start position
//   #/game/ID          play
//   #/rules/GAME       rules
//   #/analysis/GAME    the analysis board (?position=&moves=, or ?game=ID) — analysis.js
//   #/review/ID        a game's review on the analysis board
//   #/people           play people: an invite link, the lobby — people.js
//   #/challenge/ID     an invite link: accept it — people.js
//   #/clubs, #/club/ID clubs — clubs.js
//   #/tournaments, #/tournament/ID  tournaments — tournaments/tournaments.js
//   #/learn[/GAME[/LESSON]], #/demo/GAME/ID, #/coordinates/GAME, #/openings — learn.js, demo.js, coords.js, openings.js
//   #/puzzles[/GAME]   puzzles — puzzles.js
//   #/player/ID[/games?...], #/me, #/leaderboards[/GAME/CLASS] — players/
import { LANGUAGES, errorText, pickLanguage, setLanguage, t, translate, language } from './common/i18n.js';
import * as api from './net/api.js';
import { drawBoard } from './board/board.js';
import { h } from './common/dom.js';
import { showGame } from './play/play.js';
import { showAnalysis } from './analysis/analysis.js';
import { showPuzzles, showPuzzleHome } from './puzzles/puzzles.js';
import { showRules, loadDiagrams, diagramPieces } from './learn/rules.js';
import { showPeople, showChallenge } from './people/people.js';
import { showClubs, showClub } from './clubs/clubs.js';
import { showTournaments, showTournament } from './tournaments/tournaments.js';
import { showLearn } from './learn/learn.js';
import { showDemo } from './learn/demo.js';
import { showCoordinates } from './learn/coords.js';
import { showOpenings } from './openings/openings.js';
import { showPlayer, showMe } from './players/player.js';
import { showArchive } from './players/archive.js';
import { showSignin } from './players/devices.js';
import { showLeaderboards } from './players/leaderboards.js';
import { syncProgress, mergeOldTokens } from './net/players-api.js';
import { startBell, bellCheck, bellTranslate } from './notices/bell.js';
import { levelPicker, rememberedLevel, rememberLevel } from './play/levels.js';
import { themeSwitch } from './common/theme.js';
import './common/pwa.js';

const app = document.getElementById('app');
let leave = null; // cleanup of the page being shown (closes event streams)

async function levelSelect(id, game, value) {
  return levelPicker(id, await api.levelsOf(game), value || rememberedLevel(game));
}

function sideSelect(id, value = 'white') {
  const sel = h('select', { id, name: 'side' });
  for (const s of ['white', 'black', 'random']) sel.append(h('option', { value: s, selected: s === value }, t('side.' + s)));
  return sel;
}

export async function startGame(game, level, side, position) {
  rememberLevel(game, level);
  const state = await api.createGame({ game, level: Number(level), side, position: position || undefined });
  location.hash = `#/game/${state.id}`;
}

function errorBox(err) {
  return h('p', { class: 'error', role: 'alert' }, t('error.generic', { message: errorText(err) }));
}

async function showHome() {
  document.title = t('app.title');
  const games = await api.gameNames();
  const cards = h('div', { class: 'cards' });
  // The visitor's unfinished games come first, once there are any.
  const page = h('div', { class: 'home' },
    h('section', { class: 'hero' }, h('h1', {}, t('home.heading')), h('p', {}, t('home.tagline'))),
    h('section', { class: 'unfinished', id: 'unfinished', 'aria-labelledby': 'unfinished-h', hidden: api.knownGameIds().length === 0 },
      h('h2', { id: 'unfinished-h' }, t('home.unfinished')),
      h('div', { id: 'unfinished-list' }, h('p', { class: 'muted' }, t('home.loading')))),
    cards,
    h('section', { class: 'finished', id: 'finished', 'aria-labelledby': 'finished-h', hidden: true },
      h('h2', { id: 'finished-h' }, t('home.finished')),
      h('div', { id: 'finished-list' })),
    h('p', { class: 'learn-links' }, h('a', { class: 'button primary', href: '#/learn', id: 'home-learn' }, t('learn.home')), ' ', t('learn.home.text')),
    h('p', { class: 'analysis-links' }, t('home.analyse'), ' ', games.map((g) => h('a', { class: 'button small', href: `#/analysis/${g}` }, t(`game.${g}`)))),
    h('p', { class: 'puzzle-links' }, h('a', { class: 'button', id: 'puzzles-link', href: '#/puzzles' }, t('pz.home'))));
  app.replaceChildren(page);
  // The cards in the catalogue's order.
  for (const game of games) {
    const pic = h('div', { class: 'card-board', 'aria-hidden': 'true' });
    const { select: lvl, about } = await levelSelect(`level-${game}`, game);
    const side = sideSelect(`side-${game}`);
    const msg = h('div', {});
    const card = h('article', { class: 'card', 'data-game': game },
      h('a', { href: `#/rules/${game}`, class: 'card-pic', tabindex: '-1', 'aria-hidden': 'true' }, pic),
      h('h2', {}, t(`game.${game}`)),
      h('p', { class: 'blurb' }, t(`game.${game}.blurb`)),
      h('form', { class: 'quick', onsubmit: async (e) => {
        e.preventDefault();
        msg.replaceChildren();
        try { await startGame(game, lvl.value, side.value); } catch (err) { msg.replaceChildren(errorBox(err)); }
      } },
        h('label', { for: lvl.id }, t('new.level')), lvl, about,
        h('label', { for: side.id }, t('new.side')), side,
        h('div', { class: 'actions' },
          h('button', { type: 'submit', class: 'primary play-button' }, t('home.play')),
          h('a', { href: `#/rules/${game}`, class: 'button rules-link' }, t('home.rules')))),
      msg);
    cards.append(card);
    Promise.all([api.layoutOf(game), loadDiagrams(game)]).then(([board, diagrams]) =>
      drawBoard(pic, board, diagramPieces(diagrams.start), { game, title: t(`game.${game}`) }));
  }
  listUnfinished(page.querySelector('#unfinished-list'));
}

async function listUnfinished(host) {
  const rows = [];
  const done = [];
  await Promise.all(api.knownGameIds().map(async (id) => {
    try {
      const s = await api.getGame(id);
      if (s.status.result === 'ongoing') rows.push(s);
      else done.push(s);
    } catch (err) {
      if (err.status === 404) api.forgetGame(id);
    }
  }));
  rows.sort((a, b) => String(b.updated || '').localeCompare(String(a.updated || '')));
  listFinished(document.getElementById('finished-list'), done);
  if (!rows.length) {
    host.replaceChildren(h('p', { class: 'muted' }, t('home.none')));
    host.parentNode.hidden = true;
    return;
  }
  host.parentNode.hidden = false;
  host.replaceChildren(h('ul', { class: 'game-list' }, rows.map((s) => {
    const thumb = h('span', { class: 'thumb', 'aria-hidden': 'true' });
    drawBoard(thumb, s.layout, s.pieces, { game: s.game, flipped: s.human_side === 'black' });
    return h('li', { 'data-id': s.id },
      h('a', { href: `#/game/${s.id}`, class: 'resume' }, thumb,
        h('strong', {}, t(`game.${s.game}`)), ' ',
        h('span', {}, rowText(s)),
        h('span', { class: 'button small' }, t('home.resume'))));
  })));
}

// Moves as a player counts them: one move each is one move (the plies, halved, up).
function rowText(s) {
  const moves = Math.ceil(s.moves.length / 2);
  const opponent = s.people && (s.players[s.human_side === 'white' ? 'black' : 'white'] || {}).name;
  const row = s.people ? t('people.home.row', { side: t('side.' + s.human_side), name: opponent, n: moves })
    : t('home.row', { side: t('side.' + s.human_side), level: s.level, n: moves });
  return s.takebacks > 0 ? row + ' · ' + t('home.takebacks', { n: s.takebacks }) : row;
}

function resultOf(s) {
  const r = s.status.result;
  if (r === 'draw') return t('result.drawn');
  return s.status.winner === s.human_side ? t('result.won') : t(s.people ? 'people.lost' : 'result.lost');
}

// Finished games stay listed, with their result, a review and the analysis board.
function listFinished(host, games) {
  if (!host) return;
  games.sort((a, b) => String(b.updated || '').localeCompare(String(a.updated || '')));
  host.parentNode.hidden = !games.length;
  host.replaceChildren(h('ul', { class: 'game-list finished-list' }, games.map((s) => {
    const thumb = h('span', { class: 'thumb', 'aria-hidden': 'true' });
    drawBoard(thumb, s.layout, s.pieces, { game: s.game, flipped: s.human_side === 'black' });
    return h('li', { 'data-id': s.id },
      h('div', { class: 'row' }, thumb,
        h('a', { href: `#/game/${s.id}` }, h('strong', {}, t(`game.${s.game}`))), ' ',
        h('span', { class: 'result' }, resultOf(s), ' — ', t('reason.' + s.status.reason)), ' ',
        h('span', { class: 'muted' }, rowText(s)),
        h('span', { class: 'row-actions' },
          h('a', { class: 'button small primary review-button', href: `#/review/${s.id}` }, t('review.button')),
          h('a', { class: 'button small', href: `#/analysis/${s.game}?game=${s.id}` }, t('an.button')))));
  })));
}

async function showNew(game) {
  if (!(await api.gameNames()).includes(game)) return showHome();
  const q = new URLSearchParams(location.hash.split('?')[1] || '');
  document.title = `${t('new.heading', { game: t(`game.${game}`) })} — agora`;
  const { select: lvl, about } = await levelSelect('level', game, Number(q.get('level')));
  const side = sideSelect('side', q.get('side') || 'white');
  const pos = h('textarea', { id: 'position', rows: 2, spellcheck: 'false' });
  const msg = h('div', {});
  app.replaceChildren(h('div', { class: 'narrow' },
    h('h1', {}, t('new.heading', { game: t(`game.${game}`) })),
    h('form', { class: 'new-game', onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      try { await startGame(game, lvl.value, side.value, pos.value.trim()); } catch (err) { msg.replaceChildren(errorBox(err)); }
    } },
      h('p', {}, h('label', { for: 'level' }, t('new.level')), ' ', lvl, h('span', { class: 'muted' }, ' ', t('new.level.hint'))), about,
      h('p', {}, h('label', { for: 'side' }, t('new.side')), ' ', side),
      h('details', {}, h('summary', {}, t('new.position')), h('p', { class: 'muted' }, t('new.position.hint')), pos),
      h('p', {}, h('button', { type: 'submit', class: 'primary' }, t('new.start'))),
      msg)));
}

function header() {
  const sel = document.getElementById('lang');
  sel.replaceChildren(...LANGUAGES.map((code) => h('option', { value: code, selected: code === language() }, t('lang.' + code))));
  translate(document.querySelector('header'));
  themeSwitch(document.querySelector('header.top'));
  translate(document.querySelector('footer'));
  for (const skip of document.querySelectorAll('a.skip')) skip.textContent = t(skip.dataset.i18n); // outside header and footer
}

async function route() {
  if (leave) { leave(); leave = null; }
  const [path] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  window.scrollTo(0, 0);
  try {
    if (parts[0] === 'game' && parts[1]) leave = await showGame(app, decodeURIComponent(parts[1]));
    else if (parts[0] === 'new' && parts[1]) await showNew(parts[1]);
    else if (parts[0] === 'people') leave = await showPeople(app);
    else if (parts[0] === 'challenge' && parts[1]) await showChallenge(app, decodeURIComponent(parts[1]));
    else if (parts[0] === 'clubs') await showClubs(app);
    else if (parts[0] === 'club' && parts[1]) leave = await showClub(app, decodeURIComponent(parts[1]));
    else if (parts[0] === 'tournaments') leave = await showTournaments(app);
    else if (parts[0] === 'tournament' && parts[1]) leave = await showTournament(app, decodeURIComponent(parts[1]));
    else if (parts[0] === 'player' && parts[1] && parts[2] === 'games') await showArchive(app, decodeURIComponent(parts[1]), new URLSearchParams(location.hash.split('?')[1] || ''));
    else if (parts[0] === 'player' && parts[1]) leave = await showPlayer(app, decodeURIComponent(parts[1]));
    else if (parts[0] === 'me') await showMe(app);
    else if (parts[0] === 'signin') await showSignin(app, parts[1] ? decodeURIComponent(parts[1]) : null);
    else if (parts[0] === 'leaderboards') await showLeaderboards(app, parts[1], parts[2]);
    else if (parts[0] === 'analysis' && parts[1]) leave = await showAnalysis(app, { game: decodeURIComponent(parts[1]) });
    else if (parts[0] === 'review' && parts[1]) leave = await showAnalysis(app, { gameId: decodeURIComponent(parts[1]), review: true });
    else if (parts[0] === 'learn') await showLearn(app, parts.slice(1).map(decodeURIComponent));
    else if (parts[0] === 'demo' && parts[2]) leave = await showDemo(app, parts[1], decodeURIComponent(parts[2]));
    else if (parts[0] === 'openings') leave = await showOpenings(app);
    else if (parts[0] === 'coordinates' && parts[1]) leave = await showCoordinates(app, parts[1]);
    else if (parts[0] === 'puzzles') leave = parts[1] ? await showPuzzles(app, decodeURIComponent(parts[1]), new URLSearchParams(location.hash.split('?')[1] || '')) : await showPuzzleHome(app);
    else if (parts[0] === 'rules' && (await api.gameNames()).includes(parts[1])) await showRules(app, parts[1]);
    else await showHome();
  } catch (err) {
    app.replaceChildren(h('div', { class: 'narrow' }, errorBox(err), h('p', {}, h('a', { class: 'button', href: '#/' }, t('nav.home')))));
  }
  app.focus({ preventScroll: true });
}

// Told once the strings are loaded and on each change of language: what was written
// before then (the offline note, common/pwa.js) is written again in the language.
const ready = () => document.dispatchEvent(new Event('agora:ready'));

// The header's menu button (shown on a phone, css/agora.css): opens and closes the
// links; a link followed closes them.
function menu() {
  const top = document.querySelector('header.top');
  const btn = document.getElementById('menu');
  const set = (open) => {
    top.classList.toggle('open', open);
    btn.setAttribute('aria-expanded', open ? 'true' : 'false');
  };
  btn.addEventListener('click', () => set(!top.classList.contains('open')));
  window.addEventListener('hashchange', () => set(false));
}

// The visitor's progress (stars, best scores, the repertoire) goes to the server and
// comes back merged with their other browsers' (net/players-api.js): on the first load,
// on leaving a page (at most every 20 s) and when the tab is hidden.  Without a server
// (offline) it waits for the next time.
const SYNC_MS = 20000;
let lastSync = 0;
function sync(force = false) {
  if (!force && Date.now() - lastSync < SYNC_MS) return Promise.resolve();
  lastSync = Date.now();
  return syncProgress().catch(() => { lastSync = 0; });
}

async function main() {
  await setLanguage(pickLanguage());
  await mergeOldTokens().catch(() => {}); // offline: the next load merges them
  await sync(true);
  header();
  menu();
  startBell(document.getElementById('bell-host'));
  ready();
  document.getElementById('lang').addEventListener('change', async (e) => {
    await setLanguage(e.target.value, true);
    header();
    bellTranslate();
    ready();
    route();
  });
  window.addEventListener('hashchange', () => { sync(); bellCheck(); route(); });
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') sync(true); });
  await route();
  document.body.dataset.ready = '1';
}

main();

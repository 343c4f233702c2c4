// Browser tests of the players' pages (issue 28), end to end against `./agora serve`
// (AGORA_BIN) on a free port with a fresh database and a leaderboard rule of 2 games:
// games are made through the API (two rated blitz games of chess between Ann and Bob,
// a game of Egara-guti against the computer under Ann's token), then Ann's page (her
// ratings, the graph and its words, her results against the computer, her games with
// links), the archive (a filter, the export), the leaderboard and the search are
// opened as a visitor would, hiding is switched on and off, and the pages are checked
// in four languages, for contrast and by keyboard.
// Prints one line per test and, last, "N passed, N failed".
//   node tests/e2e/players.mjs [name-filter]
import { readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch } from './browser.mjs';
import { checkPage } from './a11y.mjs';

process.env.AGORA_SERVE = '1';
process.env.AGORA_SERVE_ARGS = '--board-games 2 --board-deviation 350 --rated-per-pair 0 --people-per-minute 0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LANGS = ['en', 'bn', 'as', 'fi'];
const shots = join(root, 'build', 'screenshots');
mkdirSync(shots, { recursive: true });
const ANN = 'Ann Ölvir অ';
const filter = process.argv[2] || '';
const tests = [];
const test = (name, fn) => tests.push({ name, fn });
let srv, browser, passed = 0, failed = 0;
const who = {}; // name -> {token, id}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const catalogue = (lang) => ({
  ...JSON.parse(readFileSync(join(root, 'web', 'i18n', `${lang}.json`), 'utf8')),
  ...JSON.parse(readFileSync(join(root, 'web', 'i18n', 'people', `${lang}.json`), 'utf8')),
  ...JSON.parse(readFileSync(join(root, 'web', 'i18n', 'players', `${lang}.json`), 'utf8')),
});

async function call(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(srv.url + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// A rated blitz game of chess, Ann white, Bob black; the loser resigns after a move each.
async function ratedGame(annLoses) {
  const c = await call('POST', '/api/challenges', { game: 'chess', clock: { initial: 180, increment: 2 }, side: 'white', rated: true, name: ANN }, who.ann && who.ann.token);
  who.ann = { ...who.ann, token: c.token };
  const g = await call('POST', `/api/challenges/${c.id}/accept`, { name: 'Bob' }, who.bob && who.bob.token);
  who.bob = { ...who.bob, token: g.token };
  await call('POST', `/api/games/${g.id}/moves`, { move: 'e2e4' }, who.ann.token);
  await call('POST', `/api/games/${g.id}/moves`, { move: 'e7e5' }, who.bob.token);
  await call('POST', `/api/games/${g.id}/resign`, {}, annLoses ? who.ann.token : who.bob.token);
}

async function open(hash, { lang = 'en', as = null, storage = {} } = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await ctx.exposeFunction('__errorBox', (text) => errors.push('error box: ' + text));
  await ctx.addInitScript(() => new MutationObserver(() => {
    for (const b of document.querySelectorAll('.error:not([data-seen])')) if (b.textContent.trim()) { b.dataset.seen = '1'; window.__errorBox(b.textContent.trim()); }
  }).observe(document, { childList: true, subtree: true, characterData: true }));
  await ctx.addInitScript(([l, v, s]) => {
    localStorage.setItem('agora.lang', l);
    if (v && !localStorage.getItem('agora.identity')) localStorage.setItem('agora.identity', JSON.stringify({ people: v }));
    for (const [k, val] of Object.entries(s)) if (!localStorage.getItem(k)) localStorage.setItem(k, JSON.stringify(val));
  }, [lang, as, storage]);
  page.setDefaultTimeout(20000);
  await page.goto(`${srv.url}/${hash}`);
  await page.waitForSelector('body[data-ready]');
  page.done = async () => {
    assert(!errors.length, 'page errors: ' + errors.join('; '));
    await ctx.close();
  };
  return page;
}

test('games made through the API show on the player page, the archive and the leaderboard', async () => {
  await ratedGame(false);
  await ratedGame(false);
  // A game against the computer under Ann's token is hers.
  const g = await call('POST', '/api/games', { game: 'egara-guti', level: 1, side: 'white' }, who.ann.token);
  assert(g.token === who.ann.token, 'the computer game got another token');
  await call('POST', `/api/games/${g.id}/resign`, {}, who.ann.token);
  who.ann.id = (await call('GET', '/api/me', null, who.ann.token)).id;
  who.bob.id = (await call('GET', '/api/me', null, who.bob.token)).id;

  // "Me" in the header leads Ann to her page.
  const a = await open('#/', { as: { token: who.ann.token, name: ANN } });
  await a.click('nav a[href="#/me"]');
  await a.waitForURL(`**/#/player/${who.ann.id}`);
  await a.waitForSelector('#player-ratings');
  assert((await a.textContent('h1')) === ANN, 'the name as written');
  const row = await a.textContent('#player-ratings tbody tr');
  assert(/Chess/.test(row) && /blitz/.test(row), `ratings row: ${row}`);
  const rating = Number(await a.textContent('#player-ratings tbody tr td:nth-child(3)').then((x) => x.match(/\d+/)[0]));
  assert(rating > 1500, `Ann's rating ${rating}`);
  // The graph: an image with a title and words, one line for chess blitz with 2 points.
  assert(await a.$eval('svg.rating-graph', (s) => s.getAttribute('role') === 'img' && s.querySelector('title').textContent.length > 0), 'graph role and title');
  assert(await a.$$eval('svg.rating-graph .series circle', (c) => c.length) === 2, 'two points');
  const words = await a.textContent('#rating-graph-text');
  assert(words.includes(String(rating)) && /2 rated games/.test(words), `graph words: ${words}`);
  const comp = await a.textContent('#player-computer tbody');
  assert(/Egara-guti/.test(comp), `computer results: ${comp}`);
  // Recent games: Bob's name links to his page; the game links to watch and review.
  const bobLink = await a.$(`#player-recent a[href="#/player/${who.bob.id}"]`);
  assert(bobLink, 'a link to Bob');
  assert(await a.$('#player-recent a[href^="#/review/"]'), 'a review link');
  assert(await a.$('#player-hidden'), 'her own page offers hiding');
  await a.screenshot({ path: join(shots, 'player.png'), fullPage: true });
  // The archive, filtered by game.
  await a.click('#player-archive');
  await a.waitForSelector('#archive-filters');
  assert(await a.$$eval('#archive-games tbody tr', (r) => r.length) === 3, 'three games');
  await a.selectOption('#f-game', 'chess');
  await a.click('#archive-apply');
  await a.waitForFunction(() => location.hash.includes('game=chess') && document.querySelectorAll('#archive-games tbody tr').length === 2);
  await a.screenshot({ path: join(shots, 'archive.png'), fullPage: true });
  const href = await a.getAttribute('#archive-export a', 'href');
  assert(href.includes('game=chess'), `export link ${href}`);
  const pgn = await (await fetch(srv.url + href)).text();
  assert((pgn.match(/\[Event /g) || []).length === 2 && pgn.includes(`[White "${ANN}"]`), `export: ${pgn.slice(0, 200)}`);
  // The games against one opponent, from a row.
  await a.click(`#archive-games a.against[href*="opponent=${who.bob.id}"]`);
  // (The unfiltered page has the same two rows: wait for the filtered one's filter, or
  // the check may read the page before it is drawn again.)
  await a.waitForFunction((bob) => location.hash.includes(`opponent=${bob}`) && document.querySelector('#f-opponent')?.value === bob && document.querySelectorAll('#archive-games tbody tr').length === 2, who.bob.id).catch(() => {});
  assert((await a.$eval('#f-opponent', (s) => s.value)) === who.bob.id, 'the opponent chosen in the filter');
  // The leaderboard, through the header.
  await a.click('nav a[href="#/leaderboards"]');
  await a.waitForSelector('#board tbody tr');
  const names = await a.$$eval('#board tbody th', (c) => c.map((x) => x.textContent));
  assert(names[0] === ANN && names[1] === 'Bob', `board: ${names}`);
  assert((await a.textContent('#board-rule')).includes('2 rated games'), 'the rule is said');
  await a.screenshot({ path: join(shots, 'leaderboard.png'), fullPage: true });
  // The search by name, then Bob's page.
  await a.fill('#player-search-name', 'bob');
  await a.click('#player-search-go');
  await a.click(`#player-found a[href="#/player/${who.bob.id}"]`);
  await a.waitForFunction(() => document.querySelector('h1') && document.querySelector('h1').textContent === 'Bob');
  assert(!(await a.$('#player-hidden')), 'not on another player\'s page');
  // A game's page links both names to their pages.
  const arch = await call('GET', `/api/players/${who.ann.id}/games?game=chess`);
  await a.goto(`${srv.url}/#/game/${arch.games[0].id}`);
  await a.click(`a.player-link[href="#/player/${who.ann.id}"]`);
  await a.waitForFunction((n) => document.querySelector('h1') && document.querySelector('h1').textContent === n, ANN);
  await a.done();
});

test('a player who hides is in no search and on no leaderboard; shown again', async () => {
  const a = await open(`#/player/${who.ann.id}`, { as: { token: who.ann.token, name: ANN } });
  await a.waitForSelector('#player-hidden');
  await a.check('#player-hidden');
  await a.waitForSelector('#player-msg p');
  const b = await open('#/leaderboards/chess/blitz', { as: { token: who.bob.token, name: 'Bob' } });
  await b.waitForSelector('#board tbody tr');
  const names = await b.$$eval('#board tbody th', (c) => c.map((x) => x.textContent));
  assert(!names.includes(ANN) && names.includes('Bob'), `board while hidden: ${names}`);
  await b.fill('#player-search-name', 'ann');
  await b.click('#player-search-go');
  await b.waitForSelector('#player-search-out p');
  await a.uncheck('#player-hidden');
  await a.waitForFunction(() => !document.querySelector('#player-hidden').checked && document.querySelector('#player-msg p'));
  await b.click('#player-search-go');
  await b.waitForSelector(`#player-found a[href="#/player/${who.ann.id}"]`);
  await a.done();
  await b.done();
});

test('the pages in every language: no key shown, numbers in the language\'s digits', async () => {
  for (const lang of LANGS) {
    const cat = catalogue(lang);
    for (const hash of [`#/player/${who.ann.id}`, `#/player/${who.ann.id}/games`, '#/leaderboards/chess/blitz']) {
      const p = await open(hash, { lang });
      await p.waitForSelector('h1');
      await p.waitForSelector('table');
      const text = await p.textContent('#app');
      assert(!/\b(player|archive|board)\.[a-z.]+/.test(text), `${lang} ${hash}: a key shown: ${text.match(/\b(player|archive|board)\.[a-z.]+/)}`);
      const h = await p.textContent('#app h2, #app h1');
      assert(h.length > 0, 'a heading');
      if (hash.includes('leaderboards')) assert((await p.textContent('h1')) === cat['board.heading'], `${lang}: heading`);
      const cellsText = await p.$$eval('table td', (c) => c.map((x) => x.textContent).join(' '));
      if (lang === 'bn' || lang === 'as') assert(!/[0-9]/.test(cellsText) && /[০-৯]/.test(cellsText), `${lang} ${hash}: digits in ${cellsText.slice(0, 80)}`);
      await p.done();
    }
  }
});

test('contrast and keyboard on the player page and the leaderboard', async () => {
  const fails = [];
  for (const theme of ['light', 'dark']) {
    const p = await open(`#/player/${who.ann.id}`, { as: { token: who.ann.token, name: ANN } });
    const r1 = await checkPage(p, { theme, keys: theme === 'light', sel: '#player-ratings', label: 'player page' });
    const r2 = await checkPage(p, { theme, keys: theme === 'light', url: `${srv.url}/#/leaderboards/chess/blitz`, sel: '#board tbody tr', label: 'leaderboard' });
    fails.push(...r1.fails, ...r2.fails);
    await p.done();
  }
  assert(!fails.length, [...new Set(fails)].slice(0, 40).join('; '));
});

test('progress follows the player to another browser, merged with what it kept', async () => {
  const stored = (p, key) => p.evaluate((k) => JSON.parse(localStorage.getItem(k) || 'null'), key);
  // A learner without a token: the first load sends the stars and makes one.
  const a = await open('#/learn', { storage: { 'agora.learn': { 'agon/1/1': 3 }, 'agora.coords': { 'chess:white': 7 } } });
  const token = (await stored(a, 'agora.identity')).people.token;
  assert(/^[0-9a-f]{32}$/.test(token), `a token: ${token}`);
  // The same player's other browser, with stars of its own.
  const b = await open('#/learn', { as: { token }, storage: { 'agora.learn': { 'agon/1/1': 1, 'chess/1/1': 2 } } });
  const merged = await stored(b, 'agora.learn');
  assert(merged['agon/1/1'] === 3 && merged['chess/1/1'] === 2, `merged on b: ${JSON.stringify(merged)}`);
  assert((await stored(b, 'agora.coords'))['chess:white'] === 7, 'best scores follow');
  await a.reload();
  await a.waitForSelector('body[data-ready]');
  const back = await stored(a, 'agora.learn');
  assert(back['chess/1/1'] === 2 && back['agon/1/1'] === 3, `merged on a: ${JSON.stringify(back)}`);
  await a.done();
  await b.done();
});

try {
  srv = await startServer();
  ({ browser } = await launch());
  for (const t of tests) {
    if (filter && !t.name.includes(filter)) continue;
    const t0 = Date.now();
    try {
      await t.fn();
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      console.log(`FAIL ${t.name}: ${err.message.split('\n')[0]}`);
      if (process.env.E2E_STACK) console.log(err.stack);
    }
  }
} catch (err) {
  failed++;
  console.log(`FAIL setup: ${err.message}`);
} finally {
  if (browser) await browser.close();
  if (srv) srv.stop();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

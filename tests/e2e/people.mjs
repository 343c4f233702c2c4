// Browser tests of playing people, end to end against `./agora serve` (AGORA_BIN) on a
// free port with a fresh database: two browser contexts play a whole clocked chess
// game through the invite link (fool's mate) while a third watches it, with the viewer
// count and ticking clocks (the creator's page follows the accept on the challenge's
// event stream, without polling it); a creator whose stream is refused falls back to
// polling; a club created, joined and used for a challenge, the club page refreshing
// by itself; the people and club pages in all four languages.
// Prints one line per test and, last, "N passed, N failed".
//   node tests/e2e/people.mjs [name-filter]
import { readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch } from './browser.mjs';
import { checkPage } from './a11y.mjs';

process.env.AGORA_SERVE = '1';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'build', 'screenshots');
mkdirSync(shots, { recursive: true });
const LANGS = ['en', 'bn', 'as', 'fi'];
const filter = process.argv[2] || '';
const tests = [];
const test = (name, fn) => tests.push({ name, fn });
let srv, browser, passed = 0, failed = 0;

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const catalogue = (lang) => ({
  ...JSON.parse(readFileSync(join(root, 'web', 'i18n', `${lang}.json`), 'utf8')),
  ...JSON.parse(readFileSync(join(root, 'web', 'i18n', 'people', `${lang}.json`), 'utf8')),
  ...JSON.parse(readFileSync(join(root, 'web', 'i18n', 'people2', `${lang}.json`), 'utf8')),
});

// The API requests a page makes (method and path), from now on.
function recordRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(`${r.method()} ${u.pathname}`);
  });
  return seen;
}

async function open(hash, lang = 'en') {
  // No service worker: it would hide the page's requests from page.route.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (/Content Security Policy|CSP violation/.test(m.text())) errors.push(m.text()); });
  // A "Something went wrong" box (class "error") is a page error too.
  await ctx.exposeFunction('__errorBox', (text) => errors.push('error box: ' + text));
  await ctx.addInitScript(() => new MutationObserver(() => {
    for (const b of document.querySelectorAll('.error:not([data-seen])')) if (b.textContent.trim()) { b.dataset.seen = '1'; window.__errorBox(b.textContent.trim()); }
  }).observe(document, { childList: true, subtree: true, characterData: true }));
  await ctx.addInitScript((l) => localStorage.setItem('agora.lang', l), lang);
  page.setDefaultTimeout(20000);
  await page.goto(`${srv.url}/${hash}`);
  await page.waitForSelector('body[data-ready]');
  page.done = async () => {
    assert(!errors.length, 'page errors: ' + errors.join('; '));
    await ctx.close();
  };
  return page;
}

const cell = (name) => `#board [data-cell="${name}"]`;
const plies = (page) => page.$$eval('#moves .ply', (n) => n.length);
async function waitPlies(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves .ply:not(.pending)').length >= k, n);
}

test('two people play a clocked chess game through the invite link while a third watches', async () => {
  const a = await open('#/people');
  await a.fill('#invite-name', 'Ann');
  await a.selectOption('#invite-game', 'chess');
  await a.selectOption('#invite-clock', '3+2');
  await a.selectOption('#invite-side', 'white');
  const asked = recordRequests(a);
  await a.click('#invite-submit');
  const link = await (await a.waitForSelector('#invite-url')).inputValue();
  assert(/#\/challenge\/[0-9a-f]{32}$/.test(link), 'invite link: ' + link);
  const challengeId = link.slice(link.lastIndexOf('/') + 1);
  // The creator's page waits on the challenge's event stream, not by polling.
  for (let i = 0; i < 100 && !asked.includes(`GET /api/challenges/${challengeId}/events`); i++) await a.waitForTimeout(100);
  await a.waitForTimeout(2500); // the old page polled every second: it would have asked twice by now

  const b = await open(link.slice(link.indexOf('#')));
  await b.waitForSelector('#accept-form');
  const text = await b.textContent('#challenge-text');
  assert(text.includes('Ann') && text.includes('Black'), 'challenge text: ' + text);
  await b.fill('#accept-name', 'Bob');
  await b.click('#accept');
  await b.waitForSelector('#board svg');
  await a.waitForSelector('#board svg'); // the creator's page follows the accepted challenge
  const polls = asked.filter((x) => x === `GET /api/challenges/${challengeId}`);
  const streams = asked.filter((x) => x === `GET /api/challenges/${challengeId}/events`);
  assert(polls.length === 0, `the creator polled the challenge ${polls.length} times`);
  assert(streams.length === 1, `the creator opened ${streams.length} challenge streams`);
  const gameHash = await b.evaluate(() => location.hash);
  assert(gameHash === (await a.evaluate(() => location.hash)), 'both on the same game');

  const w = await open(gameHash); // the watch link: no token
  await w.waitForSelector('#board svg');
  await w.waitForFunction(() => /Watching: 1/.test(document.querySelector('#viewers')?.textContent || ''));
  assert((await a.textContent('#player-black')).includes('Bob'), 'Ann sees Bob');
  assert((await b.textContent('#player-white')).includes('Ann'), 'Bob sees Ann');
  assert(/3:00/.test(await w.textContent('#clock-white')), 'white has 3:00');

  // Fool's mate: 1. f3 e5 2. g4 Qh4#.
  const line = [[a, 'f2', 'f3'], [b, 'e7', 'e5'], [a, 'g2', 'g4'], [b, 'd8', 'h4']];
  for (let i = 0; i < line.length; i++) {
    const [p, from, to] = line[i];
    await p.waitForSelector('#board svg.my-turn');
    await p.click(cell(from));
    await p.click(cell(to));
    for (const q of [a, b, w]) await waitPlies(q, i + 1);
    if (i === 1) {
      // From the second move on white's clock runs, in every page.
      await w.waitForSelector('#clock-white.running');
      const t0 = await w.textContent('#clock-white');
      await w.waitForFunction((t) => document.querySelector('#clock-white').textContent !== t, t0);
    }
  }
  for (const q of [a, b, w]) await q.waitForSelector('#banner:not([hidden])');
  assert((await b.textContent('#banner')).includes('You won'), 'Bob won: ' + (await b.textContent('#banner')));
  assert((await a.textContent('#banner')).includes('Your opponent won'), 'Ann lost: ' + (await a.textContent('#banner')));
  assert(/Black wins/.test(await w.textContent('#banner')), 'the watcher sees the result: ' + (await w.textContent('#banner')));
  assert((await plies(w)) === 4, 'four moves');
  // The watcher cannot move: no my-turn board, no actions.
  assert(!(await w.$('#people-resign')), 'no resign button for the watcher');
  await w.screenshot({ path: join(shots, 'people-watch.png') });
  // A rematch, colours swapped, asked by both.
  await a.click('#people-rematch');
  await b.waitForSelector('#people-rematch');
  await b.click('#people-rematch');
  await b.waitForSelector('#rematch-go');
  await a.waitForSelector('#rematch-go');
  // The rematch: both are its players, colours swapped.
  for (const p of [a, b]) {
    await p.click('#rematch-go');
    await p.waitForFunction((id) => location.hash !== id && !!document.querySelector('#people-resign'), gameHash);
  }
  assert((await b.textContent('#player-white')).includes('Bob'), 'Bob has white in the rematch');
  assert((await a.textContent('#player-black')).includes('Ann'), 'Ann has black in the rematch');
  // Ann's home page lists it: her side and her opponent.
  await a.goto(srv.url + '/#/');
  await a.waitForFunction(() => /Bob/.test(document.querySelector('#unfinished-list')?.textContent || ''));
  for (const p of [a, b, w]) await p.done();
});

test('a creator whose challenge stream is refused still follows the accept, by polling', async () => {
  const a = await open('#/people');
  const asked = recordRequests(a);
  // The stream answers 429 (as past the per-address cap): the EventSource gives up.
  await a.route(/\/api\/challenges\/[0-9a-f]+\/events$/, (r) => r.fulfill({ status: 429, contentType: 'application/json', body: '{"error":"too many"}' }));
  await a.fill('#invite-name', 'Cat');
  await a.click('#invite-submit');
  const link = await (await a.waitForSelector('#invite-url')).inputValue();
  const id = link.slice(link.lastIndexOf('/') + 1);
  const b = await open(link.slice(link.indexOf('#')));
  await b.fill('#accept-name', 'Dan');
  await b.click('#accept');
  await b.waitForSelector('#board svg');
  await a.waitForSelector('#board svg');
  assert((await b.evaluate(() => location.hash)) === (await a.evaluate(() => location.hash)), 'both on the same game');
  assert(asked.includes(`GET /api/challenges/${id}/events`), 'the stream was tried first');
  assert(asked.includes(`GET /api/challenges/${id}`), 'then the challenge was polled');
  for (const p of [a, b]) await p.done();
});

test('a club created, joined and used for a challenge', async () => {
  const a = await open('#/clubs');
  await a.fill('#club-name', 'Knights');
  await a.fill('#club-description', 'Friday nights');
  await a.check('#club-lang-en');
  await a.check('#club-lang-fi');
  await a.fill('#club-member', 'Ann');
  await a.click('#club-create');
  const invite = await (await a.waitForSelector('#club-invite')).inputValue();
  assert(/#\/club\/[0-9a-f]{32}\?invite=[0-9a-f]{32}$/.test(invite), 'invite link: ' + invite);
  const b = await open(invite.slice(invite.indexOf('#')));
  await b.fill('#join-name', 'Bob');
  await b.click('#join');
  await b.waitForSelector('#club-invite');
  assert((await b.textContent('#club-members')).includes('Ann'), 'Bob sees Ann among the members');
  // Ann's page, not reloaded, shows the new member.
  await a.waitForFunction(() => /Bob/.test(document.querySelector('#club-members')?.textContent || ''), null, { timeout: 15000 });
  await b.selectOption('#club-game', 'chess');
  await b.selectOption('#club-clock', '5+3');
  let loads = 0;
  a.on('load', () => loads++);
  assert(!(await a.$('#club-challenges [data-challenge]')), 'no challenge in the lobby yet');
  await b.click('#club-submit');
  await b.waitForSelector('#club-waiting');
  // Ann's club page shows Bob's challenge by itself (it refreshes while visible).
  await a.waitForSelector('#club-challenges [data-challenge]', { timeout: 15000 });
  assert(loads === 0, 'the club page was reloaded');
  assert((await a.textContent('#club-challenges')).includes('Bob'), 'the challenge is Bob\'s');
  await a.waitForFunction(() => /Bob/.test(document.querySelector('#club-news')?.textContent || ''));
  await a.click('#club-challenges [data-challenge]');
  await a.waitForSelector('#board svg');
  await b.waitForSelector('#board svg'); // Bob's page follows the accepted challenge
  // Left, the club page refreshes no more (it asked every 4 s while shown).
  const after = recordRequests(a);
  await a.waitForTimeout(5000);
  assert(!after.some((x) => x.startsWith('GET /api/clubs/')), 'the club page still refreshes: ' + after.join(', '));
  assert((await a.textContent('#people')).includes('Bob'), 'Ann plays Bob');
  // The creator names Bob admin; the club page says so.
  await a.goto(invite.replace(/\?invite=.*/, ''));
  await a.waitForSelector('#club-members [data-member]');
  await a.click('#club-members button[id^="admin-"]');
  await a.waitForFunction(() => /admin/.test(document.querySelector('#club-members').textContent));
  for (const p of [a, b]) await p.done();
});

test('the people pages in all four languages', async () => {
  for (const lang of LANGS) {
    const cat = catalogue(lang);
    const p = await open('#/people', lang);
    await p.waitForSelector('#invite-form');
    assert((await p.textContent('h1')) === cat['people.heading'], `${lang} heading`);
    assert((await p.textContent('#lobby-h')) === cat['people.lobby'], `${lang} lobby`);
    const body = await p.textContent('#app');
    assert(!/people\.[a-z]/.test(body), `${lang}: an untranslated key on the page`);
    if (lang === 'bn' || lang === 'as') assert(/[০-৯]/.test(await p.textContent('#invite-clock')), `${lang}: Bengali digits in the clocks`);
    await p.fill('#invite-name', 'Ann');
    await p.click('#invite-submit');
    const link = await (await p.waitForSelector('#invite-url')).inputValue();
    await p.screenshot({ path: join(shots, `people-${lang}.png`) });
    await p.done();
    const q = await open(link.slice(link.indexOf('#')), lang);
    await q.waitForSelector('#accept-form');
    assert((await q.textContent('h1')) === cat['people.challenge.heading'], `${lang} challenge heading`);
    assert((await q.textContent('#accept')) === cat['people.challenge.accept'], `${lang} accept`);
    await q.done();
    const c = await open('#/clubs', lang);
    await c.waitForSelector('#club-form');
    assert((await c.textContent('h1')) === cat['club.heading'], `${lang} clubs heading`);
    assert((await c.textContent('#club-create')) === cat['club.create'], `${lang} create club`);
    assert(!/(club|people)\.[a-z]/.test(await c.textContent('#app')), `${lang}: an untranslated key on the clubs page`);
    await c.done();
  }
});

// The page records each sound it plays: the `agora:sound` events and the tones the
// Web Audio oscillators start (the low-time sound is two 1000 Hz beeps).
async function recordSounds(page, { off = false } = {}) {
  await page.context().addInitScript((quiet) => {
    if (quiet) localStorage.setItem('agora.sound', 'off');
    window.__sounds = [];
    window.__tones = [];
    document.addEventListener('agora:sound', (e) => window.__sounds.push(e.detail));
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) {
      window.__tones.push(this.frequency.value);
      return start.apply(this, args);
    };
  }, off);
  await page.reload();
  await page.waitForSelector('body[data-ready]');
}
const lowTimes = (page) => page.evaluate(() => ({ sounds: window.__sounds.filter((x) => x === 'lowtime').length, tones: window.__tones.filter((f) => f === 1000).length }));

test('the low-time sound: once when the player\'s own clock goes under 10 s, never with sounds off', async () => {
  const a = await open('#/people');
  await recordSounds(a);
  // A 15-second clock: the form offers longer ones, so the request is given a short one.
  await a.route('**/api/challenges', (route) => {
    const req = route.request();
    if (req.method() !== 'POST') return route.continue();
    return route.continue({ postData: JSON.stringify({ ...JSON.parse(req.postData()), clock: { initial: 15, increment: 0 } }) });
  });
  await a.fill('#invite-name', 'Ann');
  await a.selectOption('#invite-game', 'chess');
  await a.selectOption('#invite-side', 'white');
  await a.click('#invite-submit');
  const link = await (await a.waitForSelector('#invite-url')).inputValue();
  const b = await open(link.slice(link.indexOf('#')));
  await recordSounds(b, { off: true });
  await b.fill('#accept-name', 'Bob');
  await b.click('#accept');
  await b.waitForSelector('#board svg');
  await a.waitForSelector('#board svg');
  assert(/0:15/.test(await a.textContent('#clock-white')), 'a 15 s clock: ' + (await a.textContent('#clock-white')));
  for (const [p, from, to, n] of [[a, 'e2', 'e4', 1], [b, 'e7', 'e5', 2]]) {
    await p.waitForSelector('#board svg.my-turn');
    await p.click(cell(from));
    await p.click(cell(to));
    await waitPlies(a, n);
  }
  // White's clock runs from the second move: Ann hears the warning once it is under 10 s.
  assert((await lowTimes(a)).sounds === 0, 'a warning with 15 s left');
  await a.waitForSelector('#clock-white.low', { timeout: 12000 });
  await a.waitForFunction(() => window.__sounds.includes('lowtime'), null, { timeout: 2000 });
  await a.waitForTimeout(1500); // still running, still under 10 s: no second warning
  let heard = await lowTimes(a);
  assert(heard.sounds === 1 && heard.tones === 2, 'Ann should hear one warning (two beeps): ' + JSON.stringify(heard));
  await a.click(cell('g1'));
  await a.click(cell('f3'));
  await waitPlies(b, 3);
  // Now Bob's clock runs low: his sounds are off, and Ann's page does not warn for it.
  await b.waitForSelector('#clock-black.low', { timeout: 12000 });
  await b.waitForTimeout(1500);
  const bob = await lowTimes(b);
  assert(bob.sounds === 0 && bob.tones === 0, 'sounds off, yet Bob heard ' + JSON.stringify(bob));
  heard = await lowTimes(a);
  assert(heard.sounds === 1, 'Ann warned for the opponent\'s clock: ' + JSON.stringify(heard));
  for (const p of [a, b]) await p.done();
});

test('contrast and keyboard: the lobby, a challenge, a game between people, the clubs, both themes', async () => {
  const fails = [];
  let checked = 0;
  const add = (r) => { checked += r.checked; fails.push(...r.fails); };
  // Someone seeks a game in the lobby; Ann invites Bob; Bob opens the challenge.
  const s = await open('#/people');
  await s.fill('#seek-name', 'Cy');
  await s.click('#seek-submit');
  await s.waitForSelector('#seek-waiting');
  const a = await open('#/people');
  await a.fill('#invite-name', 'Ann');
  await a.selectOption('#invite-game', 'chess');
  await a.selectOption('#invite-side', 'white');
  await a.selectOption('#invite-clock', '3+2');
  await a.click('#invite-submit');
  const link = await (await a.waitForSelector('#invite-url')).inputValue();
  const b = await open(link.slice(link.indexOf('#')));
  for (const theme of ['light', 'dark']) {
    const keys = theme === 'light';
    add(await checkPage(a, { theme, keys, sel: '#seeks [data-seek] button', label: 'people (lobby, invitation)' }));
    add(await checkPage(b, { theme, keys, sel: '#accept-form', label: 'challenge' }));
  }
  await b.fill('#accept-name', 'Bob');
  await b.click('#accept');
  await b.waitForSelector('#board svg');
  await a.waitForSelector('#board svg');
  for (const [p, from, to] of [[a, 'f2', 'f3'], [b, 'e7', 'e5']]) {
    await p.waitForSelector('#board svg.my-turn');
    await p.click(cell(from));
    await p.click(cell(to));
    await waitPlies(a, from === 'f2' ? 1 : 2);
  }
  await a.click('#people-draw');
  await b.waitForSelector('#draw-offered');
  const game = await b.evaluate(() => location.hash);
  for (const theme of ['light', 'dark']) {
    const keys = theme === 'light';
    add(await checkPage(b, { theme, keys, url: `${srv.url}/${game}`, sel: '#draw-offered', label: 'game between people (offer)' }));
    add(await checkPage(a, { theme, keys, url: `${srv.url}/${game}`, sel: '#clock-white.running', label: 'game between people (running clock)' }));
  }
  // The clubs: the list, a club with members and a challenge.
  await a.goto(srv.url + '/#/clubs');
  await a.fill('#club-name', 'Rooks');
  await a.check('#club-lang-en');
  await a.fill('#club-member', 'Ann');
  await a.click('#club-create');
  const invite = await (await a.waitForSelector('#club-invite')).inputValue();
  for (const theme of ['light', 'dark']) {
    const keys = theme === 'light';
    add(await checkPage(a, { theme, keys, url: invite.replace(/\?invite=.*/, ''), sel: '#club-members [data-member]', label: 'club' }));
    add(await checkPage(b, { theme, keys, url: invite, sel: '#club-join', label: 'club invitation' }));
    add(await checkPage(a, { theme, keys, url: `${srv.url}/#/clubs`, sel: '#club-form', label: 'clubs' }));
  }
  for (const p of [s, a, b]) await p.done();
  assert(!fails.length, [...new Set(fails)].slice(0, 80).join('; '));
  assert(checked > 60, `only ${checked} texts measured`);
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

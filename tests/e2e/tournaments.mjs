// Browser tests of tournaments, end to end against `./agora serve` (AGORA_BIN) on a
// free port with a fresh database: Ann creates an arena on the tournaments page and
// joins it, Bob (another browser context) joins from its page, the server pairs them
// within seconds and both pages show "your game" (with its sound and the spoken line);
// both play from there, the game page links back to the tournament and berserks; the standings
// show both; past half a Swiss a newcomer is told it is too late; the pages in all
// four languages, by keyboard, in both themes.
// Prints one line per test and, last, "N passed, N failed".
//   node tests/e2e/tournaments.mjs [name-filter]
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch } from './browser.mjs';
import { checkPage } from './a11y.mjs';

process.env.AGORA_SERVE = '1';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'build', 'screenshots');
mkdirSync(shots, { recursive: true });
const filter = process.argv[2] || '';
const tests = [];
const test = (name, fn) => tests.push({ name, fn });
let srv, browser, passed = 0, failed = 0;

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function open(hash, lang = 'en') {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await ctx.exposeFunction('__errorBox', (text) => errors.push('error box: ' + text));
  await ctx.addInitScript(() => new MutationObserver(() => {
    for (const b of document.querySelectorAll('.error:not([data-seen])')) if (b.textContent.trim()) { b.dataset.seen = '1'; window.__errorBox(b.textContent.trim()); }
  }).observe(document, { childList: true, subtree: true, characterData: true }));
  await ctx.addInitScript((l) => localStorage.setItem('agora.lang', l), lang);
  // Count the sounds the page plays (board/sound.js dispatches agora:sound).
  await ctx.addInitScript(() => { window.__sounds = []; document.addEventListener('agora:sound', (e) => window.__sounds.push(e.detail)); });
  page.setDefaultTimeout(20000);
  await page.goto(`${srv.url}/${hash}`);
  await page.waitForSelector('body[data-ready]');
  page.done = async () => {
    assert(!errors.length, 'page errors: ' + errors.join('; '));
    await ctx.close();
  };
  return page;
}

let arena = '';

test('two players join an arena and are paired with each other', async () => {
  const a = await open('#/tournaments');
  await a.fill('#tourney-name', 'Evening arena');
  await a.selectOption('#tourney-game', 'chess');
  await a.fill('#tourney-minutes', '20');
  await a.fill('#tourney-creator', 'Ann');
  await a.click('#tourney-create');
  await a.waitForSelector('#tourney-join');
  arena = a.url().split('#/tournament/')[1];
  assert(arena && arena.length === 32, `no tournament page: ${a.url()}`);
  await a.click('#tourney-join-button');
  await a.waitForSelector('#tourney-standings [data-name="Ann"]');
  await a.waitForSelector('#tourney-pause');

  const b = await open(`#/tournament/${arena}`);
  await b.fill('#tourney-join-name', 'Bob');
  await b.click('#tourney-join-button');
  // The director pairs them within a couple of seconds; both pages hear of it on the
  // tournament's stream and show the game, with its sound and the spoken line.
  for (const p of [a, b]) {
    await p.waitForSelector('#tourney-play', { timeout: 15000 });
    await p.waitForFunction(() => window.__sounds.includes('start'));
    const said = await p.textContent('#tourney-news');
    assert(/new game/.test(said), `nothing said: ${said}`);
  }
  const rows = await a.$$eval('#tourney-standings tbody tr', (r) => r.length);
  assert(rows === 2, `${rows} rows in the standings`);
  await a.screenshot({ path: join(shots, 'tournament.png'), fullPage: true });
  // Both go to the game: the game page links back to the tournament.
  await a.click('#tourney-play');
  await a.waitForSelector('#tourney-back');
  await b.click('#tourney-play');
  await b.waitForSelector('#tourney-back');
  const href = await a.getAttribute('#tourney-back', 'href');
  assert(href === `#/tournament/${arena}`, href);
  // The arena's own clock on the game page.
  await a.waitForFunction(() => /Ends in/.test(document.getElementById('tourney-left').textContent));
  // Berserk on the game page, before one's first move: the mark shows, the button goes.
  await a.click('#people-berserk');
  await a.waitForSelector('.berserk[id^="berserk-"]');
  await a.waitForSelector('#people-berserk', { state: 'detached' });
  for (const p of [a, b]) await p.done();
});

test('a Swiss: paired by rounds, its standings with tie-breaks and its TRF', async () => {
  const a = await open('#/tournaments');
  await a.fill('#tourney-name', 'Club Swiss');
  await a.selectOption('#tourney-kind', 'swiss');
  assert(await a.isHidden('#tourney-minutes'), 'the minutes still shown for a Swiss');
  await a.fill('#tourney-rounds', '3');
  await a.fill('#tourney-creator', 'Cy');
  await a.click('#tourney-create');
  await a.waitForSelector('#tourney-join');
  const swiss = a.url().split('#/tournament/')[1];
  await a.click('#tourney-join-button');
  const b = await open(`#/tournament/${swiss}`);
  await b.fill('#tourney-join-name', 'Di');
  await b.click('#tourney-join-button');
  for (const p of [a, b]) {
    await p.waitForSelector('#tourney-play', { timeout: 15000 });
    await p.waitForSelector('#tourney-round');
    const heads = await p.$$eval('#tourney-standings th', (th) => th.map((x) => x.textContent));
    assert(heads.includes('Buchholz cut 1') && heads.includes('Sonneborn-Berger'), `columns: ${heads}`);
  }
  const trf = await a.evaluate(async (href) => (await fetch(href)).text(), await a.getAttribute('#tourney-trf', 'href'));
  assert(/^012 /m.test(trf) && (trf.match(/^001 /gm) || []).length === 2, `not a TRF: ${trf.slice(0, 200)}`);
  for (const p of [a, b]) await p.done();
});

test('past half a Swiss: a newcomer is told it is too late, in four languages', async () => {
  // A one-round Swiss with two players, through the API: once round 1 is on, half the
  // rounds are played and a newcomer has no join button but a line saying why.
  const a = await open('#/tournaments');
  const id = await a.evaluate(async () => {
    const post = async (path, body, token) => (await fetch(path, { method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body) })).json();
    const made = await post('/api/tournaments', { kind: 'swiss', tournament: 'Short Swiss', game: 'chess',
      clock: { initial: 600, increment: 0 }, rounds: 1, starts: Date.now() + 1000, name: 'Org' });
    const tid = made.tournament.id;
    await post(`/api/tournaments/${tid}/join`, { name: 'Eve' });
    await post(`/api/tournaments/${tid}/join`, { name: 'Fay' });
    return tid;
  });
  await a.done();
  for (const lang of ['en', 'bn', 'as', 'fi']) {
    const p = await open(`#/tournament/${id}`, lang);
    await p.waitForSelector('#tourney-too-late', { timeout: 15000 });
    assert(await p.$('#tourney-join') === null, `${lang}: a join button past half the rounds`);
    const said = await p.textContent('#tourney-too-late');
    assert(!/tourney\./.test(said) && said.trim().length > 10, `${lang}: ${said}`);
    if (lang === 'bn' || lang === 'as') assert(/[০-৯]/.test(said) && !/[0-9]/.test(said), `${lang}: not native numerals: ${said}`);
    await p.done();
  }
});

test('the tournament pages in four languages, by keyboard, in both themes', async () => {
  const fails = [];
  let checked = 0;
  const add = (r) => { checked += r.checked; fails.push(...r.fails); };
  for (const lang of ['en', 'bn', 'as', 'fi']) {
    const p = await open('#/tournaments', lang);
    await p.waitForSelector('#tourney-form');
    const title = await p.textContent('h1');
    assert(title && title.trim().length > 0, `${lang}: no heading`);
    if (arena) {
      await p.goto(`${srv.url}/#/tournament/${arena}`);
      await p.waitForSelector('#tourney-rules');
      const rules = await p.textContent('#tourney-rules');
      if (lang === 'bn' || lang === 'as') assert(/[০-৯]/.test(rules), `${lang}: no native numerals in the rules: ${rules}`);
      assert(!/tourney\./.test(await p.textContent('main')), `${lang}: a key shown untranslated`);
    }
    for (const theme of ['light', 'dark']) {
      add(await checkPage(p, { theme, keys: theme === 'light', url: `${srv.url}/#/tournaments`, sel: '#tourney-form', label: `tournaments ${lang}` }));
      if (arena) add(await checkPage(p, { theme, keys: false, url: `${srv.url}/#/tournament/${arena}`, sel: '#tourney-standings', label: `tournament ${lang}` }));
    }
    await p.done();
  }
  assert(!fails.length, [...new Set(fails)].slice(0, 60).join('; '));
  assert(checked > 20, `only ${checked} texts measured`);
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

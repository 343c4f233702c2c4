// Browser tests of fair play between people (issue 25), end to end against `./agora
// serve` (AGORA_BIN) on a free port with a fresh database: names and club texts in
// Bengali, Assamese and Finnish shown exactly as written; every action of a game
// between people (draw offer, accept, decline, takeback ask, accept) done with no
// "Something went wrong" box; the claim of an abandoned game offered only when the
// opponent's page is gone (4 s away, --abandon-ms), never right after one's own move.
// Prints one line per test and, last, "N passed, N failed".
//   node tests/e2e/fairplay.mjs [name-filter]
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch } from './browser.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

process.env.AGORA_SERVE = '1';
process.env.AGORA_SERVE_ARGS = '--abandon-ms 4000'; // abandonment (below) in seconds
const filter = process.argv[2] || '';
const tests = [];
const test = (name, fn) => tests.push({ name, fn });
let srv, browser, passed = 0, failed = 0;

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const BN_CLUB = 'আমার ক্লাব';
const AS_NAME = 'অসমীয়া খেলুৱৈ';
const FI_CLUB = 'Jyväskylän Shakki';
const FI_NAME = 'Jyväskylä Matti';
const EMOJI = '♟️🙂';

// A page in its own context; every error box it ever shows ("Something went wrong:
// ...", class "error") is remembered in window.__errorBoxes, and page.done() fails on
// any of them, as on an uncaught error.
async function open(hash, lang = 'en') {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await ctx.addInitScript((l) => {
    localStorage.setItem('agora.lang', l);
    window.__errorBoxes = [];
    new MutationObserver(() => {
      for (const box of document.querySelectorAll('.error')) {
        if (!box.dataset.seen && box.textContent.trim()) {
          box.dataset.seen = '1';
          window.__errorBoxes.push(box.textContent.trim());
        }
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }, lang);
  page.setDefaultTimeout(20000);
  await page.goto(`${srv.url}/${hash}`);
  await page.waitForSelector('body[data-ready]');
  page.errorBoxes = () => page.evaluate(() => window.__errorBoxes);
  page.done = async () => {
    const boxes = await page.errorBoxes();
    assert(!boxes.length, 'error boxes: ' + boxes.join('; '));
    assert(!errors.length, 'page errors: ' + errors.join('; '));
    await ctx.close();
  };
  return page;
}

const cell = (name) => `#board [data-cell="${name}"]`;
async function waitPlies(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves .ply:not(.pending)').length === k, n);
}
async function move(p, from, to) {
  await p.waitForSelector('#board svg.my-turn');
  await p.click(cell(from));
  await p.click(cell(to));
}

// A challenge made on #/people by `creator` (white, `clock`), accepted by `acceptor`:
// both pages on the game.
async function game(creator, acceptor, { clock = 'none', lang = 'en' } = {}) {
  const a = await open('#/people', lang);
  await a.fill('#invite-name', creator);
  await a.selectOption('#invite-game', 'chess');
  await a.selectOption('#invite-clock', clock);
  await a.selectOption('#invite-side', 'white');
  await a.click('#invite-submit');
  const link = await (await a.waitForSelector('#invite-url')).inputValue();
  const b = await open(link.slice(link.indexOf('#')), lang);
  await b.waitForSelector('#accept-form');
  const text = await b.textContent('#challenge-text');
  assert(text.includes(creator), `the challenge names ${creator}: ${text}`);
  await b.fill('#accept-name', acceptor);
  await b.click('#accept');
  await b.waitForSelector('#board svg');
  await a.waitForSelector('#board svg');
  return [a, b];
}

test('names and club texts in Bengali, Assamese and Finnish show as written', async () => {
  const c = await open('#/clubs', 'fi');
  await c.fill('#club-name', BN_CLUB);
  await c.fill('#club-description', `${FI_CLUB} ${EMOJI}`);
  await c.check('#club-lang-bn');
  await c.check('#club-lang-fi');
  await c.fill('#club-member', AS_NAME);
  await c.click('#club-create');
  await c.waitForSelector('#club-invite');
  assert((await c.textContent('h1')) === BN_CLUB, 'the club\'s name: ' + (await c.textContent('h1')));
  const description = await c.textContent('.club-description');
  assert(description === `${FI_CLUB} ${EMOJI}`, 'the club\'s description: ' + description);
  const member = await c.textContent('#club-members [data-member]');
  assert(member.includes(AS_NAME), 'the member\'s name: ' + member);
  // Read back from the server, not from the page's memory.
  await c.reload();
  await c.waitForSelector('#club-members [data-member]');
  assert((await c.textContent('h1')) === BN_CLUB, 'the club\'s name, reloaded: ' + (await c.textContent('h1')));
  await c.done();

  const [a, b] = await game(AS_NAME, FI_NAME, { lang: 'bn' });
  for (const p of [a, b]) {
    await p.reload();
    await p.waitForSelector('#board svg');
    const white = await p.textContent('#player-white'), black = await p.textContent('#player-black');
    assert(white.includes(AS_NAME), 'white: ' + white);
    assert(black.includes(FI_NAME), 'black: ' + black);
  }
  for (const p of [a, b]) await p.done();
});

// Issue 25 item 11: a server's refusal is shown in the reader's language (the
// catalogue's text for its code), not in the server's English.
test('a server error in the reader\'s language: a wrong invite code, in Finnish and Bengali', async () => {
  const res = await fetch(`${srv.url}/api/clubs`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ club: 'Koodit', languages: ['fi'], name: 'Kim' }),
  });
  const club = await res.json();
  assert(res.status === 201 && club.id, 'club: ' + JSON.stringify(club));
  const refused = await fetch(`${srv.url}/api/clubs/${club.id}/join`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ invite: 'wrong', name: 'Matti' }),
  });
  const body = await refused.json();
  assert(refused.status === 403 && body.code === 'wrong_invite', 'the API: ' + JSON.stringify(body));
  for (const lang of ['fi', 'bn']) {
    const want = JSON.parse(readFileSync(join(root, 'web', 'i18n', 'errors', `${lang}.json`), 'utf8'))['error.wrong_invite'];
    const p = await open(`#/club/${club.id}?invite=wrong`, lang);
    await p.fill('#join-name', 'Matti');
    await p.click('#join');
    await p.waitForFunction(() => window.__errorBoxes.length > 0);
    const [box] = await p.errorBoxes();
    assert(box.includes(want), `${lang}: the error box reads "${box}", not "${want}"`);
    assert(!box.includes(body.error), `${lang}: the server's English shows: "${box}"`);
    await p.context().close();
  }
});

test('draw offers and takebacks between people: no "Something went wrong"', async () => {
  const [a, b] = await game('Ann', 'Bob');
  const clean = async (what) => {
    for (const p of [a, b]) {
      const boxes = await p.errorBoxes();
      assert(!boxes.length, `${what}: ${boxes.join('; ')}`);
      assert(await p.$('#board svg'), `${what}: no board`);
    }
  };
  await move(a, 'e2', 'e4');
  await waitPlies(b, 1);
  await move(b, 'e7', 'e5');
  await waitPlies(a, 2);
  // A draw offered and declined.
  await a.click('#people-draw');
  await a.waitForSelector('#draw-sent');
  await clean('draw offered');
  await b.waitForSelector('#draw-offered');
  await b.click('#draw-decline');
  await b.waitForSelector('#people-draw');
  await a.waitForSelector('#people-draw');
  await clean('draw declined');
  // A takeback asked and accepted.
  await move(a, 'g1', 'f3');
  await waitPlies(b, 3);
  await a.click('#people-takeback');
  await b.waitForSelector('#takeback-asked');
  await clean('takeback asked');
  await b.click('#takeback-accept');
  for (const p of [a, b]) await waitPlies(p, 2);
  await clean('takeback accepted');
  // A draw offered and accepted: the game ends drawn.
  await b.waitForSelector('#people-draw');
  await b.click('#people-draw');
  await a.waitForSelector('#draw-offered');
  await a.click('#draw-accept');
  for (const p of [a, b]) await p.waitForSelector('#banner:not([hidden])');
  await clean('draw accepted');
  for (const p of [a, b]) await p.done();
});

test('the claim of an abandoned game: offered only once the opponent\'s page is gone', async () => {
  const [a, b] = await game('Ann', 'Bob');
  await move(a, 'e2', 'e4');
  await waitPlies(b, 1);
  await move(b, 'e7', 'e5');
  await waitPlies(b, 2);
  // Right after one's own move, and while the opponent's page stays open: no claim.
  assert(!(await b.$('#claim-win')), 'the claim offered right after one\'s own move');
  await b.waitForTimeout(5000);
  assert(!(await b.$('#claim-win')), 'the claim offered while the opponent\'s page is open');
  await a.done(); // Ann's page goes
  const t0 = Date.now();
  await b.waitForSelector('#claim-win', { timeout: 15000 });
  assert(Date.now() - t0 >= 3500, `the claim offered ${Date.now() - t0} ms after the page went`);
  await b.click('#claim-win');
  await b.waitForSelector('#banner:not([hidden])');
  assert(/You won/.test(await b.textContent('#banner')), 'Bob won: ' + (await b.textContent('#banner')));
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

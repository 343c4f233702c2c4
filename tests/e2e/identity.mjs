// Browser tests of one identity and the notifications (issue 28 items 1, 7, 8), end to
// end against `./agora serve` (AGORA_BIN) on a free port with a fresh database: a
// browser of before (a token per game against the computer, a puzzle token) loads the
// site and its games and puzzle rating become the player's one token; two devices of
// one player (two browser contexts) see a challenge accepted on the bell at once, by its
// count, its name for screen readers and its live region, read on one and gone on both;
// the bell by keyboard and in four languages.
// Prints one line per test and, last, "N passed, N failed".
//   node tests/e2e/identity.mjs [name-filter]
import { readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch } from './browser.mjs';

process.env.AGORA_SERVE = '1';
process.env.AGORA_SERVE_ARGS = '--people-per-minute 0';
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

const notices = (lang) => JSON.parse(readFileSync(join(root, 'web', 'i18n', 'notices', `${lang}.json`), 'utf8'));
const DIGITS = { bn: '০১২৩৪৫৬৭৮৯', as: '০১২৩৪৫৬৭৮৯' };
const digits = (lang, s) => (DIGITS[lang] ? String(s).replace(/[0-9]/g, (d) => DIGITS[lang][d]) : String(s));

async function call(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(srv.url + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function open(hash, { lang = 'en', identity = null, base = null } = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await ctx.addInitScript(([l, id]) => {
    localStorage.setItem('agora.lang', l);
    if (id && !localStorage.getItem('agora.identity')) localStorage.setItem('agora.identity', JSON.stringify(id));
  }, [lang, identity]);
  page.setDefaultTimeout(20000);
  await page.goto(`${base || srv.url}/${hash}`);
  await page.waitForSelector('body[data-ready]');
  page.ctx = ctx;
  page.done = async () => {
    assert(!errors.length, 'page errors: ' + errors.join('; '));
    await ctx.close();
  };
  return page;
}

const identityOf = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('agora.identity') || '{}'));

test('a browser of before: its games and puzzle token become the player\'s one token', async () => {
  const g1 = await call('POST', '/api/games', { game: 'chess', level: 1, side: 'white' });
  const g2 = await call('POST', '/api/games', { game: 'agon', level: 1, side: 'white' });
  const pz = await call('GET', '/api/puzzles/next?game=chess');
  assert(g1.token !== g2.token && pz.token, 'three tokens of before');
  const page = await open('#/', { identity: {
    games: { [g1.id]: { token: g1.token, game: 'chess', created: g1.created }, [g2.id]: { token: g2.token, game: 'agon', created: g2.created } },
    puzzles: pz.token,
  } });
  const id = await identityOf(page);
  const mine = id.people && id.people.token;
  assert(/^[0-9a-f]{32}$/.test(mine || ''), `a player token: ${JSON.stringify(id)}`);
  assert(id.games[g1.id].token === mine && id.games[g2.id].token === mine, `games under the player's token: ${JSON.stringify(id.games)}`);
  assert(!id.puzzles, 'the puzzle token is gone');
  const list = await call('GET', '/api/games', null, mine);
  assert(list.games.length === 2, `the server lists both games under it: ${list.games.length}`);
  // The game still plays in the page, with the one token.
  await page.goto(`${srv.url}/#/game/${g2.id}`);
  await page.waitForSelector('.board, svg');
  const st = await call('GET', `/api/games/${g2.id}`, null, mine);
  assert(st.id === g2.id, 'the game answers to the player');
  // A new game and a puzzle keep the same token.
  await page.goto(`${srv.url}/#/puzzles/chess`);
  await page.waitForFunction(() => document.querySelector('svg'));
  const after = await identityOf(page);
  assert(after.people.token === mine, 'the puzzles kept the player\'s token');
  await page.done();
});

test('two devices of one player: a challenge accepted rings the bell on both, read on one is read on both', async () => {
  const c = await call('POST', '/api/challenges', { game: 'chess', name: 'Ann' });
  const ann = { people: { token: c.token, name: 'Ann' } };
  const a = await open('#/', { identity: ann });
  const b = await open('#/people', { identity: ann });
  for (const p of [a, b]) await p.waitForSelector('#bell-button');
  const label0 = await a.getAttribute('#bell-button', 'aria-label');
  assert(/0/.test(label0), `no unread yet: ${label0}`);
  const g = await call('POST', `/api/challenges/${c.id}/accept`, { name: 'Bob' });
  for (const p of [a, b]) {
    await p.waitForFunction(() => document.querySelector('.bell-count') && !document.querySelector('.bell-count').hidden && document.querySelector('.bell-count').textContent === '1');
    const label = await p.getAttribute('#bell-button', 'aria-label');
    assert(label === 'Notifications: 1 unread', `the button's name: ${label}`);
    const live = await p.textContent('#bell-live');
    assert(live.includes('Bob') && live.includes('Chess'), `told to screen readers: ${live}`);
  }
  // By keyboard: open the list, follow nothing yet, mark all read.
  await a.focus('#bell-button');
  await a.keyboard.press('Enter');
  await a.waitForSelector('#bell-panel:not([hidden]) #bell-list a');
  const href = await a.getAttribute('#bell-list a', 'href');
  assert(href === `#/game/${g.id}`, `the notification leads to the game: ${href}`);
  await a.screenshot({ path: join(shots, 'identity-bell.png') });
  await a.click('#bell-read');
  for (const p of [a, b]) await p.waitForFunction(() => document.querySelector('.bell-count').hidden);
  await a.keyboard.press('Escape');
  assert(await a.evaluate(() => document.getElementById('bell-panel').hidden && document.activeElement.id === 'bell-button'), 'Escape closes and gives focus back');
  await a.done();
  await b.done();
});

test('the bell in four languages: its name with the language\'s plural and digits', async () => {
  const c = await call('POST', '/api/challenges', { game: 'agon', name: 'Cy' });
  await call('POST', `/api/challenges/${c.id}/accept`, { name: 'Di' });
  for (const lang of ['en', 'bn', 'as', 'fi']) {
    const p = await open('#/', { lang, identity: { people: { token: c.token, name: 'Cy' } } });
    await p.waitForFunction(() => document.querySelector('.bell-count') && !document.querySelector('.bell-count').hidden);
    const label = await p.getAttribute('#bell-button', 'aria-label');
    const forms = notices(lang)['notices.bell'];
    const rule = new Intl.PluralRules(lang).select(1);
    const want = (forms[rule] || forms.other).replace('{n}', digits(lang, 1));
    assert(label === want, `${lang}: ${label} (expected ${want})`);
    await p.click('#bell-button');
    await p.waitForSelector('#bell-list li a');
    const text = await p.textContent('#bell-list li');
    assert(text.includes('Di') && !text.includes('notices.'), `${lang}: ${text}`);
    await p.done();
  }
});

test('a public club: found by its name and language, joined without an invite; a barred member stays out', async () => {
  const club = await call('POST', '/api/clubs', { club: 'Tampere Knights', languages: ['fi'], name: 'Aino', public: true });
  const page = await open('#/clubs', { lang: 'fi' });
  await page.waitForSelector('#found-clubs a');
  await page.fill('#find-name', 'knights');
  await page.selectOption('#find-lang', 'fi');
  await page.click('#find-go');
  await page.waitForFunction(() => [...document.querySelectorAll('#found-clubs a')].some((a) => a.textContent === 'Tampere Knights'));
  await page.click('#found-clubs a >> text=Tampere Knights');
  await page.waitForSelector('#club-join');
  await page.fill('#join-name', 'Eero');
  await page.click('#join');
  await page.waitForSelector('#club-leave');
  const id = await identityOf(page);
  const eero = id.people.token;
  const seen = await call('GET', `/api/clubs/${club.id}`, null, eero);
  assert(seen.you && seen.you.role === 'member', 'Eero is a member');
  // Aino bars him; the page's join then says so, in Finnish.
  await call('POST', `/api/clubs/${club.id}/members/${seen.you.id}/bar`, {}, club.token);
  await page.reload();
  await page.waitForSelector('#club-join');
  await page.click('#join');
  await page.waitForSelector('#club-msg .error');
  const text = await page.textContent('#club-msg .error');
  assert(text.includes('estetty'), `the refusal in Finnish: ${text}`);
  await page.done();
});

test('the personal link and its QR code sign a second device in as the same player; revoked, it is no one', async () => {
  const meA = await call('POST', '/api/me', { name: 'Ansa' });
  const a = await open('#/me', { identity: { people: { token: meA.token, name: 'Ansa' } } });
  await a.waitForSelector('#device-link-make');
  await a.click('#device-link-make');
  await a.waitForSelector('#device-qr');
  const url = await a.inputValue('#device-link-url');
  const src = await a.getAttribute('#device-qr', 'src');
  const alt = await a.getAttribute('#device-qr', 'alt');
  assert(/\/#\/signin\/[0-9a-f]{32}$/.test(url), `the link: ${url}`);
  assert(src.startsWith('data:image/svg+xml') && alt, 'the QR code, with its name');
  await a.screenshot({ path: join(shots, 'identity-link.png') });
  // The other device: a fresh browser opens the link.
  const b = await open(url.replace(/^https?:\/\/[^/]+\//, ''));
  await b.waitForSelector('#signin-form');
  await b.fill('#signin-device', 'phone');
  await b.click('#signin-go');
  await b.waitForURL(new RegExp(`#/player/${meA.id}$`));
  await b.waitForSelector('#devices');
  const idB = await identityOf(b);
  assert(idB.people.token && idB.people.token !== meA.token, 'a token of its own');
  const seen = await call('GET', '/api/me', null, idB.people.token);
  assert(seen.id === meA.id, 'the same player');
  // Both devices hear of a challenge accepted.
  const c = await call('POST', '/api/challenges', { game: 'chess', name: 'Ansa' }, meA.token);
  await call('POST', `/api/challenges/${c.id}/accept`, { name: 'Bruno' });
  for (const p of [a, b]) await p.waitForFunction(() => document.querySelector('.bell-count') && document.querySelector('.bell-count').textContent === '1');
  // The first device revokes the second: its token is no one's.
  await a.reload();
  await a.waitForSelector('#devices-list li[data-device] button');
  await a.click('#devices-list li[data-device] button');
  await a.waitForSelector('#devices-list p.muted');
  const r = await fetch(`${srv.url}/api/me`, { headers: { Authorization: `Bearer ${idB.people.token}` } });
  assert(r.status === 404, `revoked: ${r.status}`);
  await a.done();
  await b.done();
});

test('a revoked link is refused with a clear error, in the page\'s language', async () => {
  const m = await call('POST', '/api/me', { name: 'Cora' });
  const link = await call('POST', '/api/me/link', {}, m.token);
  await call('POST', '/api/me/link/revoke', {}, m.token);
  const p = await open(`#/signin/${link.code}`, { lang: 'bn' });
  await p.click('#signin-go');
  await p.waitForSelector('#signin-msg .error');
  const text = await p.textContent('#signin-msg .error');
  assert(text.includes('বাতিল'), `the refusal in Bengali: ${text}`);
  await p.done();
});

// Chromium's virtual authenticator (CDP WebAuthn): a platform authenticator that keeps
// passkeys and says the user is present and verified.
async function authenticator(page) {
  const cdp = await page.ctx.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', { options: {
    protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
    isUserVerified: true, automaticPresenceSimulation: true,
  } });
  return { cdp, authenticatorId };
}

test('a passkey made on one device signs another in as the same player; revoked, it is refused', async () => {
  // WebAuthn wants a domain name: the same server as http://localhost.
  const base = srv.url.replace('127.0.0.1', 'localhost');
  const m = await call('POST', '/api/me', { name: 'Pekka' });
  const a = await open('#/me', { base, identity: { people: { token: m.token, name: 'Pekka' } } });
  const va = await authenticator(a);
  await a.waitForSelector('#passkey-add');
  await a.fill('#passkey-name', 'laptop');
  await a.click('#passkey-add');
  await a.waitForSelector('#passkey-added');
  await a.waitForSelector('#passkeys-list li[data-passkey]');
  const { credentials } = await va.cdp.send('WebAuthn.getCredentials', { authenticatorId: va.authenticatorId });
  assert(credentials.length === 1, 'one passkey in the authenticator');
  // The other device has the same passkey (synced by the maker of the phone or browser).
  const b = await open('#/signin', { base });
  const vb = await authenticator(b);
  await vb.cdp.send('WebAuthn.addCredential', { authenticatorId: vb.authenticatorId, credential: credentials[0] });
  await b.fill('#signin-device', 'phone');
  await b.click('#signin-passkey');
  await b.waitForURL(new RegExp(`#/player/${m.id}$`));
  const idB = await identityOf(b);
  assert(idB.people.token && idB.people.token !== m.token, 'a token of its own');
  const seen = await call('GET', '/api/me', null, idB.people.token);
  assert(seen.id === m.id, 'the same player by passkey');
  await b.screenshot({ path: join(shots, 'identity-passkey.png') });
  // Revoked on the first device: the third device that has it is refused, in Finnish.
  const list = await call('GET', '/api/me/passkeys', null, m.token);
  await call('POST', '/api/me/passkeys/revoke', { id: list.passkeys[0].id }, m.token);
  const c = await open('#/signin', { base, lang: 'fi' });
  const vc = await authenticator(c);
  await vc.cdp.send('WebAuthn.addCredential', { authenticatorId: vc.authenticatorId, credential: credentials[0] });
  await c.click('#signin-passkey');
  await c.waitForSelector('#signin-msg .error');
  const text = await c.textContent('#signin-msg .error');
  assert(text.includes('pääsyavainta'), `refused in Finnish: ${text}`);
  for (const p of [a, b, c]) await p.done();
});

test('a challenge made from a player\'s page rings their bell; accepted there, both are in the game', async () => {
  const ann = await call('POST', '/api/me', { name: 'Anni' });
  const bea = await call('POST', '/api/me', { name: 'Bea' });
  const a = await open(`#/player/${bea.id}`, { identity: { people: { token: ann.token, name: 'Anni' } } });
  const b = await open('#/', { identity: { people: { token: bea.token, name: 'Bea' } } });
  await b.waitForSelector('#bell-button');
  await a.waitForSelector('#player-challenge-form');
  await a.selectOption('#player-challenge-game', 'agon');
  await a.click('#player-challenge-submit');
  await a.waitForSelector('#player-challenge-sent');
  await b.waitForFunction(() => document.querySelector('.bell-count') && document.querySelector('.bell-count').textContent === '1');
  const live = await b.textContent('#bell-live');
  assert(live.includes('Anni') && live.includes('Agon'), `Bea is told: ${live}`);
  await b.click('#bell-button');
  await b.waitForSelector('#bell-list li a');
  await b.click('#bell-list li a');
  await b.waitForSelector('#accept-form');
  await b.click('#accept');
  await b.waitForURL(/#\/game\//);
  await a.waitForURL(/#\/game\//);
  assert(a.url().split('#')[1] === b.url().split('#')[1], 'the same game');
  await a.done();
  await b.done();
});

test('from a second device the first one is revoked: the player goes on there, the first token is no one\'s', async () => {
  const m = await call('POST', '/api/me', { name: 'Olli' });
  const link = await call('POST', '/api/me/link', {}, m.token);
  const b = await open(`#/signin/${link.code}`);
  await b.click('#signin-go');
  await b.waitForURL(new RegExp(`#/player/${m.id}$`));
  await b.waitForSelector('#device-revoke-first');
  await b.click('#device-revoke-first');
  await b.waitForFunction(() => /first device/.test(document.getElementById('devices-msg').textContent));
  const first = await fetch(`${srv.url}/api/me`, { headers: { Authorization: `Bearer ${m.token}` } });
  assert(first.status === 404, `the first token: ${first.status}`);
  const idB = await identityOf(b);
  const seen = await call('GET', '/api/me', null, idB.people.token);
  assert(seen.id === m.id && seen.name === 'Olli', 'the player goes on on the second device');
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

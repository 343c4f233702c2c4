// Browser tests: playwright-core drives Debian's Chromium against the API test double
// (tests/e2e/fake-api.mjs) or, with AGORA_URL set, against a running server.
// Prints one line per test and, last, "N passed, N failed".  Screenshots go to
// build/screenshots/ (each game in each language, desktop and phone).
//   node tests/e2e/run.mjs [name-filter]
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launch } from './browser.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'build', 'screenshots');
mkdirSync(shots, { recursive: true });

const GAMES = ['agon', 'egara-guti', 'chess'];
const LANGS = ['en', 'bn', 'as', 'fi'];
const tests = [];
// doubleOnly: the test needs a scripted reply or a history the test double fakes (a
// draw claim from a bare position, a declined draw offer); realOnly: the server's own
// behaviour (a move's ply).
const test = (name, fn, opts = {}) => tests.push({ name, fn, ...opts });
const filter = process.argv[2] || '';

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

let srv, browser;

async function open(opts = {}) {
  // The service worker (web/sw.js) only where a test asks for it: a worker that
  // controls the page would hide its requests from ctx.route.
  const ctx = await browser.newContext({ viewport: opts.viewport || { width: 1280, height: 860 }, locale: opts.locale || 'en-US', serviceWorkers: opts.serviceWorkers || 'block' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (/Content Security Policy|CSP violation/.test(m.text())) errors.push(m.text()); });
  await ctx.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)));
  page.setDefaultTimeout(20000); // generous: the machine is shared
  // A changed catalogue (opts.catalog: the server's catalogue -> the one the page sees)
  // shows that the page takes its games and boards from GET /api/catalog alone.
  if (opts.catalog) await ctx.route('**/api/catalog', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: opts.catalog(await res.json()) });
  });
  if (opts.init) await ctx.addInitScript(opts.init); // a script run before the page's own
  if (opts.lang) await ctx.addInitScript((l) => { if (!localStorage.getItem('agora.lang')) localStorage.setItem('agora.lang', l); }, opts.lang);
  await page.goto(srv.url + '/' + (opts.hash || ''));
  await page.waitForSelector('body[data-ready]');
  page.errors = errors;
  page.done = async () => {
    assert(!errors.length, 'page errors: ' + errors.join('; '));
    await ctx.close();
  };
  return page;
}

const cell = (name) => `#board [data-cell="${name}"]`;
const click = (page, name) => page.click(cell(name));
// A cell's box, queried and measured in one step inside the page: a board redrawn
// between finding a cell and measuring it (a reply arriving) cannot leave us nothing.
const cellBox = (page, name) => page.waitForFunction((sel) => {
  const r = document.querySelector(sel)?.getBoundingClientRect();
  return r && r.width > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
}, cell(name)).then((h) => h.jsonValue());
const catalog = () => fetch(srv.url + '/api/catalog').then((r) => r.json());
const moveTexts = (page) => page.$$eval('#moves .ply', (n) => n.map((x) => x.textContent));

async function waitMoves(page, count) {
  await page.waitForFunction((n) => document.querySelectorAll('#moves .ply').length >= n && !document.querySelector('#status.thinking'), count);
}

async function playFromHome(page, game, side = 'white') {
  await page.selectOption(`#side-${game}`, side);
  await page.click(`.card[data-game="${game}"] .play-button`);
  await page.waitForSelector('#board svg');
}

async function startFromPosition(page, game, position) {
  await page.goto(`${srv.url}/#/new/${game}`);
  await page.waitForSelector('form.new-game');
  await page.click('form.new-game summary');
  await page.fill('#position', position);
  await page.click('form.new-game button[type=submit]');
  await page.waitForSelector('#board svg');
}

async function hasClass(page, name, cls) {
  return page.$eval(cell(name), (n, c) => n.classList.contains(c), cls);
}

// ---------------------------------------------------------------- tests

test('home: three games, each with a board picture, Play and Rules', async () => {
  const page = await open();
  const order = (await catalog()).games.map((g) => g.name);
  const cards = await page.$$eval('.card', (n) => n.map((x) => x.dataset.game));
  assert(cards.join(' ') === order.join(' '), `cards ${cards} not in the catalogue's order ${order}`);
  for (const g of GAMES) {
    assert(await page.$(`.card[data-game="${g}"] .card-board svg [data-cell]`), `${g}: no board picture`);
    assert(await page.$(`.card[data-game="${g}"] .play-button`), `${g}: no Play`);
    assert(await page.$(`.card[data-game="${g}"] a[href="#/rules/${g}"].rules-link`), `${g}: no Rules`);
  }
  assert((await page.$$('.card[data-game="agon"] [data-cell]')).length === 91, 'agon board should have 91 cells');
  assert((await page.$$('.card[data-game="egara-guti"] [data-cell]')).length === 23, 'egara board should have 23 points');
  assert((await page.$$('.card[data-game="egara-guti"] .edges line')).length === 40, 'egara board should have 40 lines');
  assert((await page.$$('.card[data-game="chess"] [data-cell]')).length === 64, 'chess board should have 64 squares');
  await page.screenshot({ path: join(shots, 'home-en.png'), fullPage: true });
  await page.done();
});

test('chess: click-click, destinations, the reply by server-sent events, drag, last move, resign, rematch', async () => {
  const page = await open();
  await playFromHome(page, 'chess');
  await click(page, 'e2');
  assert(await hasClass(page, 'e2', 'm-selected'), 'e2 not selected');
  assert((await page.$$('#board .dest')).length === 2, 'e2 should show two destinations');
  await click(page, 'e4');
  await waitMoves(page, 2);
  assert((await moveTexts(page))[0] === 'e4', 'moves: ' + (await moveTexts(page)));
  assert((await page.$$('#board .cell.m-last')).length >= 2, 'the reply is not highlighted');
  if (!srv.real) assert(await hasClass(page, 'e5', 'm-last') && await hasClass(page, 'e7', 'm-last'), 'the reply e7-e5 is not highlighted');
  // Drag the knight g1 to f3.
  const a = await cellBox(page, 'g1');
  const b = await cellBox(page, 'f3');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 20, a.y, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
  await waitMoves(page, 4);
  assert((await moveTexts(page))[2] === 'Nf3', 'after the drag: ' + (await moveTexts(page)));
  await page.screenshot({ path: join(shots, 'chess-play-en.png') });
  const href = await page.getAttribute('#record', 'href');
  const pgn = await page.evaluate((u) => fetch(u).then((r) => r.text()), href);
  assert(/1\. ?e4 .* 2\. ?Nf3/.test(pgn), 'record: ' + pgn);
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#banner:not([hidden])');
  const banner = await page.textContent('#banner');
  assert(banner.includes('Black wins') && banner.includes('resignation'), 'banner: ' + banner);
  assert(await page.$('#rematch') && await page.$('#new-game'), 'no rematch / new game');
  const before = page.url();
  await page.click('#rematch');
  await page.waitForFunction((u) => location.href !== u && document.querySelector('#board svg') && !document.querySelector('#banner:not([hidden])'), before);
  assert((await page.textContent('#status')).length > 0, 'no status in the rematch');
  await page.done();
});

// A move made whose answer is lost (the request reached the server, a 503 came back)
// and one whose request failed on the way: the page sends each again with its ply, the
// server makes each once, and the player sees no error.  Against the server only (the
// test double knows no ply).
test('a move whose answer is lost or whose request fails is sent again; the game goes on', async () => {
  const page = await open();
  await playFromHome(page, 'chess');
  const posts = [];
  await page.route('**/api/games/*/moves', async (route) => {
    posts.push(route.request().postDataJSON());
    if (posts.length === 1) {
      await route.fetch(); // made on the server; its answer is lost
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"the database is unavailable","code":"busy"}' });
    } else if (posts.length === 3) {
      await route.abort('connectionreset');
    } else {
      await route.continue();
    }
  });
  await click(page, 'e2');
  await click(page, 'e4');
  await waitMoves(page, 2);
  // A late event may redraw the board and drop a selection: select until it holds.
  for (let i = 0; i < 20 && !(await hasClass(page, 'd2', 'm-selected')); i++) {
    await click(page, 'd2');
    await page.waitForTimeout(100);
  }
  await click(page, 'd4');
  await waitMoves(page, 4);
  assert(posts.length === 4, 'posts: ' + JSON.stringify(posts));
  assert(posts[0].ply === 1 && posts[1].ply === 1 && posts[1].move === posts[0].move, 'the first move again: ' + JSON.stringify(posts));
  assert(posts[2].ply === 3 && posts[3].ply === 3, 'the second move again: ' + JSON.stringify(posts));
  const texts = await moveTexts(page);
  assert(texts.length === 4 && texts[0] === 'e4' && texts[2] === 'd4', 'moves: ' + texts);
  assert(!(await page.$('#status .error, .panel p.error')), 'an error is shown: ' + (await page.textContent('#status')));
  const state = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), page.url().split('/').pop());
  assert(state.moves.length === 4, 'the server has ' + state.moves.length + ' moves');
  await page.done();
}, { realOnly: true });

test('chess as Black: the board turns, the computer opens by server-sent events', async () => {
  const page = await open();
  await playFromHome(page, 'chess', 'black');
  // The computer's opening move may redraw the board while we measure it: wait for
  // the reply first, then measure the settled board.
  await waitMoves(page, 1);
  const a1 = await cellBox(page, 'a1');
  const h8 = await cellBox(page, 'h8');
  assert(a1.x > h8.x && a1.y < h8.y, 'board not turned for Black');
  await waitMoves(page, 1);
  await click(page, 'e7');
  await click(page, 'e5');
  await waitMoves(page, 3);
  assert((await moveTexts(page))[1] === 'e5', 'moves: ' + (await moveTexts(page)));
  await page.done();
});

test('chess: promotion chooser, checkmate shown, result banner', async () => {
  const page = await open();
  await startFromPosition(page, 'chess', '7k/1P6/6K1/8/8/8/8/8 w - - 0 1');
  await click(page, 'b7');
  await click(page, 'b8');
  await page.waitForSelector('#promotion:not([hidden])');
  assert((await page.$$('#promotion [data-promotion]')).length === 4, 'four promotion choices');
  await page.screenshot({ path: join(shots, 'chess-promotion-en.png') });
  await page.click('#promotion [data-promotion="q"]');
  await page.waitForSelector('#banner:not([hidden])');
  const banner = await page.textContent('#banner');
  assert(banner.includes('You won') && banner.includes('checkmate'), 'banner: ' + banner);
  assert(await hasClass(page, 'h8', 'm-check'), 'the mated king is not marked');
  assert((await page.getAttribute(cell('b8') + '', 'aria-label')).includes('queen'), 'no queen on b8');
  await page.done();
});

test('chess: draw offer declined, then a threefold claim', async () => {
  const page = await open();
  await startFromPosition(page, 'chess', 'r1bqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 8 5');
  await page.click('#offer-draw');
  await page.waitForSelector('#hint .info');
  await page.click('#claim-threefold');
  await page.waitForSelector('#banner:not([hidden])');
  const banner = await page.textContent('#banner');
  assert(banner.includes('Draw') && banner.includes('threefold'), 'banner: ' + banner);
  await page.done();
}, { doubleOnly: true });

test('agon: a step by clicking, the reply by server-sent events, the throne and ring 1', async () => {
  const page = await open();
  await playFromHome(page, 'agon');
  assert(await page.$('#board .cell.throne .throne-mark'), 'no throne mark');
  assert((await page.$$('#board .cell.ring1')).length === 6, 'ring 1 should have 6 cells');
  await click(page, 'f1');
  assert((await page.$$('#board .dest')).length === 3, 'the queen on f1 has three steps');
  await click(page, 'f2');
  await waitMoves(page, 2);
  assert((await moveTexts(page))[0] === 'f1-f2', 'moves: ' + (await moveTexts(page)));
  if (!srv.real) assert((await page.getAttribute(cell('f10'), 'aria-label')).includes('Black queen'), 'f10 should hold the black queen');
  await page.done();
});

test('agon: a captured guard is marked, the return turn is explained and its cells shown', async () => {
  const page = await open();
  await startFromPosition(page, 'agon', '6/G5g/8/g1g5G/3G*6/Q3g5q/10/g7G/8/G5g/4G1 w');
  assert(await page.$('#board .piece.captured[data-at="e4"] .x-mark'), 'captured guard not marked');
  await page.waitForSelector('#return-hint');
  assert((await page.$$('#board .dest-allowed')).length === 19, 'the 19 return cells should be highlighted');
  await page.screenshot({ path: join(shots, 'agon-return-en.png') });
  await click(page, 'l6');
  await waitMoves(page, 2);
  assert((await moveTexts(page))[0] === 'e4@l6', 'moves: ' + (await moveTexts(page)));
  assert(!(await page.$('#return-hint')), 'return hint should be gone');
  await page.done();
});

test('agon: finish with the formation', async () => {
  const page = await open();
  await startFromPosition(page, 'agon', 'qgg3/g6/g7/9/4GG4/4GQG4/4G5/5G3/8/7/gg4 w');
  await click(page, 'h6');
  await click(page, 'g6');
  await page.waitForSelector('#banner:not([hidden])');
  const banner = await page.textContent('#banner');
  assert(banner.includes('You won') && banner.includes('throne'), 'banner: ' + banner);
  await page.done();
});

test('egara-guti: first move, the computer captures, the forced capture is shown', async () => {
  const page = await open();
  await playFromHome(page, 'egara-guti');
  await click(page, 'd3');
  await click(page, 'd4');
  await waitMoves(page, 2);
  assert((await moveTexts(page)).join(' ') === 'd3-d4 d5xd3', 'moves: ' + (await moveTexts(page)));
  assert((await page.getAttribute(cell('d3'), 'aria-label')).includes('Black piece'), 'd3 should hold a black piece');
  assert(await page.$('#board .piece.black[data-at="d3"]') && await page.$('#board .piece.white[data-at="d2"]'), 'piece colours');
  await page.waitForSelector('#forced-hint, #board .dest-capture');
  assert(await hasClass(page, 'd2', 'm-selected'), 'the only capturer should be picked up');
  await click(page, 'd4');
  await waitMoves(page, 4);
  assert((await moveTexts(page))[2] === 'd2xd4', 'moves: ' + (await moveTexts(page)));
  await page.done();
});

test('egara-guti: a chain entered jump by jump, ending the game', async () => {
  const page = await open();
  await startFromPosition(page, 'egara-guti', '5/1B1/3/1/3/B2/1WW2 w 0');
  assert(await page.$('#board .dest-capture'), 'no capture destination shown');
  await click(page, 'b6');
  await page.waitForSelector('#chain-hint');
  assert(await page.$('#board .piece.capturing[data-at="b2"]'), 'the jumped piece is not marked');
  assert(await page.$(`#board .piece[data-at="b6"]`), 'the piece should stand on b6 mid-chain');
  await page.screenshot({ path: join(shots, 'egara-chain-en.png') });
  await click(page, 'f6');
  await page.waitForSelector('#banner:not([hidden])');
  const banner = await page.textContent('#banner');
  assert(banner.includes('You won') && banner.includes('last enemy piece'), 'banner: ' + banner);
  await page.done();
});

test('keyboard: cells reachable with the arrows, announced, moves entered with Enter', async () => {
  const page = await open();
  await playFromHome(page, 'egara-guti');
  await page.focus('#board [data-cell][tabindex="0"]');
  const start = await page.evaluate(() => document.activeElement.dataset.cell);
  assert(start === 'a1', 'focus starts on ' + start);
  for (const k of ['ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(k);
  const label = () => page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  assert((await label()).startsWith('d3, White piece'), 'd3 label: ' + (await label()));
  await page.keyboard.press('Enter');
  assert((await label()).includes('selected'), 'selection not announced');
  await page.keyboard.press('ArrowUp');
  assert((await label()).startsWith('d4, empty') && (await label()).includes('you can move here'), 'destination not announced: ' + (await label()));
  await page.keyboard.press('Enter');
  await waitMoves(page, 2);
  assert((await moveTexts(page))[0] === 'd3-d4', 'moves: ' + (await moveTexts(page)));
  await page.done();
});

test('renderer: flat-topped and pointy hex layouts, flipped view, from data alone', async () => {
  const page = await open();
  const result = await page.evaluate(async () => {
    const { drawBoard } = await import('/js/board/board.js');
    const host = document.createElement('div');
    document.body.append(host);
    const out = {};
    // pointy cells one unit apart; flat-topped cells 0.866 apart (the agon layout's scale)
    for (const [name, dx, dy] of [['pointy', 1, 0], ['flat', 0, Math.sqrt(3) / 2]]) {
      const board = { shape: 'hex', cells: [{ name: 'a', x: 0, y: 0, ring: 0, flags: ['throne'] }, { name: 'b', x: dx, y: dy, ring: 1, flags: [] }] };
      drawBoard(host, board, { b: { piece: 'G', captured: true } }, { game: 'agon' });
      const poly = (c) => host.querySelector(`[data-cell="${c}"] polygon`).getAttribute('points').split(' ').map((p) => p.split(',').map(Number));
      const pts = poly('a');
      // the two cells share an edge: the gap between their outlines is zero
      const gap = name === 'flat' ? Math.min(...pts.map((p) => p[1])) - Math.max(...poly('b').map((p) => p[1]))
        : Math.min(...poly('b').map((p) => p[0])) - Math.max(...pts.map((p) => p[0]));
      out[name] = { gap: Math.abs(gap), xs: new Set(pts.map((p) => Math.round(p[0]))).size, marked: !!host.querySelector('.piece.captured .x-mark') };
    }
    const sq = { shape: 'square', cells: [{ name: 'a1', x: 0, y: 0, ring: 0, flags: ['dark'] }, { name: 'b2', x: 1, y: 1, ring: 0, flags: [] }] };
    const hd = drawBoard(host, sq, {}, { flipped: true });
    out.flipped = hd.point('a1').x > hd.point('b2').x && hd.point('a1').y < hd.point('b2').y;
    host.remove();
    return out;
  });
  // A pointy cell has a vertex straight above its centre; a flat one has a flat top
  // edge (two vertices share the top y, and there are 4 distinct x values not 3).
  assert(result.pointy.xs === 3 && result.flat.xs === 4, 'hex orientation: ' + JSON.stringify(result));
  assert(result.pointy.gap < 0.1 && result.flat.gap < 0.1, 'neighbouring cells should touch: ' + JSON.stringify(result));
  assert(result.pointy.marked && result.flat.marked, 'captured piece not marked');
  assert(result.flipped, 'flipped square board');
  await page.done();
});

test('languages: switcher, remembered choice, Accept-Language, native digits', async () => {
  let page = await open();
  await page.selectOption('#lang', 'fi');
  await page.waitForFunction(() => document.documentElement.lang === 'fi' && document.querySelector('.hero h1').textContent.includes('Pelaa'));
  await page.reload();
  await page.waitForSelector('body[data-ready]');
  assert(await page.evaluate(() => document.documentElement.lang) === 'fi', 'choice not remembered');
  await page.done();
  page = await open({ locale: 'bn-BD' });
  assert(await page.evaluate(() => document.documentElement.lang) === 'bn', 'Accept-Language bn not honoured');
  assert((await page.textContent('#level-chess option[value="3"]')).trim().startsWith('৩ · '), 'Bengali digits');
  await page.done();
  page = await open({ locale: 'as-IN' });
  assert(await page.evaluate(() => document.documentElement.lang) === 'as', 'Accept-Language as not honoured');
  await page.done();
});

test('reload and resume: the game comes back and is listed on the home page', async () => {
  const page = await open();
  await playFromHome(page, 'egara-guti');
  await click(page, 'd3');
  await click(page, 'd4');
  await waitMoves(page, 2);
  const url = page.url();
  await page.reload();
  await page.waitForSelector('#board svg');
  await waitMoves(page, 2);
  assert(await page.$('#board .piece.black[data-at="d3"]'), 'the capture d5xd3 is not shown after reload');
  assert(await hasClass(page, 'd5', 'm-last') && await hasClass(page, 'd3', 'm-last'), 'the last move is not shown after reload');
  await page.goto(srv.url + '/#/');
  await page.waitForSelector(`.game-list li[data-id="${url.split('/').pop()}"]`);
  await page.click(`.game-list li[data-id="${url.split('/').pop()}"] a.resume`);
  await page.waitForSelector('#board svg');
  assert(page.url() === url, 'resume went to ' + page.url());
  await page.done();
});

test('server restart: an unfinished game resumes where it was', async () => {
  const page = await open();
  await playFromHome(page, 'egara-guti');
  await click(page, 'd3');
  await click(page, 'd4');
  await waitMoves(page, 2);
  const url = page.url();
  await srv.restart();
  await page.goto(srv.url + '/#/');
  await page.waitForSelector(`.game-list li[data-id="${url.split('/').pop()}"]`);
  await page.goto(url);
  await page.waitForSelector('#board svg');
  await waitMoves(page, 2);
  assert(await page.$('#board .piece.black[data-at="d3"]'), 'the position is lost after the restart');
  await page.waitForSelector('#board .dest-capture');
  await click(page, 'd4');
  await waitMoves(page, 4);
  assert((await moveTexts(page))[2] === 'd2xd4', 'play does not go on after the restart: ' + (await moveTexts(page)));
  await page.done();
}, { needsRestart: true });

test('phone: nothing wider than the screen, the board fits', async () => {
  const page = await open({ viewport: { width: 390, height: 844 } });
  await page.screenshot({ path: join(shots, 'home-phone-en.png'), fullPage: true });
  for (const g of GAMES) {
    await page.goto(srv.url + '/#/');
    await page.waitForSelector('.card');
    await playFromHome(page, g);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(over <= 0, `${g}: page ${over}px wider than the phone`);
    const box = await page.$('#board svg').then((n) => n.boundingBox());
    assert(box.width <= 390 && box.width > 300, `${g}: board width ${box.width}`);
    await page.screenshot({ path: join(shots, `${g}-phone-en.png`), fullPage: true });
  }
  await page.done();
});

test('security headers on pages and answers; no CSP violation on home, a game, the rules, the analysis', async () => {
  for (const p of ['/', '/js/app.js', '/css/agora.css', '/api/catalog']) { const h = (await fetch(srv.url + p)).headers;
    assert(/script-src 'self'.*frame-ancestors 'none'/.test(h.get('content-security-policy')) && h.get('x-frame-options') === 'DENY' && h.get('referrer-policy') === 'no-referrer' && h.get('x-content-type-options') === 'nosniff', `${p}: ${[...h].join(' ')}`); }
  const page = await open(); // open() fails the test on any CSP violation
  await playFromHome(page, 'egara-guti');
  for (const [h, sel] of [['#/rules/chess', 'article.rules figure svg'], ['#/analysis/agon', '#board svg [data-cell]'], ['#/', '.card']]) await page.goto(`${srv.url}/${h}`), await page.waitForSelector(sel);
  await page.done();
});

test('rules pages: every game in every language, with diagrams', async () => {
  const layouts = Object.fromEntries((await catalog()).games.map((g) => [g.name, g.layout]));
  for (const lang of LANGS) {
    const page = await open({ lang });
    for (const g of GAMES) {
      await page.goto(`${srv.url}/#/rules/${g}`);
      await page.waitForSelector(`article.rules[data-game="${g}"] figure svg`);
      assert((await page.$$('article.rules figure.diagram')).length >= 3, `${g}/${lang}: fewer than 3 diagrams`);
      // Every diagram is drawn on the catalogue's board: its cells, and lines where it has them.
      const drawn = await page.$$eval('article.rules figure.diagram svg', (svgs) => svgs.map((x) => [x.querySelectorAll('[data-cell]').length, x.querySelectorAll('.edges line').length]));
      for (const [cells, edges] of drawn)
        assert(cells === layouts[g].cells.length && edges === layouts[g].edges.length, `${g}/${lang}: a diagram of ${cells} cells and ${edges} lines`);
      const lead = await page.textContent('article.rules .lead');
      if (lang === 'bn' || lang === 'as') assert(/[\u0980-\u09FF]/.test(lead), `${g}/${lang}: not in Bengali-Assamese script`);
      await page.screenshot({ path: join(shots, `${g}-rules-${lang}.png`), fullPage: true });
    }
    await page.done();
  }
});

test('catalogue: the games, their order and every board come from GET /api/catalog', async () => {
  // The server's catalogue without Egara-guti, the rest in reverse order, and a chess
  // board missing h8: neither the old home-page order nor the server's.
  const page = await open({ catalog: (c) => {
    const games = c.games.filter((g) => g.name !== 'egara-guti').reverse();
    for (const g of games) if (g.name === 'chess') g.layout = { ...g.layout, cells: g.layout.cells.filter((x) => x.name !== 'h8') };
    return { ...c, games };
  } });
  const expected = (await catalog()).games.map((g) => g.name).filter((g) => g !== 'egara-guti').reverse();
  const cards = await page.$$eval('.card', (n) => n.map((x) => x.dataset.game));
  assert(cards.join(' ') === expected.join(' '), `home cards ${cards}, the catalogue has ${expected}`);
  // The cards' pictures are drawn once their layouts arrive: wait for them, then count.
  await page.waitForFunction(() => document.querySelectorAll('.card[data-game="chess"] [data-cell]').length > 0, null, { timeout: 10000 }).catch(() => {});
  assert((await page.$$('.card[data-game="chess"] [data-cell]')).length === 63, 'the home picture is not the catalogue\'s board');
  await page.goto(`${srv.url}/#/rules/chess`);
  await page.waitForSelector('article.rules[data-game="chess"] figure svg');
  const sizes = await page.$$eval('article.rules figure.diagram svg', (svgs) => svgs.map((x) => x.querySelectorAll('[data-cell]').length));
  assert(sizes.length >= 3 && sizes.every((n) => n === 63), 'rules diagrams not on the catalogue\'s board: ' + sizes);
  const others = await page.$$eval('nav.other-rules a', (n) => n.map((x) => x.getAttribute('href')));
  assert(others.join(' ') === expected.filter((g) => g !== 'chess').map((g) => `#/rules/${g}`).join(' '), 'other rules: ' + others);
  for (const hash of ['#/rules/egara-guti', '#/new/egara-guti']) {
    await page.goto(`${srv.url}/${hash}`);
    await page.waitForSelector('.home .card');
    assert(!(await page.$('.card[data-game="egara-guti"]')), `${hash}: a game the catalogue lacks`);
  }
  await page.goto(`${srv.url}/#/`);
  await page.waitForSelector('.card');
  await playFromHome(page, 'chess');
  assert((await page.$$('#board [data-cell]')).length === 63, 'the play board is not the catalogue\'s');
  await page.done();
});

test('screenshots: each game in each language', async () => {
  for (const lang of LANGS) {
    const page = await open({ lang });
    await page.screenshot({ path: join(shots, `home-${lang}.png`), fullPage: true });
    for (const g of GAMES) {
      await page.goto(srv.url + '/#/');
      await page.waitForSelector('.card');
      await playFromHome(page, g);
      await page.click('#show-names');
      const first = { agon: 'f1', 'egara-guti': 'd3', chess: 'e2' }[g];
      await click(page, first);
      await page.screenshot({ path: join(shots, `${g}-${lang}.png`) });
      await page.click('#show-names');
    }
    await page.done();
  }
});


(await import('./analysis.mjs')).register({ test, open, assert, server: () => srv, click, cell, waitMoves, playFromHome });
(await import('./friction.mjs')).register({ test, open, assert, server: () => srv });
(await import('./cellnames.mjs')).register({ test, open, assert, server: () => srv, playFromHome });
(await import('./playview.mjs')).register({ test, open, assert, server: () => srv, click, moveTexts, waitMoves, playFromHome, startFromPosition });

// ---------------------------------------------------------------- runner

let passed = 0, failed = 0;

// Does the server speak API.md's "Analysis" section?  (The test double always does.)
async function hasAnalysis() {
  if (!srv.real) return true;
  const res = await fetch(srv.url + '/api/positions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'chess', moves: [] }) });
  return res.status !== 404 && res.status !== 405;
}

async function pass() {
  const analysis = await hasAnalysis();
  for (const t of tests) {
    if (filter && !t.name.includes(filter)) continue;
    if ((t.doubleOnly && srv.real) || (t.realOnly && !srv.real) || (t.needsRestart && !srv.restart)) continue;
    if (t.analysis && !analysis) {
      console.log(`skip ${t.name}: the server has no POST /api/positions yet`);
      continue;
    }
    const t0 = Date.now();
    try {
      await t.fn();
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      console.log(`FAIL ${t.name}: ${err.message.split('\n')[0]}`);
    }
  }
}

try {
  srv = await startServer();
  console.log(`server under test: ${srv.real ? srv.url : 'the API test double (tests/e2e/fake-api.mjs)'}`);
  ({ browser } = await launch());
  await pass();
} catch (err) {
  failed++;
  console.log(`FAIL setup: ${err.message}`);
} finally {
  if (browser) await browser.close();
  if (srv) srv.stop();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

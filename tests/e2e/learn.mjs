// Browser tests of the lessons, demonstrations and trainers (issue 18), in Debian's
// Chromium against the real server (`./agora serve` on a free loopback port, or
// AGORA_URL): one lesson solved by clicks and one failed, one demonstration played and
// stepped (with and without reduced motion), the coordinates trainer, the opening
// drill, and every page in all four languages.  Prints "N passed, N failed".
//   node tests/e2e/learn.mjs [name-filter]
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

if (!process.env.AGORA_URL) process.env.AGORA_SERVE = '1';
const { startServer, launch } = await import('./browser.mjs');
const { checkPage } = await import('./a11y.mjs');
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

async function open(hash, opts = {}) {
  const ctx = await browser.newContext({ viewport: opts.viewport || { width: 1200, height: 860 }, reducedMotion: opts.reducedMotion || 'no-preference' });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.setDefaultTimeout(20000);
  await ctx.addInitScript((l) => { localStorage.setItem('agora.lang', l); }, opts.lang || 'en');
  if (opts.clock) await page.clock.install();
  await page.goto(srv.url + '/' + hash);
  await page.waitForSelector('body[data-ready]');
  page.done = async () => {
    assert(!errors.length, 'page errors: ' + errors.join('; '));
    await ctx.close();
  };
  return page;
}

const cell = (name) => `#board [data-cell="${name}"]`;
const text = (page, sel) => page.$eval(sel, (n) => n.textContent);

test('lesson: the rook collects the stars by clicks, three stars kept; the next stage follows', async () => {
  const page = await open('#/learn/chess/pieces');
  await page.waitForSelector(cell('a1'));
  assert((await page.$$('#board .star-mark')).length === 3, 'three stars drawn');
  for (const [from, to] of [['a1', 'a5'], ['a5', 'd5'], ['d5', 'd2']]) {
    await page.click(cell(from));
    await page.waitForSelector(`${cell(from)}.m-selected`);
    await page.click(cell(to));
    await page.waitForFunction((c) => !document.querySelector(`#board [data-star="${c}"]`) && (document.querySelector('#board svg.my-turn') || document.querySelector('#lesson-next')), to);
  }
  await page.waitForSelector('#lesson-next');
  const status = await text(page, '#lesson-status');
  assert(/Well done/.test(status) && /3 of 3/.test(status), `solved with three stars: ${status}`);
  await page.screenshot({ path: join(shots, 'learn-lesson-solved.png') });
  await page.click('#lesson-next');
  await page.waitForSelector('.lesson[data-stage="bishop"]');
  await page.goto(srv.url + '/#/learn/chess');
  await page.waitForSelector('.lesson-list');
  const row = await text(page, '.lesson-list li[data-lesson="pieces"]');
  assert(/3 of 18 stars/.test(row), `progress kept: ${row}`);
  await page.done();
});

test('lesson: a stalemate fails the stage, Try again starts over; the keyboard plays the mate', async () => {
  const page = await open('#/learn/chess/stalemate');
  await page.waitForSelector(cell('c7'));
  await page.click(cell('c7'));
  await page.click(cell('f7'));
  await page.waitForFunction(() => /Not this time/.test(document.querySelector('#lesson-status').textContent));
  assert(/stalemate/i.test(await text(page, '#lesson-status')), 'the reason is stalemate');
  assert(!(await page.$('#lesson-next')), 'no next after a failure');
  await page.click('#lesson-retry');
  await page.waitForFunction(() => document.querySelector('#board [data-at="c7"][data-piece="Q"]'));
  // Keyboard: focus c7 (a movable piece has the tab stop), Enter, then up to c8, Enter.
  await page.focus(`${cell('c7')}`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${cell('c7')}.m-selected`);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#lesson-next');
  assert(/Well done/.test(await text(page, '#lesson-status')), 'mate by the keyboard');
  await page.done();
});

test('lesson: Egara-guti chain and Agon return by clicks', async () => {
  let page = await open('#/learn/egara-guti/chain');
  await page.waitForSelector(cell('d1'));
  await page.click(cell('d1'));
  await page.click(cell('d5'));
  await page.waitForSelector('#lesson-next');
  await page.done();
  page = await open('#/learn/agon/return?stage=2');
  await page.waitForSelector(cell('g4'));
  await page.click(cell('g4'));
  await page.click(cell('f6'));
  await page.waitForSelector('#lesson-next');
  await page.screenshot({ path: join(shots, 'learn-agon-return.png') });
  await page.done();
});

test('lesson: promotion offers a choice of pieces', async () => {
  const page = await open('#/learn/chess/promotion');
  await page.waitForSelector(cell('b7'));
  await page.click(cell('b7'));
  await page.click(cell('b8'));
  await page.waitForSelector('#lesson-choice .choice');
  const labels = await page.$$eval('#lesson-choice .choice', (b) => b.map((x) => x.textContent));
  assert(labels.length === 4 && labels.some((l) => /=Q/.test(l)), `four promotions: ${labels}`);
  await page.click('#lesson-choice .choice >> text=/=N/');
  await page.waitForSelector('#lesson-next');
  await page.done();
});

test('demonstration: play, pause, step, back, speed; captions; the piece glides; reached from the rules page', async () => {
  let page = await open('#/rules/chess');
  await page.click('a.learn-link');
  await page.waitForSelector('.demo-list');
  await page.click('.demo-list a[href="#/demo/chess/en-passant"]');
  await page.waitForSelector('#demo-play');
  assert(/Press Play/.test(await text(page, '#demo-caption')), 'ready caption');
  await page.click('#demo-step');
  assert(/^1\. e4/.test(await text(page, '#demo-caption')), 'first caption');
  const gliding = await page.evaluate(() => document.querySelector('#board [data-at="e4"]').getAnimations().length);
  assert(gliding === 1, 'the moved piece is animated');
  await page.click('#demo-back');
  assert(/Press Play/.test(await text(page, '#demo-caption')), 'back at the start');
  await page.selectOption('#demo-speed', '2');
  await page.click('#demo-play');
  await page.waitForFunction(() => /^5\./.test(document.querySelector('#demo-caption').textContent), null, { timeout: 15000 });
  assert(/en passant/.test(await text(page, '#demo-caption')), 'the last caption');
  assert(!(await page.$('#board [data-cell="d5"] [data-piece]')), 'the pawn taken en passant is gone');
  await page.screenshot({ path: join(shots, 'learn-demo.png') });
  await page.done();
  page = await open('#/demo/agon/capture', { reducedMotion: 'reduce' });
  await page.waitForSelector('#demo-step');
  await page.click('#demo-step');
  const still = await page.evaluate(() => document.querySelector('#board [data-at="f4"]').getAnimations().length);
  assert(still === 0, 'reduced motion: no movement, a step');
  assert(await page.$('#board .piece.captured[data-at="g4"]'), 'the captured guard is marked');
  await page.done();
});

test('coordinates: the named cell counts, a wrong one does not, the best score is kept, Black side flips', async () => {
  const page = await open('#/coordinates/chess', { clock: true });
  await page.waitForSelector('#coords-start');
  await page.selectOption('#coords-side', 'black');
  const flipped = await page.evaluate(() => {
    const a = document.querySelector('#board [data-cell="a1"]').getBoundingClientRect();
    const h = document.querySelector('#board [data-cell="h8"]').getBoundingClientRect();
    return a.x > h.x && a.y < h.y;
  });
  assert(flipped, 'seen from Black, a1 is top right');
  await page.click('#coords-start');
  for (let i = 0; i < 3; i++) {
    const name = (await text(page, '#coords-target')).replace('Find ', '');
    await page.click(cell(name));
  }
  const target = (await text(page, '#coords-target')).replace('Find ', '');
  await page.click(cell(target === 'a1' ? 'b1' : 'a1'));
  assert(/Found: 3/.test(await text(page, '#coords-score')), 'three found, the miss not counted');
  await page.clock.runFor(31000); // the 30 seconds pass
  await page.waitForFunction(() => /Time!/.test(document.querySelector('#coords-target').textContent));
  assert(/Best: 3/.test(await text(page, '#coords-best')), 'best kept');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('agora.coords')));
  assert(stored['chess/black'] === 3, 'stored per game and side');
  await page.done();
});

test('openings: a suggested line added, a drill with a right and a wrong move, SM-2 cards stored; the book explored', async () => {
  const page = await open('#/openings');
  await page.waitForSelector('#open-suggested [data-suggested="giuoco-piano"] button.add-line');
  assert(/Giuoco Piano/.test(await text(page, '#open-suggested [data-suggested="giuoco-piano"]')), 'the name comes from the server');
  await page.click('#open-suggested [data-suggested="giuoco-piano"] button.add-line');
  await page.waitForSelector('#open-repertoire li[data-line] a');
  assert(/0 of 3 positions learnt/.test(await text(page, '#open-repertoire li[data-line]')), 'three positions to learn');
  // The book at the start: its moves with their shares; clicking one plays it.
  await page.waitForSelector('#open-book button[data-move="e2e4"]');
  await page.click('#open-book button[data-move="e2e4"]');
  await page.waitForFunction(() => /King's pawn/i.test(document.querySelector('#open-name').textContent));
  await page.click('#open-repertoire li[data-line] a');
  await page.waitForSelector('.drill #board svg.my-turn');
  await page.click(cell('e2'));
  await page.click(cell('e4'));
  await page.waitForFunction(() => /Right: e4/.test(document.querySelector('#drill-status').textContent) && document.querySelector('#board svg.my-turn') && document.querySelector('#board [data-at="e5"]'));
  await page.click(cell('d2')); // the repertoire plays Nf3 here
  await page.click(cell('d4'));
  // The answer and the right move on the board come together (the board stays so 1.6 s).
  await page.waitForFunction(() => /Not that one: the repertoire move is Nf3/.test(document.querySelector('#drill-status').textContent));
  assert(await page.$(`${cell('g1')}.m-path`) && await page.$(`${cell('f3')}.m-path`), 'the right move is shown on the board');
  await page.waitForFunction(() => document.querySelector('#board svg.my-turn') && document.querySelector('#board [data-at="c6"]'));
  await page.click(cell('f1'));
  await page.click(cell('c4'));
  await page.waitForFunction(() => /End of the line/.test(document.querySelector('#drill-status').textContent));
  assert(/Giuoco Piano/.test(await text(page, '#open-name')), 'the name shown in the drill');
  const cards = await page.evaluate(() => JSON.parse(localStorage.getItem('agora.openings')).cards);
  assert(cards['white:'].reps === 1 && cards['white:'].interval === 1, 'a right answer: the first interval');
  assert(cards['white:e2e4 e7e5'].reps === 0 && cards['white:e2e4 e7e5'].ef === 2.5, 'a wrong answer: starts over');
  assert(/2 of 3 positions learnt/.test(await text(page, '#drill-progress')), 'progress per line');
  await page.screenshot({ path: join(shots, 'learn-openings-drill.png') });
  await page.done();
});

test('opening name: shown live on the analysis board', async () => {
  const page = await open('#/analysis/chess');
  await page.waitForSelector('#board [data-cell="e2"]');
  await page.click(cell('e2'));
  await page.click(cell('e4'));
  await page.waitForFunction(() => /King's pawn/i.test(document.querySelector('#opening-name')?.textContent || ''));
  await page.done();
});

test('phone: the learn pages fit the screen', async () => {
  const page = await open('#/learn', { viewport: { width: 390, height: 800 } });
  for (const hash of ['#/learn', '#/learn/agon/formation', '#/demo/chess/castling', '#/coordinates/agon', '#/openings']) {
    await page.goto(srv.url + '/' + hash);
    await page.waitForSelector('.learn-page');
    await page.waitForTimeout(300);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(wide <= 1, `${hash}: ${wide} px wider than the screen`);
  }
  await page.screenshot({ path: join(shots, 'learn-phone-openings.png') });
  await page.done();
});

test('languages: the learn pages in en, bn, as, fi (native digits for bn and as)', async () => {
  for (const lang of ['en', 'bn', 'as', 'fi']) {
    const page = await open('#/learn/agon/steps', { lang });
    await page.waitForSelector('#lesson-text');
    const words = await text(page, '.lesson');
    assert(!/learn\.|demo\.|coords\./.test(words), `${lang}: a key shown instead of a text`);
    if (lang === 'bn' || lang === 'as') assert(/[০-৯]/.test(words) && !/[0-9] /.test(await text(page, '#lesson-moves')), `${lang}: native digits`);
    if (lang === 'fi') assert(/Kerää/.test(words), 'Finnish text');
    await page.screenshot({ path: join(shots, `learn-agon-${lang}.png`) });
    for (const hash of ['#/learn', '#/demo/egara-guti/opening', '#/coordinates/egara-guti', '#/openings']) {
      await page.goto(srv.url + '/' + hash);
      await page.waitForSelector('.learn-page');
      const all = await text(page, '.learn-page');
      assert(!/(learn|demo|coords|open)\.[a-z]/.test(all), `${lang} ${hash}: a key shown instead of a text`);
    }
    await page.done();
  }
});

test('analysis board: a promotion asks which piece (the chooser shared with the play and puzzle boards)', async () => {
  const page = await open('#/analysis/chess?position=' + encodeURIComponent('7k/1P6/6K1/8/8/8/8/8 w - - 0 1'));
  await page.waitForSelector(`${cell('b7')}`);
  await page.waitForFunction(() => document.querySelector('#board [data-at="b7"]'));
  await page.click(cell('b7'));
  await page.click(cell('b8'));
  await page.waitForSelector('#promotion:not([hidden])');
  const pieces = await page.$$eval('#promotion [data-promotion]', (n) => n.map((x) => x.dataset.promotion).sort().join(''));
  assert(pieces === 'bnqr', 'the chooser offers ' + pieces);
  assert(await page.evaluate(() => !!document.activeElement?.closest('#promotion')), 'the chooser does not take the focus');
  await page.click('#promotion [data-promotion="n"]');
  await page.waitForFunction(() => /b8=N/.test(document.querySelector('#tree').textContent));
  assert(await page.isHidden('#promotion'), 'the chooser stays open');
  assert(await page.$('#board .piece[data-at="b8"][data-piece="N"]'), 'no knight on b8');
  await page.done();
});

test('contrast and keyboard: the learn pages, a stage won and lost, a demonstration, the trainers, both themes', async () => {
  const fails = [];
  let checked = 0;
  for (const theme of ['light', 'dark']) {
    const page = await open('#/learn');
    const keys = theme === 'light';
    const at = async (hash, sel, label, ready) => {
      const r = await checkPage(page, { url: srv.url + '/' + hash, sel, theme, keys, label, ready }).catch((e) => { throw new Error(`${label}: ${e.message}`); });
      checked += r.checked;
      fails.push(...r.fails);
    };
    await at('#/learn', '.learn-page', 'learn');
    await at('#/learn/chess', '.lesson-list', 'lessons');
    // A stage lost (a stalemate: the failure's colours) and one won.
    await at('#/learn/chess/stalemate', cell('c7'), 'stage lost', async (p) => {
      await p.click(cell('c7'));
      await p.click(cell('f7'));
      await p.waitForSelector('#lesson-retry');
    });
    await at('#/learn/chess/pieces', cell('a1'), 'stage won', async (p) => {
      for (const [from, to] of [['a1', 'a5'], ['a5', 'd5'], ['d5', 'd2']]) {
        await p.click(cell(from));
        await p.waitForSelector(`${cell(from)}.m-selected`);
        await p.click(cell(to));
        await p.waitForFunction((c) => !document.querySelector(`#board [data-star="${c}"]`) && (document.querySelector('#board svg.my-turn') || document.querySelector('#lesson-next')), to);
      }
      await p.waitForSelector('#lesson-next');
    });
    await at('#/learn/egara-guti', '.lesson-list', 'lessons egara-guti');
    await at('#/demo/chess/en-passant', '#demo-play', 'demonstration', async (p) => {
      await p.click('#demo-step');
      await p.waitForFunction(() => !/Press Play/.test(document.querySelector('#demo-caption').textContent));
    });
    await at('#/coordinates/chess', '#coords-start', 'coordinates', async (p) => {
      await p.click('#coords-start');
      await p.waitForFunction(() => /\b[a-h][1-8]\b/.test(document.querySelector('#coords-target').textContent));
    });
    await at('#/openings', '#open-suggested [data-suggested] button.add-line', 'openings', async (p) => {
      await p.click('#open-suggested [data-suggested="giuoco-piano"] button.add-line');
      await p.waitForSelector('#open-repertoire li[data-line] a');
    });
    await page.click('#open-repertoire li[data-line] a');
    await page.waitForSelector('#drill-status');
    const r = await checkPage(page, { sel: '#board svg', theme, keys, label: 'opening drill' });
    checked += r.checked;
    fails.push(...r.fails);
    await page.done();
  }
  // The dark theme the system asks for (no switch pressed): the media query's colours.
  const page = await open('#/learn');
  for (const [hash, sel] of [['#/learn', '.learn-page'], ['#/learn/chess', '.lesson-list'], ['#/openings', '#open-suggested']]) {
    const r = await checkPage(page, { url: srv.url + '/' + hash, sel, theme: 'system-dark', label: hash });
    checked += r.checked;
    fails.push(...r.fails);
  }
  assert(await page.evaluate(() => getComputedStyle(document.body).backgroundColor) === 'rgb(27, 23, 20)', 'the system\'s dark theme is not shown');
  await page.done();
  assert(!fails.length, [...new Set(fails)].slice(0, 80).join('; '));
  assert(checked > 100, `only ${checked} texts measured`);
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

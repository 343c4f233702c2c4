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

test('openings: a repertoire answering 1...e5 and 1...c5; a seeded drill plays both over two rounds, with a hint, a wrong move and its correction, grades 5/4/3/1', async () => {
  const page = await open('#/openings', { clock: true });
  for (const id of ['giuoco-piano', 'ruy-lopez']) {
    await page.waitForSelector(`#open-suggested [data-suggested="${id}"] button.add-line`);
    await page.click(`#open-suggested [data-suggested="${id}"] button.add-line`);
  }
  assert(/Giuoco Piano/.test(await text(page, '#open-suggested [data-suggested="giuoco-piano"]')), 'the name comes from the server');
  await page.waitForSelector('#open-repertoire li[data-line="white:e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4"]');
  assert(/0 of 3 positions learnt/.test(await text(page, '#open-repertoire li[data-line]')), 'three positions to learn');
  // A third line built by clicking through the book: 1. e4 c5 2. Nf3.
  for (const m of ['e2e4', 'c7c5', 'g1f3']) {
    await page.waitForSelector(`#open-book button[data-move="${m}"]`);
    await page.click(`#open-book button[data-move="${m}"]`);
  }
  await page.waitForFunction(() => /Sicilian/i.test(document.querySelector('#open-name').textContent) && !document.querySelector('#open-book button[data-move="g1f3"]'));
  await page.click('#open-add');
  await page.waitForSelector('#open-repertoire li[data-line="white:e2e4 c7c5 g1f3"]');
  await page.click('#open-drills #drill-white');
  await page.waitForSelector('.drill[data-side="white"] #board svg');
  // Seed 5: the draws are 0.690 and 0.773, both beyond c5's share of the two (14550 of
  // 25171): 1...e5 in round 1, and in round 2 too if the due positions did not come first.
  await page.goto(srv.url + '/#/openings?drill=white&seed=5');
  await page.waitForSelector('.drill #board svg.my-turn');
  assert(/Round 1/.test(await text(page, '#drill-round')), 'round 1');
  const status = () => text(page, '#drill-status');
  const waitStatus = (re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#drill-status').textContent), re.source);
  const move = async (from, to) => {
    await page.click(cell(from));
    await page.click(cell(to));
  };
  const myTurnWith = (at) => page.waitForFunction((c) => document.querySelector('#board svg.my-turn') && document.querySelector(`#board [data-at="${c}"]`), at);
  await move('e2', 'e4');
  await myTurnWith('e5');
  assert(/Right at once: e4\. Grade 5\..*The book played e5/.test(await status()), `grade 5, then the book's reply: ${await status()}`);
  // A hint marks the knight; the right move after it is grade 3.
  await page.click('#drill-hint');
  await page.waitForSelector(`${cell('g1')}.m-hint`);
  assert((await page.$$('#board .m-hint')).length === 1 && /piece to move is marked/.test(await status()), 'one piece marked');
  assert(await page.$eval('#drill-hint', (b) => b.disabled), 'one hint a position');
  assert(/the piece to move/.test(await page.$eval(cell('g1'), (n) => n.getAttribute('aria-label') || '')), 'the hint told to screen readers');
  await page.screenshot({ path: join(shots, 'learn-openings-hint.png') });
  await move('g1', 'f3');
  await myTurnWith('c6');
  assert(/Right, with a hint: Nf3\. Grade 3\./.test(await status()), `grade 3: ${await status()}`);
  // A wrong move: both repertoire moves (Bc4 of the Giuoco, Bb5 of the Ruy Lopez) shown; then one is played.
  await move('d2', 'd4');
  await waitStatus(/Not that one: your repertoire plays Bc4 or Bb5/);
  for (const c of ['f1', 'c4', 'b5']) assert(await page.$(`${cell(c)}.m-path`), `${c} marked`);
  assert(await page.$('#board [data-at="d2"]'), 'the wrong move is not played');
  await move('f1', 'b5');
  await myTurnWith('a6');
  assert(/That is the one: Bb5\. Your repertoire also plays Bc4 here\./.test(await status()), `the correction: ${await status()}`);
  // A pause of 12 seconds (the clock jumps): grade 4; then the book has no reply the repertoire answers.
  await page.clock.fastForward(12000);
  await move('b5', 'a4');
  await waitStatus(/End of your line/);
  assert(/Right, after a pause: Ba4\. Grade 4\./.test(await status()), `grade 4: ${await status()}`);
  let cards = await page.evaluate(() => JSON.parse(localStorage.getItem('agora.openings')).cards);
  const card = (k) => cards['white:' + k];
  assert(card('').reps === 1 && card('').ef === 2.6 && card('').interval === 1, 'grade 5: EF 2.6');
  assert(card('e2e4 e7e5').reps === 1 && card('e2e4 e7e5').ef === 2.36, 'grade 3: EF 2.36');
  assert(card('e2e4 e7e5 g1f3 b8c6').reps === 0 && card('e2e4 e7e5 g1f3 b8c6').interval === 1, 'grade 1: starts over');
  assert(card('e2e4 e7e5 g1f3 b8c6 f1b5 a7a6').ef === 2.5 && card('e2e4 e7e5 g1f3 b8c6 f1b5 a7a6').reps === 1, 'grade 4: EF 2.5');
  assert(card('e2e4 c7c5').reps === 0, 'the Sicilian position not seen yet');
  await page.screenshot({ path: join(shots, 'learn-openings-drill.png') });
  // Round 2: the 1...e5 positions are not due any more, 1...c5 is: the book plays c5.
  await page.click('#drill-again');
  await page.waitForFunction(() => /Round 2/.test(document.querySelector('#drill-round').textContent) && document.querySelector('#board svg.my-turn'));
  await move('e2', 'e4');
  await myTurnWith('c5');
  assert(/not due yet/.test(await status()) && /The book played c5/.test(await status()), `an early answer, then c5: ${await status()}`);
  await move('g1', 'f3');
  await waitStatus(/Right at once: Nf3\. Grade 5\. End of your line/);
  assert(/Sicilian/i.test(await text(page, '#open-name')), 'the name shown in the drill');
  cards = await page.evaluate(() => JSON.parse(localStorage.getItem('agora.openings')).cards);
  assert(card('').reps === 1 && card('e2e4 c7c5').reps === 1, 'the early answer left the first card; the Sicilian one reviewed');
  assert(/0 of 5 positions learnt · 0 positions due/.test(await text(page, '#drill-progress')), `progress: ${await text(page, '#drill-progress')}`);
  assert((await page.$$('#drill-lines li')).length === 3, 'progress per line');
  // The help explains the grades.
  await page.click('#drill-help summary');
  assert(/Grade 4: right at the first try, after more than 10 seconds/.test(await text(page, '#drill-help')), 'the grades explained');
  await page.done();
});

test('openings: a line learned after two right rounds on different days, the other not', async () => {
  const page = await open('#/openings', { clock: true });
  await page.waitForSelector('#open-suggested [data-suggested="french"] button.add-line');
  await page.click('#open-suggested [data-suggested="french"] button.add-line');
  await page.click('#open-suggested [data-suggested="caro-kann"] button.add-line');
  await page.waitForSelector('#open-repertoire li[data-line="black:e2e4 c7c6 d2d4 d7d5"] a');
  const round = async () => {
    // 1. e4 c6 2. d4 d5: the book's only replies that the two lines answer.
    await page.waitForSelector('.drill #board svg.my-turn');
    await page.waitForSelector('#board [data-at="e4"]');
    await page.click(cell('c7'));
    await page.click(cell('c6'));
    await page.waitForFunction(() => document.querySelector('#board svg.my-turn') && document.querySelector('#board [data-at="d4"]'));
    await page.click(cell('d7'));
    await page.click(cell('d5'));
    await page.waitForFunction(() => /End of your line/.test(document.querySelector('#drill-status').textContent));
  };
  await page.click('#open-repertoire li[data-line="black:e2e4 c7c6 d2d4 d7d5"] a');
  await round();
  await page.clock.fastForward(24 * 3600 * 1000 + 60000); // the next day
  await page.goto(srv.url + '/#/openings?drill=1&seed=5');
  await round();
  await page.goto(srv.url + '/#/openings');
  await page.waitForSelector('#open-repertoire li[data-line="black:e2e4 c7c6 d2d4 d7d5"]');
  const caro = await text(page, '#open-repertoire li[data-line="black:e2e4 c7c6 d2d4 d7d5"]');
  assert(/2 of 2 positions learnt/.test(caro) && /learned/.test(caro), `the Caro-Kann learned: ${caro}`);
  // The French shares its first position (after 1. e4, answered by c6 or e6) with the Caro-Kann.
  const frenchRow = await text(page, '#open-repertoire li[data-line="black:e2e4 e7e6 d2d4 d7d5"]');
  assert(/1 of 2 positions learnt/.test(frenchRow) && !/learned/.test(frenchRow), `the French not yet: ${frenchRow}`);
  await page.done();
});

test("openings: a line's own Drill link follows that line in the first round, whatever the draw", async () => {
  const page = await open('#/openings');
  const line = (moves) => ({ id: 'white:' + moves.join(' '), side: 'white', moves, name: '' });
  await page.evaluate((lines) => localStorage.setItem('agora.openings', JSON.stringify({ lines, cards: {} })), [line(['e2e4', 'e7e5', 'g1f3']), line(['e2e4', 'c7c5', 'g1f3'])]);
  // Seed 1's first draw (0.627) gives 1...e5, seed 7's (0.012) 1...c5: the focus goes the other way.
  for (const [index, seed, reply] of [[1, 1, 'c5'], [0, 7, 'e5']]) {
    await page.goto(srv.url + `/#/openings?drill=${index}&seed=${seed}`);
    await page.waitForFunction(() => document.querySelector('.drill #board svg.my-turn') && document.querySelector('#board [data-at="e2"]'));
    await page.click(cell('e2'));
    await page.click(cell('e4'));
    await page.waitForFunction((c) => document.querySelector('#board svg.my-turn') && document.querySelector(`#board [data-at="${c}"]`), reply);
    await page.goto(srv.url + '/#/openings');
    await page.waitForSelector('#open-repertoire li[data-line]');
  }
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
      assert(!/(learn|demo|coords|open|drill)\.[a-z]/.test(all), `${lang} ${hash}: a key shown instead of a text`);
    }
    // The drill page: a line added, then drilled.
    await page.goto(srv.url + '/#/openings');
    await page.waitForSelector('#open-suggested [data-suggested="french"] button.add-line');
    await page.click('#open-suggested [data-suggested="french"] button.add-line');
    await page.goto(srv.url + '/#/openings?drill=black&seed=3');
    await page.waitForSelector('.drill #board svg.my-turn');
    const drill = await text(page, '.learn-page');
    assert(!/(learn|demo|coords|open|drill|side)\.[a-z]/.test(drill), `${lang} drill: a key shown instead of a text`);
    if (lang === 'bn' || lang === 'as') assert(/[০-৯]/.test(await text(page, '#drill-round')), `${lang}: native digits in the round`);
    if (lang === 'fi') assert(/Kierros 1/.test(drill) && /Arvosana 5/.test(drill), 'Finnish drill text');
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
  // (the move list shows the move at once; the board once the server's position is in)
  await page.waitForSelector('#board .piece[data-at="b8"][data-piece="N"]', { state: 'attached', timeout: 5000 })
    .catch(() => assert(false, 'no knight on b8'));
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

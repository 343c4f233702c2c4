// Browser tests of issue 25 item 12's cell names: Agon's and Egara-guti's moves are
// written with cell names, so their boards write them (small, in a corner of each cell
// or point, off the pieces, legible in both themes) until a switch hides them, a choice
// kept across reloads; the coordinates trainer teaches the names (written between
// rounds, "find the named cell" and "name the marked cell" rounds with a score).
// Registered by tests/e2e/run.mjs; the catalogue is the server's.

// In the page: what the board's names look like.  For each name: whether it is shown,
// whether it overlaps a piece's disc, and the WCAG contrast of its fill with its halo
// (the text's own background: the stroke painted under it) — and with what lies behind
// the halo does not matter then.
function namesSeen() {
  const parse = (c) => (/rgba?\(([^)]+)\)/.exec(c) || [null, '0,0,0'])[1].split(/[\s,/]+/).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const svg = document.querySelector('#board svg, #puzzle-board svg');
  const discs = [...svg.querySelectorAll('.piece .stone')].map((c) => { const r = c.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, r: r.width / 2 }; });
  const names = [...svg.querySelectorAll('.cell-name')];
  const out = { cells: svg.querySelectorAll('[data-cell]').length, names: names.length, shown: 0, overlaps: [], lowContrast: [], small: [] };
  for (const n of names) {
    const box = n.getBoundingClientRect();
    if (!box.width || getComputedStyle(n).display === 'none' || n.closest('.names') && getComputedStyle(n.closest('.names')).display === 'none') continue;
    out.shown++;
    const st = getComputedStyle(n);
    const c = ratio(parse(st.fill), parse(st.stroke));
    if (!(c >= 4.5)) out.lowContrast.push(`${n.textContent} ${c.toFixed(2)}`);
    if (box.height < 7) out.small.push(`${n.textContent} ${box.height.toFixed(1)}px`);
    for (const d of discs) {
      // The nearest point of the text's box to the disc's centre, inside the disc: covered.
      const nx = Math.max(box.left, Math.min(d.x, box.right)), ny = Math.max(box.top + box.height * 0.2, Math.min(d.y, box.bottom - box.height * 0.2));
      if (Math.hypot(nx - d.x, ny - d.y) < d.r - 1) out.overlaps.push(n.textContent);
    }
  }
  return out;
}

export function register({ test, open, assert, server, playFromHome }) {
  const GAMES = ['agon', 'egara-guti'];

  test('cell names: Agon and Egara-guti boards write every cell\'s name by default, off the pieces, AA contrast in both themes', async () => {
    for (const theme of ['light', 'dark']) {
      const page = await open();
      await page.evaluate((th) => localStorage.setItem('agora.theme', th), theme);
      for (const g of GAMES) {
        await page.goto(server().url + '/#/');
        await page.waitForSelector('.card');
        await playFromHome(page, g);
        await page.waitForSelector('#board svg .piece');
        assert(await page.isChecked('#show-names'), `${g} ${theme}: the switch is off by default`);
        const seen = await page.evaluate(namesSeen);
        assert(seen.names === seen.cells && seen.shown === seen.cells, `${g} ${theme}: ${seen.shown} of ${seen.cells} names shown`);
        assert(!seen.overlaps.length, `${g} ${theme}: names over pieces: ${seen.overlaps.join(' ')}`);
        assert(!seen.lowContrast.length, `${g} ${theme}: contrast under 4.5: ${seen.lowContrast.join(', ')}`);
        assert(!seen.small.length, `${g} ${theme}: names too small: ${seen.small.join(', ')}`);
      }
      await page.done();
    }
    // The other boards where moves are entered: the analysis board and a puzzle's.
    for (const g of GAMES) {
      const page = await open({ hash: `#/analysis/${g}` });
      await page.waitForSelector('#board svg .piece');
      const seen = await page.evaluate(namesSeen);
      assert(seen.shown === seen.cells && seen.cells > 0, `analysis ${g}: ${seen.shown} of ${seen.cells} names shown`);
      await page.done();
    }
    // Chess keeps its coordinates on the frame, and no name in the squares.
    const page = await open();
    await playFromHome(page, 'chess');
    assert(!(await page.isChecked('#show-names')), 'chess: names in every square by default');
    assert(await page.$$eval('#board svg .coord', (c) => c.length) === 16, 'chess: the frame\'s coordinates');
    await page.done();
  });

  test('cell names: the switch hides them on every board, and a reload keeps the choice', async () => {
    const page = await open();
    await playFromHome(page, 'egara-guti');
    await page.click('#show-names');
    let seen = await page.evaluate(namesSeen);
    assert(seen.shown === 0, `after the switch, ${seen.shown} names still shown`);
    assert(await page.evaluate(() => localStorage.getItem('agora.names')) === '0', 'the choice is not kept');
    await page.reload();
    await page.waitForSelector('#board svg');
    assert(!(await page.isChecked('#show-names')), 'after a reload the switch is on again');
    seen = await page.evaluate(namesSeen);
    assert(seen.shown === 0, `after a reload, ${seen.shown} names shown`);
    await page.goto(server().url + '/#/analysis/agon');
    await page.waitForSelector('#board svg .piece');
    assert((await page.evaluate(namesSeen)).shown === 0 && !(await page.isChecked('#show-names')), 'the analysis board does not follow the choice');
    await page.click('#show-names');
    seen = await page.evaluate(namesSeen);
    assert(seen.shown === seen.cells, `switched on again, ${seen.shown} of ${seen.cells} shown`);
    await page.done();
  });

  test('cell names: the Egara-guti coordinates trainer writes the names, asks for a named cell and for a marked cell\'s name, and counts right answers', async () => {
    const page = await open({ hash: '#/coordinates/egara-guti' });
    await page.waitForSelector('#coords-start');
    const before = await page.evaluate(namesSeen);
    assert(before.shown === before.cells && before.cells > 0, `between rounds ${before.shown} of ${before.cells} names written`);
    // Find the named cell.
    await page.click('#coords-start');
    assert((await page.evaluate(namesSeen)).shown === 0, 'the names stay written during a round');
    const target = (await page.textContent('#coords-target')).replace('Find ', '').trim();
    const names = await page.$$eval('#board [data-cell]', (c) => c.map((x) => x.dataset.cell));
    assert(names.includes(target), `"${target}" is not one of the server's names`);
    await page.click(`#board [data-cell="${target}"]`);
    assert(/Found: 1/.test(await page.textContent('#coords-score')), 'the right click not counted');
    const next = (await page.textContent('#coords-target')).replace('Find ', '').trim();
    await page.click(`#board [data-cell="${names.find((n) => n !== next)}"]`);
    assert(/Found: 1/.test(await page.textContent('#coords-score')), 'a wrong click counted');
    await page.reload();
    await page.waitForSelector('#coords-start');
    // Name the marked cell.
    await page.selectOption('#coords-mode', 'name');
    await page.click('#coords-start');
    assert(/Which cell/.test(await page.textContent('#coords-target')), 'no question');
    const marked = await page.$eval('#board .cell.m-selected', (c) => c.dataset.cell);
    const offered = await page.$$eval('#coords-choices button', (b) => b.map((x) => x.dataset.name));
    assert(offered.length === 4 && offered.includes(marked) && new Set(offered).size === 4, `choices ${offered} for ${marked}`);
    await page.click(`#coords-choices button[data-name="${offered.find((n) => n !== marked)}"]`);
    assert(/Found: 0/.test(await page.textContent('#coords-score')), 'a wrong name counted');
    await page.click(`#coords-choices button[data-name="${marked}"]`);
    assert(/Found: 1/.test(await page.textContent('#coords-score')), 'the right name not counted');
    assert(await page.$eval('#board .cell.m-selected', (c) => c.dataset.cell) !== marked, 'the same cell asked again');
    await page.done();
  });

  test('cell names: the trainer\'s words in every language', async () => {
    for (const lang of ['en', 'bn', 'as', 'fi']) {
      const page = await open({ lang, hash: '#/coordinates/agon' });
      await page.waitForSelector('#coords-start');
      await page.selectOption('#coords-mode', 'name');
      await page.click('#coords-start');
      const words = await page.textContent('.coords');
      assert(!/coords\.[a-z]/.test(words), `${lang}: a key shown instead of a text`);
      await page.done();
    }
  });
}

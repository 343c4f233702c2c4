// Contrast (WCAG AA, both themes) and keyboard access of the analysis board and a
// review, registered into run.mjs's list (through playview.mjs): it runs against the
// test double (tests/suites/browser) and the real server (tests/suites/browser-server).
// The learn, puzzle and people pages are measured in their own suites (learn.mjs,
// puzzles.mjs, people.mjs) with the same helpers (a11y.mjs).
import { checkPage } from './a11y.mjs';

const PGN = '[Event "test"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 {open} 2. Nf3 Nc6 *\n';

export function register({ test, open, assert, server, click, startFromPosition }) {
  test('contrast and keyboard: the analysis board (engine on) and a review, both themes', async () => {
    const fails = [];
    let checked = 0;
    for (const theme of ['light', 'dark']) {
      const page = await open({ lang: 'en' });
      const keys = theme === 'light';
      for (const g of ['chess', 'agon']) {
        const r = await checkPage(page, {
          url: `${server().url}/#/analysis/${g}`, sel: `.analysis[data-game="${g}"] #board svg [data-cell]`, theme, keys, label: `analysis ${g}`,
          ready: async (p) => {
            await p.check('#engine-on');
            await p.waitForSelector('.engine-line');
            await p.click('#keys summary');
          },
        });
        checked += r.checked;
        fails.push(...r.fails);
      }
      // A review of an imported record: the graph, the marks, the accuracy.
      const r = await checkPage(page, {
        url: `${server().url}/#/analysis/chess`, sel: '#board svg', theme, keys, label: 'review',
        ready: async (p) => {
          await p.click('#load summary');
          await p.fill('#record-text', PGN);
          await p.click('#review-record');
          await p.waitForSelector('#graph .graph-point', { timeout: 30000 });
        },
      });
      checked += r.checked;
      fails.push(...r.fails);
      await page.done();
    }
    assert(!fails.length, [...new Set(fails)].slice(0, 80).join('; '));
    assert(checked > 60, `only ${checked} texts measured`);
  }, { analysis: true });

  test('contrast and keyboard: the promotion chooser (white pieces) in both themes', async () => {
    const fails = [];
    const page = await open({ lang: 'en' });
    await startFromPosition(page, 'chess', '7k/1P6/6K1/8/8/8/8/8 w - - 0 1');
    for (const theme of ['light', 'dark']) {
      await click(page, 'b7');
      await click(page, 'b8');
      const r = await checkPage(page, { theme, keys: true, sel: '#promotion:not([hidden]) [data-promotion]', label: 'promotion chooser' });
      fails.push(...r.fails);
      assert(r.checked >= 8, `only ${r.checked} texts measured`);
      await page.click('#promotion-cancel');
      await page.waitForSelector('#promotion', { state: 'hidden' });
    }
    assert(!fails.length, fails.join('; '));
    await page.done();
  });
}

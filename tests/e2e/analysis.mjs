// Browser tests of the analysis board and the game review (issue 15), registered into
// run.mjs's list: register({ test, open, assert, server, ... }) with run.mjs's helpers.
// These need the analysis endpoints (API.md "Analysis"); against a real server without
// them they are skipped (the runner says so).
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'build', 'screenshots');
const GAMES = ['agon', 'egara-guti', 'chess'];
const LANGS = ['en', 'bn', 'as', 'fi'];

export function register({ test, open, assert, server, click, cell, waitMoves, playFromHome }) {
  const mvTexts = (page) => page.$$eval('#tree .mv', (n) => n.map((x) => x.textContent));
  const currentMove = (page) => page.$eval('#tree .mv.current', (n) => n.textContent).catch(() => null);
  // The move list's current move is `text` (null: the start) and the board shows it.
  const waitCurrent = (page, text) => page.waitForFunction((tx) => {
    const c = document.querySelector('#tree .mv.current');
    const shown = document.querySelector('.analysis')?.dataset.shown;
    return tx === null ? !c && shown === '0' : c && c.textContent.replace(/[!?]+$/, '') === tx && shown === c.dataset.node;
  }, text);
  const pieceAt = (page, name) => page.$(`#board .piece[data-at="${name}"]`);
  const PGN = '[Event "test"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 {open} 2. Nf3 Nc6 *\n';

  test('analysis: import a PGN, step with the keys, variations, promote, delete, export, link', async () => {
    const page = await open({ hash: '#/analysis/chess' });
    await page.waitForSelector('#board svg');
    assert((await page.$$('#board .piece')).length === 32, 'the start position is not shown');
    await page.click('#load summary');
    await page.fill('#record-text', PGN);
    await page.click('#load-record');
    await page.waitForFunction(() => document.querySelectorAll('#tree .mv').length === 4);
    const texts = await mvTexts(page);
    assert(texts.join(' ') === '1.e4 e5 2.Nf3 Nc6', 'moves: ' + texts.join(' '));
    await waitCurrent(page, 'Nc6');
    await page.click('#status'); // focus away from the fields
    await page.keyboard.press('Home');
    await waitCurrent(page, null);
    assert((await page.$$('#board .piece')).length === 32 && await pieceAt(page, 'e2'), 'Home: not the start');
    await page.keyboard.press('ArrowRight');
    await waitCurrent(page, '1.e4');
    assert(await pieceAt(page, 'e4') && !(await pieceAt(page, 'e2')), 'ArrowRight: e4 not played on the board');
    await page.keyboard.press('End');
    await waitCurrent(page, 'Nc6');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await waitCurrent(page, 'e5');
    await page.fill('#comment', 'open');
    await page.press('#comment', 'Tab');
    await page.waitForSelector('#tree .comment');
    // A move from an earlier point starts a variation: 2. d4 instead of 2. Nf3.
    await click(page, 'd2');
    await click(page, 'd4');
    await waitCurrent(page, '2.d4');
    assert(await page.$('#tree .variation .mv.current'), 'd4 is not a variation');
    await page.click('#status');
    await page.keyboard.press('ArrowUp');
    await waitCurrent(page, '2.Nf3');
    await page.keyboard.press('ArrowDown');
    await waitCurrent(page, '2.d4');
    await page.screenshot({ path: join(shots, 'analysis-variation-en.png') });
    // The whole tree, with the variation and the comment, and the line alone.
    await page.click('#export summary');
    await page.click('#export-tree');
    const tree = await page.inputValue('#export-text');
    assert(tree.includes('1. e4 e5 {open} 2. Nf3 (2. d4) 2... Nc6 *'), 'tree PGN: ' + JSON.stringify(tree));
    await page.click('#export-line');
    const line = await page.inputValue('#export-text');
    assert(line.trim().endsWith('1. e4 e5 {open} 2. d4 *'), 'line PGN: ' + line);
    const href = await page.getAttribute('#share-link', 'href');
    assert(href.includes('#/analysis/chess?moves=e2e4%2Ce7e5%2Cd2d4'), 'link: ' + href);
    // Promote the variation to the main line, then delete it.
    await page.click('#promote');
    await page.waitForFunction(() => !document.querySelector('#tree .variation .mv.current'));
    assert((await mvTexts(page)).join(' ') === '1.e4 e5 2.d4 2.Nf3 Nc6', 'after promote: ' + (await mvTexts(page)).join(' '));
    await page.click('#delete');
    await waitCurrent(page, 'e5');
    assert((await mvTexts(page)).join(' ') === '1.e4 e5 2.Nf3 Nc6', 'after delete: ' + (await mvTexts(page)).join(' '));
    // The link opens the same position.
    await page.goto(href);
    await waitCurrent(page, '2.d4');
    assert(await pieceAt(page, 'd4') && await pieceAt(page, 'e5'), 'the link does not open the position');
    await page.done();
  }, { analysis: true });

  test('analysis: a tree exported with a variation and a comment comes back whole when imported', async () => {
    const page = await open({ hash: '#/analysis/chess' });
    await page.waitForSelector('#board svg');
    // 1. e4 e5, then 1... c5 in e5's place with a comment.
    await click(page, 'e2');
    await click(page, 'e4');
    await waitCurrent(page, '1.e4');
    await click(page, 'e7');
    await click(page, 'e5');
    await waitCurrent(page, 'e5');
    await page.click('#status');
    await page.keyboard.press('ArrowLeft');
    await waitCurrent(page, '1.e4');
    await click(page, 'c7');
    await click(page, 'c5');
    await waitCurrent(page, '1…c5');
    await page.fill('#comment', 'sharp');
    await page.press('#comment', 'Tab');
    await page.waitForSelector('#tree .comment');
    await page.click('#export summary');
    await page.click('#export-tree');
    const exported = await page.inputValue('#export-text');
    assert(exported.includes('1. e4 e5 (1... c5 {sharp}) *'), 'tree PGN: ' + JSON.stringify(exported));
    // Something else first, then the export read back: the variation and its comment.
    await page.click('#load summary');
    await page.fill('#record-text', '1. d4 d5 *');
    await page.click('#load-record');
    await page.waitForFunction(() => document.querySelectorAll('#tree .mv').length === 2 && !document.querySelector('#tree .comment'));
    await page.fill('#record-text', exported);
    await page.click('#load-record');
    await page.waitForFunction(() => document.querySelectorAll('#tree .mv').length === 3);
    assert((await mvTexts(page)).join(' ') === '1.e4 e5 1…c5', 'moves: ' + (await mvTexts(page)).join(' '));
    assert(/c5/.test(await page.textContent('#tree .variation')), 'c5 is not a variation');
    assert((await page.textContent('#tree .comment')).trim() === 'sharp', 'the comment is lost');
    await waitCurrent(page, 'e5');
    await page.click('#export-tree');
    assert(await page.inputValue('#export-text') === exported, 'export, import, export: ' + JSON.stringify(await page.inputValue('#export-text')));
    await page.done();
  }, { analysis: true });

  test('analysis: the engine stays off until switched on; lines, the bar and the arrow; a move restarts it', async () => {
    const page = await open({ hash: '#/analysis/chess' });
    await page.waitForSelector('#board svg');
    await page.waitForTimeout(600);
    assert(!(await page.$('.engine-line')) && await page.$('#eval-bar[hidden]') && !(await page.$('#board .arrow')), 'the engine shows something while off');
    await page.check('#engine-on');
    await page.waitForSelector('.engine-line').catch((e) => { throw new Error('no lines: ' + e.message.split('\n')[0]); });
    await page.waitForSelector('#eval-bar:not([hidden])').catch(() => { throw new Error('no bar'); });
    await page.waitForSelector('#board .arrow-best', { state: 'attached' }).catch(() => { throw new Error('no arrow'); });
    const first = await page.textContent('.engine-line');
    assert(/depth/.test(first) && /[+−]\d\.\d\d/.test(first), 'line: ' + first);
    if (!server().real) {
      assert(first.includes('+0.31') && first.includes('1. e4 e5 2. Nf3'), 'line: ' + first);
      const arrow = await page.$eval('#board .arrow-best', (n) => [n.dataset.from, n.dataset.to].join('-'));
      assert(arrow === 'e2-e4', 'arrow: ' + arrow);
    }
    await page.selectOption('#multipv', '3');
    await page.waitForFunction(() => document.querySelectorAll('.engine-line').length === 3);
    await page.waitForFunction(() => /depth|syvyys/.test(document.querySelector('#engine-info').textContent));
    // Who judged is said under the lines (API.md "Analysis": the "engine" field).
    const by = await page.textContent('#engine-name');
    assert(/Judged by (Stockfish|agora chess)/.test(by) && (server().real || by.includes('Stockfish 15.1')), 'engine name: ' + by);
    const bar = Number(await page.getAttribute('#eval-bar', 'data-white'));
    assert(bar > 0 && bar < 100, 'bar: ' + bar);
    await page.screenshot({ path: join(shots, 'analysis-engine-en.png') });
    await click(page, 'e2');
    await click(page, 'e4');
    await waitCurrent(page, '1.e4');
    await page.waitForFunction(() => (document.querySelector('.engine-line .pv') || {}).textContent?.startsWith('1… '));
    if (!server().real) assert((await page.textContent('.engine-line .pv')).startsWith('1… e5 2. Nf3'), 'after e4: ' + (await page.textContent('.engine-line .pv')));
    assert((await page.getAttribute('#engine-live', 'aria-live')) === 'polite', 'engine lines not in a polite live region');
    await page.uncheck('#engine-on');
    await page.waitForFunction(() => !document.querySelector('.engine-line') && !document.querySelector('#board .arrow'));
    await page.done();
  }, { analysis: true });

  test('analysis: the editor writes position text, the server judges it', async () => {
    const page = await open({ hash: '#/analysis/chess' });
    await page.waitForSelector('#board svg');
    await page.click('#edit-section summary');
    await page.waitForSelector('#editor-text');
    await page.click('#editor-clear');
    assert((await page.inputValue('#editor-text')) === '8/8/8/8/8/8/8/8 w - - 0 1', 'empty: ' + (await page.inputValue('#editor-text')));
    await page.click('.pal[data-letter="K"]');
    await click(page, 'e1');
    await page.click('.pal[data-letter="k"]');
    await click(page, 'e8');
    await page.click('.pal[data-letter="Q"]');
    await click(page, 'd1');
    await click(page, 'd1'); // the same piece again empties the cell
    await click(page, 'h5');
    await page.selectOption('#editor-side', 'black');
    const text = await page.inputValue('#editor-text');
    assert(text === '4k3/8/8/7Q/8/8/8/4K3 b - - 0 1', 'edited: ' + text);
    await page.click('#editor-done');
    if (server().real) {
      await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 3 && !document.querySelector('#editor-text'));
    } else {
      // The test double holds only its fixtures' positions: it refuses this one, and
      // the page shows the server's word.
      await page.waitForSelector('#note .error');
      assert((await page.textContent('#note')).includes('refused'), 'no refusal shown');
    }
    await page.done();
  }, { analysis: true });

  test('review: progress, the graph, the marks and thresholds, accuracy, learn from your mistakes; history', async () => {
    const page = await open();
    await playFromHome(page, 'chess');
    await click(page, 'e2');
    await click(page, 'e4');
    await waitMoves(page, 2);
    await click(page, 'g1');
    await click(page, 'f3');
    await waitMoves(page, 4);
    // Looking back through the game: the first move, then the present again.
    await page.click('#moves button.ply[data-ply="1"]');
    await page.waitForSelector('#looking-back');
    assert(await pieceAt(page, 'e4') && !(await pieceAt(page, 'e5')) && !(await pieceAt(page, 'f3')), 'not the position after 1. e4');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((real) => document.querySelector('#moves button.ply.shown[data-ply="2"]') && (real || document.querySelector('#board .piece[data-at="e5"]')) && !document.querySelector('#board .piece[data-at="f3"]'), server().real)
      .catch(() => { throw new Error('ArrowRight in the move list does not step on'); });
    await page.click('#to-present');
    await page.waitForFunction(() => !document.querySelector('#looking-back') && document.querySelector('#board .piece[data-at="f3"]'))
      .catch(() => { throw new Error('not back to the present'); });
    assert(await page.$('#analyse'), 'no analysis link on the game page');
    await page.click('#resign');
    await page.click('#resign-yes');
    await page.waitForSelector('#review-game');
    await page.click('#review-game');
    await page.waitForSelector('#review-progress, .graph');
    await page.waitForSelector('#graph .graph-point', { timeout: 30000 });
    assert((await page.$$('#graph .graph-point')).length === 4, 'graph points');
    const th = await page.textContent('#thresholds');
    assert(th.includes('10') && th.includes('20') && th.includes('30'), 'thresholds: ' + th);
    if (!server().real) {
      assert((await page.textContent('#tree .mv.c-mistake')).includes('Nf3?'), 'Nf3 not marked a mistake');
      assert((await page.textContent('#tree .better')).includes('Bc4'), 'no better move beside the mistake');
      assert((await page.textContent('#accuracy-white')).includes('71.5'), 'accuracy');
    }
    const reviewer = await page.textContent('#review-engine');
    assert(/Reviewed by (Stockfish|agora chess)/.test(reviewer), 'review engine: ' + reviewer);
    await page.screenshot({ path: join(shots, 'review-en.png'), fullPage: true });
    await page.click('#graph .graph-point[data-ply="3"] .graph-hit');
    await waitCurrent(page, '2.Nf3').catch(() => { throw new Error('the graph point does not go to ply 3'); });
    if (!server().real) {
      await page.click('#learn-white');
      await page.waitForSelector('#learn-task');
      await waitCurrent(page, 'e5');
      await click(page, 'g1');
      await click(page, 'f3');
      await page.waitForSelector('#learn-result.wrong');
      await click(page, 'f1');
      await click(page, 'c4');
      await page.waitForSelector('#learn-result.right');
      // No mistake by White is left to learn from (one only); Show the answer on a
      // fresh start draws the better move as an arrow.
      await page.click('#learn-stop');
      await page.click('#learn-white');
      await page.waitForSelector('#learn-task');
      await page.click('#learn-show');
      await page.waitForSelector('#board .arrow-best[data-from="f1"][data-to="c4"]', { state: 'attached' });
      await page.screenshot({ path: join(shots, 'learn-en.png') });
    }
    // The finished game stays in the list, with its result and a review button.
    await page.goto(server().url + '/#/');
    await page.waitForSelector('#finished-list li .review-button');
    assert((await page.textContent('#finished-list')).includes('resignation'), 'no result in the list');
    await page.done();
  }, { analysis: true });

  test('review of an imported record: progress, then the graph and the marks', async () => {
    const page = await open({ hash: '#/analysis/chess' });
    await page.waitForSelector('#board svg');
    await page.click('#load summary');
    await page.fill('#record-text', PGN);
    await page.click('#review-record');
    await page.waitForSelector('#graph .graph-point', { timeout: 30000 });
    assert((await page.$$('#graph .graph-point')).length === 4, 'graph points');
    assert((await page.$$('#tree .mv')).length === 4, 'the record\'s moves are not on the board');
    assert(await page.$('#learn-white') && await page.$('#learn-black'), 'an imported record learns from either side');
    await page.done();
  }, { analysis: true });

  test('analysis on a phone: nothing wider than the screen', async () => {
    const page = await open({ hash: '#/analysis/egara-guti', viewport: { width: 390, height: 800 } });
    await page.waitForSelector('#board svg [data-cell]');
    const w = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    assert(w[0] <= w[1], `page ${w[0]} wider than the screen ${w[1]}`);
    await page.screenshot({ path: join(shots, 'analysis-phone-en.png'), fullPage: true });
    await page.done();
  }, { analysis: true });

  test('analysis: every game, every language renders the page', async () => {
    for (const lang of LANGS) {
      const page = await open({ lang });
      for (const g of GAMES) {
        await page.goto(`${server().url}/#/analysis/${g}`);
        await page.waitForSelector(`.analysis[data-game="${g}"] #board svg [data-cell]`);
        await page.check('#engine-on');
        await page.waitForSelector('.engine-line');
        await page.waitForSelector('#board .arrow-best', { state: 'attached' }); // on square, hex and graph boards
        await page.click('#keys summary');
        const text = await page.textContent('main');
        const raw = text.match(/\b(an|review|learn|engine|class)\.[a-z.]+/);
        assert(!raw, `${lang} ${g}: untranslated ${raw && raw[0]}`);
        if (lang === 'bn' || lang === 'as') assert(/[০-৯]/.test(await page.textContent('#status')) && !/[0-9]/.test(await page.textContent('#status')), `${lang}: digits in the status`);
        await page.screenshot({ path: join(shots, `analysis-${g}-${lang}.png`) });
      }
      await page.done();
    }
  }, { analysis: true });
}

// Browser tests of the play view's mends (the play-view issue), registered into
// run.mjs's list: register({ test, open, assert, srv, ... }) with run.mjs's helpers.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const catalogue = (lang) => JSON.parse(readFileSync(join(root, 'web', 'i18n', `${lang}.json`), 'utf8'));

export function register({ test, open, assert, server, click, moveTexts, waitMoves, playFromHome, startFromPosition }) {
  test('play view: the skip link in every language; ?lang= picks the language and is remembered', async () => {
    for (const lang of ['bn', 'as', 'fi', 'en']) {
      const page = await open({ locale: 'en-US' });
      await page.goto(`${server().url}/?lang=${lang}`);
      await page.waitForSelector('body[data-ready]');
      assert(await page.evaluate(() => document.documentElement.lang) === lang, `?lang=${lang} ignored`);
      const skip = (await page.textContent('a.skip')).trim();
      assert(skip === catalogue(lang)['app.skip'], `${lang}: the skip link says "${skip}"`);
      await page.goto(`${server().url}/`);
      await page.waitForSelector('body[data-ready]');
      assert(await page.evaluate(() => document.documentElement.lang) === lang, `?lang=${lang} not remembered`);
      await page.done();
    }
  });

  test('play view: the unfinished-games row counts one move each as one move', async () => {
    const page = await open({ lang: 'bn' });
    await playFromHome(page, 'egara-guti');
    await click(page, 'd3');
    await click(page, 'd4');
    await waitMoves(page, 2);
    const id = page.url().split('/').pop();
    await page.goto(server().url + '/#/');
    const row = await page.waitForSelector(`.game-list li[data-id="${id}"]`);
    const text = await row.textContent();
    assert(text.includes('১টি চাল'), 'row: ' + text);
    await page.done();
  });

  test('play view: castling by king then rook; the move is listed at once', async () => {
    const page = await open();
    await startFromPosition(page, 'chess', '4k3/8/8/8/8/8/8/4K2R w K - 0 1');
    await click(page, 'e1');
    await click(page, 'h1');
    await page.waitForFunction(() => [...document.querySelectorAll('#moves .ply')].some((n) => n.textContent === 'O-O'), null, { timeout: 1000 })
      .catch(() => { throw new Error('the move is not listed at once'); });
    await waitMoves(page, 2);
    assert((await moveTexts(page))[0] === 'O-O', 'moves: ' + (await moveTexts(page)));
    assert(await page.$('#board .piece[data-at="g1"]') && await page.$('#board .piece[data-at="f1"]'), 'not castled');
    await page.done();
  });

  test('play view: coordinates hidden from screen readers, the cells named; no tap highlight', async () => {
    const page = await open();
    await playFromHome(page, 'chess');
    const loose = await page.$$eval('#board svg text', (n) => n.filter((x) => /^([a-h]|[1-8])$/.test(x.textContent) && !x.closest('[aria-hidden="true"]')).map((x) => x.textContent));
    assert(!loose.length, 'read aloud in the board: ' + loose.join(' '));
    assert(/^e4\b/.test(await page.getAttribute('#board [data-cell="e4"]', 'aria-label')), 'e4 is not named');
    await page.goto(server().url + '/#/');
    await playFromHome(page, 'agon');
    const tap = await page.$eval('#board [data-cell]', (n) => getComputedStyle(n).webkitTapHighlightColor);
    assert(tap === 'rgba(0, 0, 0, 0)', 'tap highlight ' + tap);
    await page.done();
  });

  test('play view: Take back undoes the move and the reply, in every language', async () => {
    for (const lang of ['en', 'bn', 'as', 'fi']) assert(catalogue(lang)['play.takeback'] && (lang === 'en' || catalogue(lang)['play.takeback'] !== catalogue('en')['play.takeback']), `${lang}: no Take back`);
    const page = await open();
    await playFromHome(page, 'chess');
    assert(await page.isDisabled('#takeback'), 'Take back before any move');
    await click(page, 'e2');
    await click(page, 'e4');
    await waitMoves(page, 2);
    await page.waitForSelector('#takeback:not([disabled])');
    assert((await page.textContent('#takeback')).trim() === catalogue('en')['play.takeback'], 'the button');
    await page.click('#takeback');
    await page.waitForFunction(() => document.querySelectorAll('#moves .ply').length === 0);
    assert(await page.$('#board .piece[data-at="e2"]') && !(await page.$('#board .piece[data-at="e4"]')), 'the pawn is not back on e2');
    assert(/e2/.test(await page.getAttribute('#board [data-cell="e2"]', 'aria-label')), 'e2');
    // Playable again at once, and the game page in Finnish names the button.
    await click(page, 'e2');
    await click(page, 'e4');
    await waitMoves(page, 2);
    await page.selectOption('#lang', 'fi');
    await page.waitForFunction((x) => document.querySelector('#takeback')?.textContent === x, catalogue('fi')['play.takeback']);
    // The unfinished-games row says a takeback was used.
    const id = page.url().split('/').pop();
    await page.goto(server().url + '/#/');
    const row = await page.waitForSelector(`.game-list li[data-id="${id}"]`);
    assert((await row.textContent()).includes(catalogue('fi')['home.takebacks'].replace('{n}', '1')), 'row: ' + (await row.textContent()));
    await page.done();
  });
}

// Browser tests of issue 25's small frictions (item 12), against the test double or a
// real server: the offline note in words, a theme switch that says what is on, the
// header on a phone (one or two lines, a menu with Puzzles) in every language.
// Registered by tests/e2e/run.mjs.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LANGS = ['en', 'bn', 'as', 'fi'];
const read = (file) => JSON.parse(readFileSync(join(root, 'web', 'i18n', file), 'utf8'));
const main = (lang) => ({ ...read(`${lang}.json`), ...read(`play/${lang}.json`) });

export function register({ test, open, assert }) {
  test('friction: the challenge and seek forms offer "Rated" only with a clock (API.md: no clock, no rating)', async () => {
    const page = await open({ hash: '#/people' });
    for (const form of ['invite', 'seek']) {
      await page.waitForSelector(`#${form}-clock`);
      await page.check(`#${form}-rated`);
      await page.selectOption(`#${form}-clock`, 'none');
      assert(await page.isDisabled(`#${form}-rated`) && !(await page.isChecked(`#${form}-rated`)), `${form}: "Rated" still offered with no clock`);
      assert(await page.isVisible(`#${form}-rated-note`), `${form}: no word on why "Rated" is off`);
      for (const clock of ['3+2', 'd3']) {
        await page.selectOption(`#${form}-clock`, clock);
        assert(!(await page.isDisabled(`#${form}-rated`)) && !(await page.isVisible(`#${form}-rated-note`)), `${form}: "Rated" not offered with ${clock}`);
      }
    }
    await page.done();
  });

  test('friction: the offline note is written in the page\'s language, never as its key', async () => {
    for (const lang of LANGS) {
      // A page opened offline (from the service worker's copy): the browser says so
      // from the start, before the catalogue has come.
      const page = await open({ lang, init: () => Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false }) });
      await page.waitForSelector('#offline-note:not([hidden])');
      await page.waitForTimeout(200);
      const note = (await page.textContent('#offline-note')).trim();
      const want = JSON.parse(readFileSync(join(root, 'web', 'i18n', 'play', `${lang}.json`), 'utf8'))['offline.note'];
      assert(note === want, `${lang}: the offline note reads "${note}"`);
      await page.done();
    }
  });

  test('friction: the theme switch says whether the dark theme is on, in every language', async () => {
    for (const lang of LANGS) {
      const page = await open({ lang });
      await page.evaluate(() => localStorage.setItem('agora.theme', 'light'));
      await page.reload();
      await page.waitForSelector('body[data-ready]');
      const before = (await page.textContent('#theme')).trim();
      assert(await page.getAttribute('#theme', 'aria-pressed') === 'false', `${lang}: light, yet pressed`);
      await page.click('#theme');
      const after = (await page.textContent('#theme')).trim();
      assert(await page.getAttribute('#theme', 'aria-pressed') === 'true', `${lang}: dark, yet not pressed`);
      assert(before !== after, `${lang}: the switch reads "${before}" in both themes`);
      assert(before.includes(main(lang)['theme.dark.off']) && after.includes(main(lang)['theme.dark.on']), `${lang}: "${before}" / "${after}"`);
      const name = await page.$eval('#theme', (b) => b.textContent + (b.getAttribute('aria-label') || ''));
      assert(!/theme\./.test(name), `${lang}: a key in the switch: ${name}`);
      await page.done();
    }
  });

  test('friction: the header fits a phone (390x844) in every language; Puzzles from the header menu', async () => {
    for (const lang of LANGS) {
      const page = await open({ lang, viewport: { width: 390, height: 844 } });
      const height = await page.$eval('header.top', (e) => e.getBoundingClientRect().height);
      assert(height < 120, `${lang}: the header is ${Math.round(height)} px high on a phone`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert(wide <= 1, `${lang}: the page is ${wide} px wider than the phone`);
      assert(!(await page.isVisible('header.top nav a[href="#/puzzles"]')), `${lang}: the links are open before the menu is`);
      await page.click('#menu');
      assert(await page.getAttribute('#menu', 'aria-expanded') === 'true', `${lang}: the menu does not say it is open`);
      const link = await page.textContent('header.top nav a[href="#/puzzles"]');
      assert(link.trim() === main(lang)['nav.puzzles'], `${lang}: the Puzzles link reads "${link}"`);
      await page.click('header.top nav a[href="#/puzzles"]');
      await page.waitForFunction(() => location.hash === '#/puzzles');
      await page.waitForFunction(() => document.getElementById('menu').getAttribute('aria-expanded') === 'false');
      await page.done();
    }
    // On a laptop the links are there without a menu, Puzzles among them.
    const page = await open({ viewport: { width: 1280, height: 860 } });
    assert(await page.isVisible('header.top nav a[href="#/puzzles"]') && !(await page.isVisible('#menu')), 'laptop: no Puzzles link, or a menu button');
    await page.done();
  });
}

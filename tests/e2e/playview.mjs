// Browser tests of the play view's mends (the play-view issue), registered into
// run.mjs's list: register({ test, open, assert, srv, ... }) with run.mjs's helpers.
import { readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contrastFailures, keyboardFailures } from './a11y.mjs';
import { register as registerPages } from './pages-a11y.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readJson = (...parts) => JSON.parse(readFileSync(join(root, 'web', 'i18n', ...parts), 'utf8'));
// A language's whole catalogue: the main file and the play view's part.
const catalogue = (lang) => ({ ...readJson(`${lang}.json`), ...readJson('play', `${lang}.json`) });
const LANGS = ['en', 'bn', 'as', 'fi'];
const GAMES = ['agon', 'egara-guti', 'chess'];
const shots = join(root, 'build', 'screenshots');

export function register({ test, open, assert, server, click, moveTexts, waitMoves, playFromHome, startFromPosition }) {
  registerPages({ test, open, assert, server, click, startFromPosition });
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

  const fresh = async (opts = {}) => {
    const page = await open(opts);
    if (opts.media) { await page.emulateMedia(opts.media); await page.reload(); await page.waitForSelector('body[data-ready]'); }
    return page;
  };
  // The page records what it animates and what it sounds.
  const watched = async (opts = {}) => {
    const page = await open(opts);
    await page.addInitScript(() => {
      window.__anims = [];
      window.__sounds = [];
      const orig = Element.prototype.animate;
      Element.prototype.animate = function (frames, o) {
        window.__anims.push({ at: this.getAttribute('data-at'), ghost: this.getAttribute('data-ghost'), frames: frames.length, cls: this.getAttribute('class'),
          fades: frames[0].opacity === 1 && frames[frames.length - 1].opacity === 0, delay: (o && o.delay) || 0 });
        return orig.call(this, frames, o);
      };
      document.addEventListener('agora:sound', (e) => window.__sounds.push(e.detail));
    });
    if (opts.media) await page.emulateMedia(opts.media);
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    return page;
  };
  const cat = () => fetch(server().url + '/api/catalog').then((r) => r.json());
  // The last move of the game the page shows, as the server describes it.
  const lastMove = async (page) => {
    const id = decodeURIComponent(page.url().split('/').pop());
    return (await (await fetch(`${server().url}/api/games/${id}`)).json()).last_move;
  };

  test('play view: levels named, rated and described; level 1 first, then the last choice', async () => {
    const games = (await cat()).games;
    const page = await fresh();
    const en = catalogue('en');
    for (const g of games) {
      assert(await page.inputValue(`#level-${g.name}`) === '1', `${g.name}: the first visit is not at level 1`);
      const texts = await page.$$eval(`#level-${g.name} option`, (n) => n.map((x) => x.textContent));
      assert(texts.length === 8, `${g.name}: ${texts.length} levels`);
      for (const l of g.levels) {
        const want = `${l.level} · ${en[`level.${l.level}.name`]}` + (l.elo ? ` · Elo ${l.elo}` : '');
        assert(texts[l.level - 1] === want, `${g.name} level ${l.level}: "${texts[l.level - 1]}", not "${want}"`);
      }
      assert((await page.textContent(`#level-${g.name}-about`)) === en['level.1.about'], `${g.name}: no sentence on level 1`);
    }
    assert(games.every((g) => g.levels.every((l) => Number.isInteger(l.elo))), 'a game without ratings in the catalogue');
    await page.selectOption('#level-agon', '4');
    assert((await page.textContent('#level-agon-about')) === en['level.4.about'], 'the sentence does not follow the choice');
    await page.click('.card[data-game="agon"] .play-button');
    await page.waitForSelector('#board svg');
    await page.goto(server().url + '/#/');
    await page.waitForSelector('#level-agon');
    assert(await page.inputValue('#level-agon') === '4', 'the last choice is not remembered');
    assert(await page.inputValue('#level-chess') === '1', 'another game took the choice');
    await page.goto(server().url + '/#/new/agon');
    await page.waitForSelector('#level');
    assert(await page.inputValue('#level') === '4' && (await page.textContent('#level-about')) === en['level.4.about'], 'the new-game page');
    // Every language names and describes every level.
    for (const lang of LANGS.slice(1)) {
      const c = catalogue(lang);
      for (let l = 1; l <= 8; l++) assert(c[`level.${l}.name`] && c[`level.${l}.name`] !== en[`level.${l}.name`] && c[`level.${l}.about`] !== en[`level.${l}.about`], `${lang}: level ${l}`);
    }
    await page.selectOption('#lang', 'bn');
    await page.waitForFunction((x) => document.querySelector('#level-about')?.textContent === x, catalogue('bn')['level.4.about']);
    assert((await page.textContent('#level option[value="4"]')).startsWith('৪ · ' + catalogue('bn')['level.4.name']), 'Bengali level names');
    await page.done();
  });

  test('play view: every Play button on a laptop\'s first screen, one whole on a phone\'s, in every language', async () => {
    for (const lang of LANGS) {
      for (const [viewport, all] of [[{ width: 1366, height: 768 }, true], [{ width: 390, height: 844 }, false]]) {
        const page = await fresh({ viewport, lang });
        const boxes = await page.$$eval('.play-button', (n) => n.map((b) => { const r = b.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; }));
        const whole = boxes.filter((r) => r.top >= 0 && r.left >= 0 && r.bottom <= viewport.height && r.right <= viewport.width);
        assert(boxes.length === 3, `${lang}: ${boxes.length} Play buttons`);
        if (all) assert(whole.length === boxes.length, `${lang} ${viewport.width}x${viewport.height}: Play buttons at y ${boxes.map((r) => Math.round(r.bottom))}`);
        else assert(whole.length >= 1, `${lang} phone: no Play button whole on the first screen (${boxes.map((r) => Math.round(r.bottom))})`);
        await page.done();
      }
    }
  });

  test('play view: dark theme from the system, a remembered switch, contrast AA in both themes', async () => {
    const page = await fresh({ media: { colorScheme: 'dark' } });
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert(await bg() === 'rgb(27, 23, 20)', 'a dark system gets ' + (await bg()));
    assert(await page.getAttribute('#theme', 'aria-pressed') === 'true', 'the switch does not say dark');
    await page.click('#theme');
    assert(await bg() === 'rgb(246, 241, 231)', 'the switch does not turn it light: ' + (await bg()));
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    assert(await bg() === 'rgb(246, 241, 231)' && await page.getAttribute('#theme', 'aria-pressed') === 'false', 'the choice is not remembered');
    await page.done();
    // Contrast on the home, new-game, rules and game pages (a hint, a result), both
    // themes; keyboard access (every control named, reached with Tab) in the light one.
    let total = 0;
    for (const theme of ['light', 'dark']) {
      const p = await fresh({ lang: 'en' });
      await p.evaluate((x) => localStorage.setItem('agora.theme', x), theme);
      const pages = [['/#/', '.card'], ['/#/new/chess', 'form.new-game'], ['/#/rules/agon', '.rules']];
      for (const [hash, sel] of pages) {
        await p.goto(server().url + hash);
        await p.reload();
        await p.waitForSelector(sel);
        const r = await p.evaluate(contrastFailures);
        total += r.checked;
        assert(!r.fails.length, `${theme} ${hash}: ${r.fails.join('; ')}`);
        if (theme === 'light') {
          const k = await keyboardFailures(p);
          assert(!k.fails.length, `${hash}: ${k.fails.join('; ')}`);
        }
      }
      await p.goto(server().url + '/#/');
      await playFromHome(p, 'egara-guti');
      await click(p, 'd3');
      await click(p, 'd4');
      await waitMoves(p, 2);
      await p.waitForSelector('#forced-hint');
      await p.click('#notation summary');
      let r = await p.evaluate(contrastFailures);
      total += r.checked;
      assert(!r.fails.length, `${theme} game: ${r.fails.join('; ')}`);
      if (theme === 'light') {
        const k = await keyboardFailures(p);
        assert(!k.fails.length, `game: ${k.fails.join('; ')}`);
      }
      await p.click('#resign');
      await p.click('#resign-yes');
      await p.waitForSelector('#banner:not([hidden])');
      r = await p.evaluate(contrastFailures);
      assert(!r.fails.length, `${theme} game over: ${r.fails.join('; ')}`);
      await p.done();
    }
    assert(total > 100, `only ${total} texts measured`);
  }, { doubleOnly: true });

  test('play view: the computer\'s move slides in, a chain jump by jump, the taken pieces fade out, a return appears; a switch and reduced motion stop it', async () => {
    const chain = 'BBBBB/BBB/B1B/W/1WW/1WW/WWWWW w 1';
    let page = await watched();
    await startFromPosition(page, 'egara-guti', chain);
    await click(page, 'a1');
    await click(page, 'b2');
    await waitMoves(page, 2);
    // What the server says the reply was (the test double scripts e5xc3xa1; a real
    // server's level 1 picks one of the compulsory captures).
    let lm = await lastMove(page);
    let anims = await page.evaluate(() => window.__anims);
    const jump = anims.find((a) => a.at === lm.to);
    assert(jump && jump.frames === lm.path.length + 1, `${lm.move} is not animated jump by jump: ` + JSON.stringify(anims));
    if (!server().real) assert(lm.move === 'e5xc3xa1' && lm.flags.includes('chain'), 'the scripted chain');
    // The pieces taken fade out where they stood, one jump after the other, then go.
    const ghosts = anims.filter((a) => a.ghost);
    assert(ghosts.length === lm.captured.length && ghosts.every((a, i) => a.ghost === lm.captured[i] && a.fades && /\bghost\b/.test(a.cls)),
      `the taken pieces ${lm.captured} do not fade out: ` + JSON.stringify(ghosts));
    if (lm.captured.length > 1) assert(ghosts[1].delay > ghosts[0].delay, 'the second taken piece fades with the first: ' + JSON.stringify(ghosts));
    await page.waitForFunction(() => !document.querySelector('#board .ghost'), null, { timeout: 5000 })
      .catch(() => { throw new Error('a faded piece stays on the board'); });
    // The reply may arrive by the event stream before the move's own answer: the status
    // tells it once that answer is in (its .reply sentence).
    await page.waitForSelector('#status .reply');
    const status = await page.textContent('#status');
    const en = catalogue('en');
    if (lm.flags.includes('chain')) assert(status.includes(en['narrate.chain.your'].replace('{jumps}', String(lm.path.length)).replace('{n}', String(lm.taken.length)).replace('{cells}', lm.captured.join(', '))), 'status: ' + status);
    else assert(status.includes(en['narrate.took.your'].replace('{piece}', en['piece.egara.w']).replace('{cell}', lm.captured[0])), 'status: ' + status);
    // The return: the piece grows on its new cell (no slide across the board).
    await page.goto(server().url + '/#/');
    await page.evaluate(() => { window.__anims = []; });
    await startFromPosition(page, 'agon', '6/G4g1/1g6/7G1/5G3q/Qg9/2G7/g8/6G1/1g5/4Gg w');
    await click(page, 'g3');
    await click(page, 'f3');
    await waitMoves(page, 2);
    lm = await lastMove(page);
    anims = await page.evaluate(() => window.__anims);
    const ret = anims.find((a) => a.at === lm.to);
    assert(lm.flags.includes('return') && ret && /arriving/.test(ret.cls) && ret.frames === 2, 'the return is not shown arriving: ' + JSON.stringify(anims));
    await page.waitForSelector('#status .reply');
    const said = await page.textContent('#status');
    assert(said.includes(en['narrate.return'].replace('{piece}', en['piece.agon.g']).replace('{cell}', lm.to)), 'status: ' + said);
    // Off by the switch (remembered) ...
    await page.goto(server().url + '/#/');
    await startFromPosition(page, 'egara-guti', chain);
    await page.uncheck('#animate-moves');
    await page.reload();
    await page.waitForSelector('#board svg');
    assert(!(await page.isChecked('#animate-moves')), 'the switch is not remembered');
    await click(page, 'a1');
    await click(page, 'b2');
    await waitMoves(page, 2);
    assert(!(await page.evaluate(() => window.__anims.length)), 'animated with the switch off');
    assert(!(await page.$('#board .ghost')), 'a fading piece with the switch off');
    await page.done();
    // ... and by the system's reduced motion.
    page = await watched({ media: { reducedMotion: 'reduce' } });
    await startFromPosition(page, 'egara-guti', chain);
    await click(page, 'a1');
    await click(page, 'b2');
    await waitMoves(page, 2);
    assert(!(await page.evaluate(() => window.__anims.length)), 'animated under reduced motion');
    assert(!(await page.$('#board .ghost')), 'a fading piece under reduced motion');
    await page.done();
  });

  test('play view: the status says what was taken; the move list has a legend and a title on each move', async () => {
    const page = await open();
    await playFromHome(page, 'egara-guti');
    await click(page, 'd3');
    await click(page, 'd4');
    await waitMoves(page, 2);
    const en = catalogue('en');
    const status = await page.textContent('#status');
    assert(status.includes(en['narrate.took.your'].replace('{piece}', en['piece.egara.w']).replace('{cell}', 'd4')), 'status: ' + status);
    const title = await page.getAttribute('#moves .ply[data-ply="2"]', 'title');
    assert(title === en['title.jump'].replace('{from}', 'd5').replace('{to}', 'd3'), 'title: ' + title);
    await page.click('#notation summary');
    assert((await page.textContent('#notation dl')).includes(en['notation.egara.2']), 'no legend');
    // In Finnish too.
    await page.selectOption('#lang', 'fi');
    await page.waitForFunction((x) => document.querySelector('#notation summary')?.textContent === x, catalogue('fi')['notation.title']);
    assert((await page.textContent('#status')).includes(catalogue('fi')['narrate.took.your'].replace('{piece}', catalogue('fi')['piece.egara.w']).replace('{cell}', 'd4')), 'Finnish status');
    await page.done();
  }, { doubleOnly: true });

  test('play view: sounds for a move, a capture and the end; the off switch is remembered', async () => {
    let page = await watched();
    await playFromHome(page, 'egara-guti');
    await click(page, 'd3');
    await click(page, 'd4');
    await waitMoves(page, 2);
    await page.waitForFunction(() => window.__sounds.includes('capture'));
    await page.click('#resign');
    await page.click('#resign-yes');
    await page.waitForFunction(() => window.__sounds.includes('end'));
    await page.goto(server().url + '/#/');
    await playFromHome(page, 'chess');
    await page.uncheck('#sounds');
    await page.reload();
    await page.waitForSelector('#board svg');
    assert(!(await page.isChecked('#sounds')), 'the off switch is not remembered');
    await click(page, 'e2');
    await click(page, 'e4');
    await waitMoves(page, 2);
    assert(!(await page.evaluate(() => window.__sounds.length)), 'sounds while off: ' + (await page.evaluate(() => window.__sounds)));
    await page.done();
  }, { doubleOnly: true });

  test('play view: screenshots of the home and a game in four languages, both themes, desktop and phone', async () => {
    mkdirSync(shots, { recursive: true });
    for (const lang of LANGS)
      for (const theme of ['light', 'dark'])
        for (const [name, viewport] of [['desktop', { width: 1366, height: 768 }], ['phone', { width: 390, height: 844 }]]) {
          const page = await fresh({ viewport, lang });
          await page.evaluate((x) => localStorage.setItem('agora.theme', x), theme);
          await page.reload();
          await page.waitForSelector('body[data-ready]');
          await page.screenshot({ path: join(shots, `home-${lang}-${theme}-${name}.png`) });
          await playFromHome(page, 'egara-guti');
          await click(page, 'd3');
          await click(page, 'd4');
          await waitMoves(page, 2);
          await page.screenshot({ path: join(shots, `game-${lang}-${theme}-${name}.png`), fullPage: name === 'phone' });
          await page.done();
        }
  }, { doubleOnly: true });

  test('play view: installable; offline the pages, the rules and the lessons are read, and play says it needs the server', async () => {
    const page = await open({ serviceWorkers: 'allow' });
    const res = await fetch(server().url + '/manifest.webmanifest');
    assert(res.ok && /^application\/manifest\+json/.test(res.headers.get('content-type')), 'manifest ' + res.status + ' ' + res.headers.get('content-type'));
    const manifest = await res.json();
    assert(manifest.icons.some((i) => i.sizes === '512x512') && manifest.icons.some((i) => i.sizes === '192x192') && manifest.start_url, 'manifest icons');
    for (const icon of manifest.icons) assert((await fetch(server().url + '/' + icon.src)).ok, 'icon ' + icon.src);
    assert(await page.getAttribute('link[rel="manifest"]', 'href') === 'manifest.webmanifest', 'no manifest link');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload(); // controlled by the worker from here
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    const files = JSON.parse(readFileSync(join(root, 'web', 'offline-files.json'), 'utf8'));
    const kept = await page.evaluate(async () => (await (await caches.open('agora-v1')).keys()).map((r) => new URL(r.url).pathname));
    for (const f of files) assert(kept.includes('/' + f), `${f} is not kept for offline`);
    await page.context().setOffline(true);
    await page.goto(server().url + '/#/rules/agon');
    await page.waitForSelector('.rules h1');
    assert(await page.isVisible('#offline-note'), 'no offline note');
    assert((await page.textContent('#offline-note')) === catalogue('en')['offline.note'], 'the note');
    await page.goto(server().url + '/#/');
    await page.waitForSelector('.card');
    await page.click('.card[data-game="chess"] .play-button');
    await page.waitForSelector('.card .error');
    assert(/playing needs the server/.test(await page.textContent('.card .error')), 'play offline: ' + (await page.textContent('.card .error')));
    await page.context().setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    assert(!(await page.isVisible('#offline-note')), 'the note stays online');
    await page.done();
  });
}

// The installable app's PNG icons, drawn from the project's own SVGs (web/icons/*.svg)
// by Debian's Chromium (playwright-core, the browser tests' driver): icon-192.png,
// icon-512.png and maskable-512.png.  Run once after changing an SVG; the PNGs are
// committed.   node scripts/make-icons.mjs
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'icons');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [svg, size, out] of [['icon.svg', 192, 'icon-192.png'], ['icon.svg', 512, 'icon-512.png'], ['maskable.svg', 512, 'maskable-512.png']]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const src = 'data:image/svg+xml;base64,' + readFileSync(join(dir, svg)).toString('base64');
  await page.setContent(`<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}"></body></html>`);
  await page.waitForFunction(() => document.querySelector('img').complete);
  await page.screenshot({ path: join(dir, out), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  await page.close();
  console.log(out);
}
await browser.close();

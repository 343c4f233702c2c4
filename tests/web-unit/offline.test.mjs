// The installable app: web/offline-files.json (made by scripts/web-files) lists every
// file under web/ the service worker keeps, so a new page or lesson is readable
// offline; the manifest names icons that exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : name.startsWith('.') ? [] : [relative(web, p)];
  });
}

test('the offline list is every file under web/ (run scripts/web-files after adding one)', () => {
  const listed = JSON.parse(readFileSync(join(web, 'offline-files.json'), 'utf8'));
  const files = walk(web).filter((f) => f !== 'sw.js' && f !== 'offline-files.json').sort();
  assert.deepEqual([...listed].sort(), files);
  assert.ok(files.some((f) => f.startsWith('rules/')) && files.includes('index.html'));
});

test('the manifest is JSON with icons that exist, 192 and 512 pixels', () => {
  const m = JSON.parse(readFileSync(join(web, 'manifest.webmanifest'), 'utf8'));
  assert.ok(m.name && m.short_name && m.start_url && m.display);
  for (const icon of m.icons) assert.ok(existsSync(join(web, icon.src)), icon.src);
  assert.ok(m.icons.some((i) => i.sizes === '192x192') && m.icons.some((i) => i.sizes === '512x512'));
});

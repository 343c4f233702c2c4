// The browser's house (web/NOTES.md): file names in kebab-case, one HTTP client (only
// web/js/net/http.js calls fetch), one owner of localStorage (web/js/local/storage.js),
// and no loop between the rooms of web/js by their imports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'js');
function walk(dir) {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}
const files = walk(root).filter((f) => f.endsWith('.js')).map((f) => relative(root, f));
// A file's code without its comments (line comments, block comments).
const code = (f) => readFileSync(join(root, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
const roomOf = (f) => dirname(f);

test('every file name is kebab-case', () => {
  for (const f of files) for (const part of f.split('/')) assert.match(part, /^[a-z0-9]+(-[a-z0-9]+)*(\.js)?$/, f);
});

test('only net/http.js calls fetch; only local/storage.js touches localStorage', () => {
  assert.deepEqual(files.filter((f) => /(^|[^.\w])fetch\(/.test(code(f))), ['net/http.js']);
  assert.deepEqual(files.filter((f) => /localStorage/.test(code(f))), ['local/storage.js']);
});

test('the rooms import each other without a loop', () => {
  const edges = new Map();
  for (const f of files) {
    for (const [, path] of code(f).matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const to = roomOf(relative(root, resolve(root, dirname(f), path)));
      if (to !== roomOf(f)) (edges.get(roomOf(f)) || edges.set(roomOf(f), new Set()).get(roomOf(f))).add(to);
    }
  }
  const state = new Map(); // room -> 'open' while its imports are walked, then 'done'
  const visit = (room, path) => {
    if (state.get(room) === 'done') return;
    assert.notEqual(state.get(room), 'open', `a loop: ${[...path, room].join(' -> ')}`);
    state.set(room, 'open');
    for (const to of edges.get(room) || []) visit(to, [...path, room]);
    state.set(room, 'done');
  };
  for (const room of edges.keys()) visit(room, []);
  assert.ok(edges.get('.').has('play')); // the walk saw the router's imports
});

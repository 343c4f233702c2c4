// The string catalogues (web/i18n/): every language has every key of English, no key
// lives in two files, every {placeholder} of English is in each translation, and the
// parts named in web/js/common/i18n-parts.js exist for every language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PARTS } from '../../web/js/common/i18n-parts.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'i18n');
const LANGS = ['en', 'bn', 'as', 'fi'];
const read = (file) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const files = ['', ...PARTS.map((p) => `${p}/`)];

test('every key in one file only, in every language', () => {
  for (const lang of LANGS) {
    const seen = new Map();
    for (const dir of files)
      for (const key of Object.keys(read(`${dir}${lang}.json`))) {
        assert.ok(!seen.has(key), `${lang}: ${key} is in ${seen.get(key)}.json and ${dir}${lang}.json`);
        seen.set(key, dir || '.');
      }
  }
});

test('every language has every English key with its placeholders', () => {
  for (const dir of files) {
    const en = read(`${dir}en.json`);
    for (const lang of LANGS.slice(1)) {
      const other = read(`${dir}${lang}.json`);
      for (const [key, text] of Object.entries(en)) {
        assert.ok(key in other, `${dir}${lang}.json lacks ${key}`);
        for (const ph of text.match(/\{\w+\}/g) || []) assert.ok(other[key].includes(ph), `${dir}${lang}.json ${key} lacks ${ph}`);
      }
    }
  }
});

// The string catalogues (web/i18n/): every language has every key of English, no key
// lives in two files, every {placeholder} of English is in each translation, and the
// parts named in web/js/common/i18n-parts.js exist for every language; a plural entry
// ({"one": ..., "other": ...}) has every form its language's Intl.PluralRules names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PARTS } from '../../web/js/common/i18n-parts.js';
import { pick } from '../../web/js/common/i18n.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'i18n');
const LANGS = ['en', 'bn', 'as', 'fi'];
const read = (file) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const files = ['', ...PARTS.map((p) => `${p}/`)];
const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);
const isPlural = (entry) => entry !== null && typeof entry === 'object';

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
      for (const [key, entry] of Object.entries(en)) {
        assert.ok(key in other, `${dir}${lang}.json lacks ${key}`);
        const texts = typeof other[key] === 'object' ? Object.values(other[key]) : [other[key]];
        for (const ph of forms(entry).join(' ').match(/\{\w+\}/g) || [])
          for (const text of texts) assert.ok(text.includes(ph), `${dir}${lang}.json ${key} lacks ${ph}`);
      }
    }
  }
});

test('every plural entry has every form of every language (Intl.PluralRules)', () => {
  let plurals = 0;
  for (const dir of files) {
    const all = Object.fromEntries(LANGS.map((lang) => [lang, read(`${dir}${lang}.json`)]));
    const keys = new Set(LANGS.flatMap((lang) => Object.keys(all[lang]).filter((k) => isPlural(all[lang][k]))));
    for (const key of keys) {
      plurals++;
      for (const lang of LANGS) {
        const entry = all[lang][key];
        assert.ok(isPlural(entry), `${dir}${lang}.json ${key} is plural in another language but not here`);
        const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
        for (const form of needed) assert.equal(typeof entry[form], 'string', `${dir}${lang}.json ${key} lacks the form "${form}"`);
        for (const form of Object.keys(entry)) assert.ok(needed.includes(form), `${dir}${lang}.json ${key}: "${form}" is no plural form of ${lang}`);
        for (const text of Object.values(entry)) assert.ok(text.includes('{n}'), `${dir}${lang}.json ${key}: a plural form lacks {n}`);
      }
    }
  }
  assert.ok(plurals >= 7, `only ${plurals} plural entries`);
});

test('counts read right: one and many, in every language', () => {
  const learn = Object.fromEntries(LANGS.map((lang) => [lang, read(`learn/${lang}.json`)]));
  const people = Object.fromEntries(LANGS.map((lang) => [lang, read(`people/${lang}.json`)]));
  assert.equal(pick(learn.en['open.due'], { n: 1 }, 'en'), '{n} position due');
  assert.equal(pick(learn.en['open.due'], { n: 2 }, 'en'), '{n} positions due');
  assert.equal(pick(learn.en['open.due'], { n: 0 }, 'en'), '{n} positions due');
  assert.equal(pick(people.en['people.clock.corr'], { n: 1 }, 'en'), '{n} day a move');
  assert.equal(pick(people.fi['people.clock.corr'], { n: 1 }, 'fi'), '{n} päivä siirtoa kohden');
  assert.equal(pick(people.fi['people.clock.corr'], { n: 3 }, 'fi'), '{n} päivää siirtoa kohden');
  assert.equal(pick(learn.fi['open.due'], { n: 1 }, 'fi'), '{n} asema kerrattavana');
  assert.equal(pick('plain', { n: 1 }, 'fi'), 'plain');
  for (const lang of LANGS) assert.equal(typeof pick(learn[lang]['open.due'], { n: 0 }, lang), 'string');
});

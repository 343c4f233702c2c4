// Strings: one JSON catalogue per language (web/i18n/*.json), the language switcher's
// memory, Accept-Language on the first visit (the browser's language list), and digits
// in the language's own numerals where that is natural (Bengali and Assamese).

import { PARTS } from './i18n-parts.js';
import { staticJson } from '../net/http.js';
import { choice, saveChoice } from '../local/storage.js';

export const LANGUAGES = ['en', 'bn', 'as', 'fi'];
const NATIVE_DIGITS = { bn: '০১২৩৪৫৬৭৮৯', as: '০১২৩৪৫৬৭৮৯' };

let lang = 'en';
let catalogue = {};
let fallback = {};

/** A ?lang= query parameter, the remembered choice, or the first of the browser's languages we speak. */
export function pickLanguage() {
  // ?lang=xx in the address (before the #) picks the language and is remembered.
  const asked = new URLSearchParams(location.search).get('lang');
  if (LANGUAGES.includes(asked)) {
    saveChoice('lang', asked);
    return asked;
  }
  const saved = choice('lang');
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

const loadFile = (path) => staticJson(path, `catalogue ${path}`);

/** The language's whole catalogue: the main file and every part (web/js/common/i18n-parts.js). */
async function load(code) {
  const files = await Promise.all([`i18n/${code}.json`, ...PARTS.map((part) => `i18n/${part}/${code}.json`)].map(loadFile));
  return Object.assign({}, ...files);
}

export async function setLanguage(code, remember = false) {
  if (!LANGUAGES.includes(code)) code = 'en';
  if (!Object.keys(fallback).length) fallback = await load('en');
  catalogue = code === 'en' ? fallback : await load(code);
  lang = code;
  if (remember) saveChoice('lang', code);
  document.documentElement.lang = code;
}

export function language() {
  return lang;
}

/** Digits of a number or text in the current language's numerals. */
export function num(value) {
  const digits = NATIVE_DIGITS[lang];
  const s = String(value);
  return digits ? s.replace(/[0-9]/g, (d) => digits[d]) : s;
}

/** The plural category (one, other, few ...) of `n` in the current language, by the browser's rules. */
export function pluralForm(n, code = lang) {
  return new Intl.PluralRules(code).select(n);
}

/**
 * A catalogue entry's text: a string as it is; a plural entry (an object of forms keyed
 * by Intl.PluralRules categories, {"one": ..., "other": ...}) gives the form for the
 * number `vars.n`, or "other".
 */
export function pick(entry, vars = {}, code = lang) {
  if (entry === null || typeof entry !== 'object') return entry;
  const n = vars.n;
  const form = typeof n === 'number' ? pluralForm(n, code) : 'other';
  return entry[form] ?? entry.other;
}

/** Fills {name} placeholders of `text` (numbers in local digits). */
function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? (typeof vars[k] === 'number' ? num(vars[k]) : vars[k]) : `{${k}}`));
}

/**
 * The string for `key`, with {name} placeholders filled (numbers in local digits); a
 * plural entry takes its form from the number {n}: t('open.due', { n: 2 }).
 */
export function t(key, vars = {}) {
  const own = pick(catalogue[key], vars);
  return fill(own ?? pick(fallback[key], vars) ?? key, vars);
}

/**
 * What a page shows for a failed request: the catalogue's text for the server's error
 * code (error.<code>, web/i18n/errors/) when it has one, else the error's own message
 * (the server's English text, or a browser's error).
 */
export function errorText(err) {
  const key = err && err.code ? `error.${err.code}` : null;
  if (key && (catalogue[key] ?? fallback[key]) !== undefined) return t(key);
  return (err && err.message) || String(err);
}

/** Fills every element with data-i18n="key" (text) below `root`. */
export function translate(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-label]')) node.setAttribute('aria-label', t(node.dataset.i18nLabel));
}

// Light and dark: the system's choice (prefers-color-scheme) until the visitor picks
// one with the header's switch, which is remembered.  The colours live in
// css/playview.css (html[data-theme] or the media query).
import { t } from './i18n.js';
import { h } from './dom.js';
import { choice, saveChoice } from '../local/storage.js';

const dark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

/** The theme chosen ('light' or 'dark'), or null: the system's. */
export function chosenTheme() {
  const v = choice('theme');
  return v === 'light' || v === 'dark' ? v : null;
}

/** The theme shown now. */
export function currentTheme() {
  return chosenTheme() || (dark() ? 'dark' : 'light');
}

export function applyTheme() {
  const c = chosenTheme();
  if (c) document.documentElement.dataset.theme = c;
  else delete document.documentElement.dataset.theme;
}

export function setTheme(theme) {
  saveChoice('theme', theme === 'light' || theme === 'dark' ? theme : null);
  applyTheme();
}

/** The header's switch (a toggle button: pressed while dark, its text saying whether
 *  the dark theme is on), put into `host` once
 *  and relabelled on each call (the language may have changed). */
export function themeSwitch(host) {
  let box = host.querySelector('.switches');
  if (!box) {
    box = h('div', { class: 'switches' });
    host.append(box);
    if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => label());
  }
  let btn = box.querySelector('#theme');
  if (!btn) {
    btn = h('button', { type: 'button', id: 'theme', onclick: () => { setTheme(currentTheme() === 'dark' ? 'light' : 'dark'); label(); } });
    box.append(btn);
  }
  function label() {
    const isDark = currentTheme() === 'dark';
    btn.setAttribute('aria-pressed', isDark ? 'true' : 'false');
    // What is on, in words as well as by aria-pressed: "Dark: on" / "Dark: off".
    btn.textContent = (isDark ? '\u263E ' : '\u2600 ') + t(isDark ? 'theme.dark.on' : 'theme.dark.off');
    btn.title = t(isDark ? 'theme.to.light' : 'theme.to.dark');
  }
  label();
  return btn;
}

applyTheme();

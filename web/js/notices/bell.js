// The bell in the header (src/server/API.md "Notifications"): the player's unread count
// on a button whose name says it, a list of their notifications that the button opens
// and closes (Escape closes it too), and each new one told as it comes: a sound when
// sounds are on, and its text in a polite live region for screen readers.  One event
// stream per page, with the player's one token; a page without a token yet starts it
// once the player has one (bellCheck, on every route).
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { listNotices, readNotices, watchNotices, playerToken } from '../net/notices-api.js';
import { playSound } from '../board/sound.js';

const RETRY_MS = 5000;
const KINDS = ['challenge', 'accepted', 'your_turn', 'club_challenge', 'tournament'];

/** A notification's text in the page's language. */
export function noticeText(n) {
  const d = n.data || {};
  const game = d.game ? t(`game.${d.game}`) : '';
  return t(KINDS.includes(n.kind) ? `notices.${n.kind}` : 'notices.other', { name: d.name || '', game });
}

/** Where a notification leads: the challenge, the game, the tournament, the club. */
export function noticeHref(n) {
  const d = n.data || {};
  const enc = encodeURIComponent;
  if (d.game_id) return `#/game/${enc(d.game_id)}`;
  if (d.tournament) return `#/tournament/${enc(d.tournament)}`;
  if (d.club) return `#/club/${enc(d.club)}`;
  if (d.challenge) return `#/challenge/${enc(d.challenge)}`;
  return '#/me';
}

const bell = { unread: 0, list: [], started: false, token: null, el: null, abort: null };

function setCount(n) {
  bell.unread = n;
  const { button, count } = bell.el;
  button.setAttribute('aria-label', t('notices.bell', { n }));
  count.textContent = num(n);
  count.hidden = n === 0;
}

function drawList() {
  const { list, readAll } = bell.el;
  if (!bell.list.length) { /* unread ones not read yet: the list comes (refresh) */
    list.replaceChildren(...(bell.unread ? [] : [h('li', { class: 'muted' }, t('notices.none'))]));
  } else {
    list.replaceChildren(...bell.list.map((n) => h('li', { class: n.read ? 'read' : 'unread' },
      h('a', { href: noticeHref(n), onclick: () => openPanel(false) }, noticeText(n)),
      n.read ? null : h('span', { class: 'badge' }, ' ', t('notices.unread')))));
  }
  readAll.hidden = bell.unread === 0;
}

async function refresh() {
  try {
    const r = await listNotices();
    bell.list = r.notifications || [];
    setCount(r.unread || 0);
    drawList();
  } catch { /* offline: the list waits for the next opening */ }
}

function openPanel(open) {
  const { button, panel } = bell.el;
  panel.hidden = !open;
  button.setAttribute('aria-expanded', open ? 'true' : 'false');
  if (open) refresh();
}

function arrived(n) {
  bell.list = [n, ...bell.list.filter((m) => m.id !== n.id)].slice(0, 50);
  bell.el.live.textContent = noticeText(n);
  playSound('notice');
  if (!bell.el.panel.hidden) drawList();
}

async function watch() {
  while (bell.token && bell.token === playerToken()) {
    bell.abort = new AbortController();
    try {
      await watchNotices((event, value) => {
        if (event === 'unread') setCount(value.unread || 0);
        else if (event === 'notice') arrived(value);
      }, bell.abort.signal);
    } catch (err) {
      if (err && (err.status === 403 || err.status === 404)) break; // no token the server takes (or no notifications): wait
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  bell.started = false;
}

/** Starts the stream once the player has a token (call it on every route). */
export function bellCheck() {
  if (bell.started && bell.token !== playerToken() && bell.abort) bell.abort.abort(); // signed in or out
  if (!bell.el || bell.started || !playerToken()) return;
  bell.started = true;
  bell.token = playerToken();
  bell.el.root.hidden = false;
  watch();
}

/** The bell, drawn into `host` (the header's), hidden until the player has a token. */
export function startBell(host) {
  if (!host) return;
  const count = h('span', { class: 'bell-count', 'aria-hidden': 'true', hidden: true }, num(0));
  const button = h('button', { type: 'button', id: 'bell-button', class: 'bell-button', 'aria-expanded': 'false', 'aria-controls': 'bell-panel' },
    h('span', { 'aria-hidden': 'true' }, '\u{1F514}'), count);
  const list = h('ul', { id: 'bell-list', class: 'bell-list' });
  const readAll = h('button', { type: 'button', id: 'bell-read', hidden: true, onclick: async () => {
    const top = bell.list.reduce((m, n) => Math.max(m, n.id), 0);
    try {
      const r = await readNotices(top);
      setCount(r.unread || 0);
      for (const n of bell.list) if (n.id <= top) n.read = true;
      bell.el.button.focus(); // the button it was pressed on goes: focus stays in the bell
      drawList();
    } catch { /* offline: try again */ }
  } }, t('notices.read_all'));
  const panel = h('div', { id: 'bell-panel', class: 'bell-panel', role: 'region', 'aria-labelledby': 'bell-title', hidden: true },
    h('h2', { id: 'bell-title' }, t('notices.title')), list, readAll);
  const live = h('p', { id: 'bell-live', class: 'sr-only', 'aria-live': 'polite' });
  const root = h('div', { class: 'bell', hidden: true }, button, panel, live);
  button.addEventListener('click', () => openPanel(panel.hidden));
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !panel.hidden) {
      openPanel(false);
      button.focus();
    }
  });
  host.replaceChildren(root);
  bell.el = { root, button, count, panel, list, readAll, live };
  setCount(bell.unread);
  drawList();
  bellCheck();
}

/** Writes the bell's texts again (a change of language). */
export function bellTranslate() {
  if (!bell.el) return;
  setCount(bell.unread);
  bell.el.panel.querySelector('h2').textContent = t('notices.title');
  bell.el.readAll.textContent = t('notices.read_all');
  drawList();
}

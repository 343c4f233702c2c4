// Playing people: #/people (invite a friend with a link, or seek a game in the lobby)
// and #/challenge/ID (the invite link: accept it and play).  The game itself is the
// play page (#/game/ID, play.js with people-panel.js), which is also the watch page
// for anyone without the game's token.
import { errorText, t, num } from '../common/i18n.js';
import { gameNames } from '../net/api.js';
import { h } from '../common/dom.js';
import { visitor, createChallenge, getChallenge, acceptChallenge, listSeeks, cancelChallenge, rememberOwnGame } from '../net/people-api.js';
import { watchChallenge } from './people-watch.js';

// Clock choices: real-time (minutes + increment seconds), days a move, or none.
export const CLOCKS = [
  { id: '3+2', clock: { initial: 180, increment: 2 } },
  { id: '5+3', clock: { initial: 300, increment: 3 } },
  { id: '10+5', clock: { initial: 600, increment: 5 } },
  { id: '15+10', clock: { initial: 900, increment: 10 } },
  { id: '30+0', clock: { initial: 1800, increment: 0 } },
  { id: 'd1', days: 1 }, { id: 'd3', days: 3 }, { id: 'd7', days: 7 },
  { id: 'none' },
];

export function clockLabel(c) {
  if (c.clock) return t('people.clock.rt', { min: num(c.clock.initial / 60), inc: num(c.clock.increment) });
  if (c.days) return t('people.clock.corr', { n: c.days });
  return t('people.clock.none');
}

// A challenge's creator, with their rating in its class when it is rated.
export const who = (c) => (c.rating ? t('people.rated.name', { name: c.name, rating: num(c.rating) }) : c.name);
export const rating = (c) => (c.rated && c.rating_class ? `${t('people.rated.yes')} (${t('people.class.' + c.rating_class)})` : t('people.rated.no'));

const errorBox = (err) => h('p', { class: 'error', role: 'alert' }, t('error.generic', { message: errorText(err) }));

function nameInput(id) {
  return h('input', { id, name: 'name', required: true, maxlength: 40, autocomplete: 'nickname', value: visitor().name || '' });
}

/** Whether a game on this clock choice can be rated: the server rates only games with
 *  a clock, real-time or days a move (API.md "Ratings between people"). */
export const canBeRated = (c) => Boolean(c && (c.clock || c.days));

/** The form's fields as a challenge body. */
function fieldsOf(form) {
  const c = CLOCKS.find((x) => x.id === form.clock.value) || CLOCKS[0];
  return { game: form.game.value, clock: c.clock || null, days: c.days || null, side: form.side.value, rated: canBeRated(c) && form.rated.checked, name: form.name ? form.name.value.trim() : undefined };
}

/** "Rated" offered only with a clock: with "no clock" the box is unticked, disabled
 *  and a note says why. */
function ratedFollowsClock(form, note) {
  const c = CLOCKS.find((x) => x.id === form.clock.value) || CLOCKS[0];
  const ok = canBeRated(c);
  if (!ok) form.rated.checked = false;
  form.rated.disabled = !ok;
  note.hidden = ok;
}

export async function challengeForm(prefix, submitLabel, onsubmit, withName = true) {
  const games = await gameNames();
  const msg = h('div', { 'aria-live': 'polite' });
  const sel = (id, opts) => h('select', { id: `${prefix}-${id}`, name: id }, ...opts);
  const ratedNote = h('span', { class: 'muted', id: `${prefix}-rated-note`, hidden: true }, ' ', t('people.rated.noclock'));
  const form = h('form', { class: 'challenge-form', id: `${prefix}-form`, onsubmit: async (e) => {
    e.preventDefault();
    msg.replaceChildren();
    try { await onsubmit(fieldsOf(form), msg); } catch (err) { msg.replaceChildren(errorBox(err)); }
  } },
    withName ? h('p', {}, h('label', { for: `${prefix}-name` }, t('people.name')), ' ', nameInput(`${prefix}-name`)) : '',
    h('p', {}, h('label', { for: `${prefix}-game` }, t('people.game')), ' ', sel('game', games.map((g) => h('option', { value: g }, t(`game.${g}`))))),
    h('p', {}, h('label', { for: `${prefix}-clock` }, t('people.clock')), ' ', sel('clock', CLOCKS.map((c) => h('option', { value: c.id }, clockLabel(c))))),
    h('p', {}, h('label', { for: `${prefix}-side` }, t('new.side')), ' ', sel('side', ['random', 'white', 'black'].map((s) => h('option', { value: s }, t('side.' + s))))),
    h('p', {}, h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: `${prefix}-rated`, name: 'rated', 'aria-describedby': `${prefix}-rated-note` }), ' ', t('people.rated')), ratedNote),
    h('p', {}, h('button', { type: 'submit', class: 'primary', id: `${prefix}-submit` }, submitLabel)),
    msg);
  form.clock.addEventListener('change', () => ratedFollowsClock(form, ratedNote));
  ratedFollowsClock(form, ratedNote);
  return form;
}

/** Wait for a challenge (or seek) of ours to be accepted, then go to its game: the
 *  challenge's event stream tells it (people-watch.js; a poll only if the stream fails). */
export function awaitAccept(id, game, onStatus) {
  return watchChallenge(id, (c) => {
    if (c.status === 'accepted' && c.game_id) {
      rememberOwnGame(c.game_id, game);
      location.hash = `#/game/${c.game_id}`;
    } else {
      onStatus(c.status);
    }
  }, { getChallenge });
}

export async function showPeople(app) {
  document.title = `${t('people.heading')} — agora`;
  let stopWait = null;
  const invite = h('div', { id: 'invite-out', 'aria-live': 'polite' });
  const inviteForm = await challengeForm('invite', t('people.invite.make'), async (f) => {
    const c = await createChallenge(f);
    const link = `${location.origin}${c.url}`;
    invite.replaceChildren(h('p', {}, t('people.invite.send')),
      h('p', {}, h('label', { for: 'invite-url' }, t('people.invite.link')), ' ',
        h('input', { id: 'invite-url', readonly: true, value: link, size: 48, onfocus: (e) => e.target.select() }), ' ',
        h('button', { type: 'button', id: 'invite-copy', onclick: () => navigator.clipboard?.writeText(link) }, t('people.copy'))),
      h('p', { class: 'muted', id: 'invite-waiting' }, t('people.waiting')),
      h('p', {}, h('button', { type: 'button', id: 'invite-cancel', onclick: async () => { if (stopWait) stopWait(); await cancelChallenge(c.id).catch(() => {}); invite.replaceChildren(h('p', {}, t('people.status.cancelled'))); } }, t('people.cancel'))));
    if (stopWait) stopWait();
    stopWait = awaitAccept(c.id, f.game, (st) => invite.append(h('p', {}, t('people.status.' + st))));
  });
  const seeks = h('ul', { class: 'seeks', id: 'seeks', 'aria-label': t('people.lobby') });
  const seekOut = h('div', { id: 'seek-out', 'aria-live': 'polite' });
  const seekForm = await challengeForm('seek', t('people.seek.make'), async (f) => {
    const c = await createChallenge(f, true);
    seekOut.replaceChildren(h('p', { class: 'muted', id: 'seek-waiting' }, t('people.seek.waiting')));
    if (stopWait) stopWait();
    stopWait = awaitAccept(c.id, f.game, (st) => seekOut.replaceChildren(h('p', {}, t('people.status.' + st))));
    refreshSeeks();
  });
  const lobbyName = nameInput('lobby-name');
  const lobbyMsg = h('div', { 'aria-live': 'polite' });
  async function refreshSeeks() {
    try {
      const { seeks: list } = await listSeeks();
      if (!list.length) { seeks.replaceChildren(h('li', { class: 'muted' }, t('people.lobby.empty'))); return; }
      seeks.replaceChildren(...list.map((s) => h('li', { 'data-seek': s.id },
        h('span', {}, `${who(s)} · ${t(`game.${s.game}`)} · ${clockLabel(s)} · ${rating(s)}`), ' ',
        h('button', { type: 'button', class: 'small', onclick: async () => {
          lobbyMsg.replaceChildren();
          if (!lobbyName.value.trim()) { lobbyName.focus(); lobbyMsg.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('people.name.needed'))); return; }
          try {
            const st = await acceptChallenge(s.id, lobbyName.value.trim());
            location.hash = `#/game/${st.id}`;
          } catch (err) { lobbyMsg.replaceChildren(errorBox(err)); refreshSeeks(); }
        } }, t('people.seek.accept')))));
    } catch (err) { seeks.replaceChildren(h('li', {}, errorBox(err))); }
  }
  app.replaceChildren(h('div', { class: 'narrow people-page' },
    h('h1', {}, t('people.heading')),
    h('p', {}, t('people.intro')),
    h('section', { 'aria-labelledby': 'invite-h' }, h('h2', { id: 'invite-h' }, t('people.invite')), inviteForm, invite),
    h('section', { 'aria-labelledby': 'lobby-h' }, h('h2', { id: 'lobby-h' }, t('people.lobby')),
      h('p', {}, h('label', { for: 'lobby-name' }, t('people.name')), ' ', lobbyName), seeks, lobbyMsg,
      h('h3', {}, t('people.seek')), seekForm, seekOut)));
  await refreshSeeks();
  const poll = setInterval(refreshSeeks, 3000);
  return () => { clearInterval(poll); if (stopWait) stopWait(); };
}

export async function showChallenge(app, id) {
  const c = await getChallenge(id);
  document.title = `${t('people.challenge.heading')} — agora`;
  const msg = h('div', { 'aria-live': 'polite' });
  const name = nameInput('accept-name');
  const side = c.side === 'random' ? t('side.random') : t('side.' + (c.side === 'white' ? 'black' : 'white'));
  const body = [h('p', { id: 'challenge-text' }, t('people.challenge.text', { name: who(c), game: t(`game.${c.game}`), clock: clockLabel(c), side })),
    h('p', { class: 'muted' }, rating(c))];
  if (c.status === 'accepted' && c.game_id) body.push(h('p', {}, h('a', { class: 'button', href: `#/game/${c.game_id}`, id: 'challenge-watch' }, t('people.challenge.watch'))));
  if (c.status !== 'open') body.push(h('p', { class: 'error', id: 'challenge-status' }, t('people.status.' + c.status)));
  else body.push(h('form', { id: 'accept-form', onsubmit: async (e) => {
    e.preventDefault();
    msg.replaceChildren();
    try {
      const st = await acceptChallenge(id, name.value.trim());
      location.hash = `#/game/${st.id}`;
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  } },
    h('p', {}, h('label', { for: 'accept-name' }, t('people.name')), ' ', name),
    h('p', {}, h('button', { type: 'submit', class: 'primary', id: 'accept' }, t('people.challenge.accept'))), msg));
  app.replaceChildren(h('div', { class: 'narrow challenge-page' }, h('h1', {}, t('people.challenge.heading')), ...body));
}

// One player on several devices (src/server/API.md "Devices"): on the player's own page,
// the personal link with its QR code (made by the server), the devices signed in
// through it, each revoked with a button, and signing out on a device; and the page a
// link opens, #/signin/CODE, which signs this device in as that player (what this
// device kept before under its own tokens is merged into the player's).
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { makeLink, revokeLink, signin, devices, revokeDevice, addPasskey, passkeys, revokePasskey, signinPasskey } from '../net/devices-api.js';
import { mergeOldTokens } from '../net/players-api.js';
import { visitor, saveVisitor, playerToken } from '../local/storage.js';
import { dateText, errorBox } from './player-common.js';

/** The section of the player's own page. */
export function devicesSection() {
  const msg = h('div', { 'aria-live': 'polite', id: 'devices-msg' });
  const linkOut = h('div', { id: 'device-link' });
  const list = h('div', { id: 'devices-list' });
  const fail = (err) => msg.replaceChildren(errorBox(err));
  const drawList = (r) => {
    const rows = r.devices.map((d) => h('li', { 'data-device': d.id },
      d.name || d.id, ' ', h('span', { class: 'muted' }, dateText(d.created), d.id === r.this ? ` · ${t('devices.this')}` : ''), ' ',
      d.id === r.this
        ? h('button', { type: 'button', class: 'small', id: 'device-signout', onclick: () => signOut(d.id) }, t('devices.signout'))
        : h('button', { type: 'button', class: 'small', id: `device-revoke-${d.id}`, 'aria-label': `${t('devices.revoke')}: ${d.name || d.id}`, onclick: async () => {
          try { drawList(await revokeDevice(d.id)); } catch (err) { fail(err); }
        } }, t('devices.revoke'))));
    // The first token: from another device it is revoked; on the first device, signing
    // out revokes it (the player goes on on their other devices).
    const first = r.this
      ? h('button', { type: 'button', class: 'small', id: 'device-revoke-first', onclick: async () => {
        try { drawList(await revokeDevice('first')); msg.replaceChildren(h('p', {}, t('devices.first_revoked'))); } catch (err) { fail(err); }
      } }, t('devices.first_revoke'))
      : rows.length ? h('button', { type: 'button', class: 'small', id: 'device-signout-first', onclick: () => signOut('first') }, t('devices.signout')) : null;
    list.replaceChildren(h('h3', {}, t('devices.list')), rows.length ? h('ul', {}, rows) : h('p', { class: 'muted' }, t('devices.none')),
      first ? h('p', {}, first) : null);
  };
  const signOut = async (id) => {
    try {
      await revokeDevice(id);
      saveVisitor({ token: null, name: null });
      msg.replaceChildren(h('p', {}, t('devices.signedout')));
      location.hash = '#/';
    } catch (err) { fail(err); }
  };
  const make = async () => {
    msg.replaceChildren();
    try {
      const r = await makeLink(location.origin);
      const url = `${location.origin}${r.path}`;
      linkOut.replaceChildren(
        h('p', {}, h('label', { for: 'device-link-url' }, t('devices.link')), ' ',
          h('input', { id: 'device-link-url', readonly: true, value: url, size: 48, onfocus: (e) => e.target.select() })),
        h('p', {}, h('img', { id: 'device-qr', class: 'qr', width: 200, height: 200, alt: t('devices.qr'), src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(r.svg)}` })),
        h('p', { class: 'muted' }, t('devices.expires', { date: dateText(r.expires) })),
        h('p', {}, h('button', { type: 'button', id: 'device-link-revoke', onclick: async () => {
          try {
            await revokeLink();
            linkOut.replaceChildren(h('p', {}, t('devices.revoked')));
          } catch (err) { fail(err); }
        } }, t('devices.revoke_link'))));
    } catch (err) { fail(err); }
  };
  devices().then(drawList, fail);
  return h('section', { 'aria-labelledby': 'devices-h', id: 'devices' }, h('h2', { id: 'devices-h' }, t('devices.heading')),
    h('p', {}, t('devices.intro')),
    h('p', {}, h('button', { type: 'button', class: 'primary', id: 'device-link-make', onclick: make }, t('devices.make'))),
    linkOut, msg, list, passkeysPart(fail));
}

const webauthn = () => typeof window !== 'undefined' && window.PublicKeyCredential && navigator.credentials;

// The player's passkeys: added on this device, listed, revoked.
function passkeysPart(fail) {
  const list = h('div', { id: 'passkeys-list' });
  const out = h('div', { 'aria-live': 'polite', id: 'passkey-msg' });
  const draw = (r) => list.replaceChildren(r.passkeys.length ? h('ul', {}, r.passkeys.map((k) => h('li', { 'data-passkey': k.id },
    k.name || t('passkeys.unnamed'), ' ', h('span', { class: 'muted' }, dateText(k.created)), ' ',
    h('button', { type: 'button', class: 'small', 'aria-label': `${t('devices.revoke')}: ${k.name || t('passkeys.unnamed')}`, onclick: async () => {
      try { draw(await revokePasskey(k.id)); } catch (err) { fail(err); }
    } }, t('devices.revoke')))))
    : h('p', { class: 'muted' }, t('passkeys.none')));
  const name = h('input', { id: 'passkey-name', name: 'passkey', maxlength: 60 });
  const add = h('button', { type: 'button', id: 'passkey-add', onclick: async () => {
    out.replaceChildren();
    try {
      await addPasskey(name.value.trim());
      out.replaceChildren(h('p', { id: 'passkey-added' }, t('passkeys.added')));
      draw(await passkeys());
    } catch (err) { out.replaceChildren(err && err.name === 'NotAllowedError' ? h('p', { class: 'muted' }, t('passkeys.cancelled')) : errorBox(err)); }
  } }, t('passkeys.add'));
  passkeys().then(draw, fail);
  return h('div', { id: 'passkeys' }, h('h3', {}, t('passkeys.heading')), h('p', {}, t('passkeys.intro')),
    webauthn() ? h('p', {}, h('label', { for: 'passkey-name' }, t('passkeys.name')), ' ', name, ' ', add) : h('p', { class: 'muted' }, t('passkeys.unsupported')),
    out, list);
}

/** Keeps the token this device signed in with, and merges what it kept before. */
async function signedIn(r, msg) {
  const before = playerToken();
  saveVisitor({ token: r.token, name: r.name || visitor().name });
  await mergeOldTokens(before ? [before] : []).catch(() => {});
  msg.replaceChildren(h('p', { id: 'signin-done' }, r.name ? t('signin.done', { name: r.name }) : t('signin.done_noname')));
  if (r.id) location.hash = `#/player/${r.id}`;
}

/** #/signin/CODE: this device signed in as the link's player; #/signin: by a passkey. */
export async function showSignin(app, code) {
  document.title = `${t('signin.heading')} — agora`;
  const msg = h('div', { 'aria-live': 'polite', id: 'signin-msg' });
  const device = h('input', { id: 'signin-device', name: 'device', maxlength: 60 });
  const form = h('form', { id: 'signin-form', onsubmit: async (e) => {
    e.preventDefault();
    msg.replaceChildren();
    try {
      await signedIn(await signin(code, device.value.trim()), msg);
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  } },
  h('p', {}, h('label', { for: 'signin-device' }, t('signin.device')), ' ', device),
  code ? h('p', {}, h('button', { type: 'submit', class: 'primary', id: 'signin-go' }, t('signin.go'))) : null);
  const passkey = webauthn() ? h('p', {}, h('button', { type: 'button', id: 'signin-passkey', class: code ? null : 'primary', onclick: async () => {
    msg.replaceChildren();
    try {
      await signedIn(await signinPasskey(device.value.trim()), msg);
    } catch (err) { msg.replaceChildren(err && err.name === 'NotAllowedError' ? h('p', { class: 'muted' }, t('passkeys.cancelled')) : errorBox(err)); }
  } }, t('passkeys.signin'))) : null;
  app.replaceChildren(h('div', { class: 'narrow' }, h('h1', {}, t('signin.heading')), h('p', {}, t(code ? 'signin.intro' : 'signin.passkey_intro')), form, passkey, msg));
}

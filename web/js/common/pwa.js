// Installable and readable offline: the service worker (sw.js) keeps the pages, the
// rules and the lessons; a note says when the browser is offline that playing needs
// the server.
import { t } from './i18n.js';
import { h } from './dom.js';

if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol))
  navigator.serviceWorker.register('sw.js').catch(() => { /* not installable here */ });

function note() {
  let n = document.getElementById('offline-note');
  const main = document.getElementById('app');
  if (!n && main) {
    n = h('p', { class: 'offline-note', id: 'offline-note', role: 'status' });
    main.before(n);
  }
  if (!n) return;
  n.textContent = t('offline.note');
  n.hidden = navigator.onLine !== false;
}

window.addEventListener('online', note);
window.addEventListener('offline', note);
window.addEventListener('hashchange', note);
document.addEventListener('agora:ready', note);
if (document.readyState !== 'loading') setTimeout(note, 0);
else document.addEventListener('DOMContentLoaded', note);

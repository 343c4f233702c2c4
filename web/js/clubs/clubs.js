// Clubs: #/clubs (create one; the visitor's clubs) and #/club/ID (?invite=CODE: the
// invite link): its members (admins remove them, the creator names admins), its lobby
// of challenges among members, its tournaments, its games and the results between members.  A club page
// refreshes itself every few seconds while it is visible (people-watch.js whileVisible)
// and says new challenges in its lobby to screen readers.
import { errorText, t, num, LANGUAGES } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { visitor, acceptChallenge, createClub, getClub, joinClub, leaveClub, removeMember, barMember, setPublic, findClubs, setAdmin, clubChallenge, myClubs } from '../net/people-api.js';
import { challengeForm, awaitAccept, clockLabel, who, rating } from '../people/people.js';
import { whileVisible } from '../people/people-watch.js';
import { listTournaments } from '../net/tournaments-api.js';

const REFRESH_MS = 4000;

const errorBox = (err) => h('p', { class: 'error', role: 'alert' }, t('error.generic', { message: errorText(err) }));

export async function showClubs(app) {
  document.title = `${t('club.heading')} — agora`;
  const msg = h('div', { 'aria-live': 'polite' });
  const langs = LANGUAGES.map((l) => h('label', { class: 'toggle' }, h('input', { type: 'checkbox', name: 'lang', value: l, id: `club-lang-${l}` }), ' ', t('lang.' + l)));
  const form = h('form', { id: 'club-form', onsubmit: async (e) => {
    e.preventDefault();
    msg.replaceChildren();
    try {
      const club = await createClub({ club: form.club.value.trim(), description: form.description.value, languages: [...form.querySelectorAll('input[name=lang]:checked')].map((x) => x.value), name: form.name.value.trim(), public: form.public.checked });
      location.hash = `#/club/${club.id}`;
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  } },
    h('p', {}, h('label', { for: 'club-name' }, t('club.name')), ' ', h('input', { id: 'club-name', name: 'club', required: true, maxlength: 80 })),
    h('p', {}, h('label', { for: 'club-description' }, t('club.description')), h('br'), h('textarea', { id: 'club-description', name: 'description', rows: 3, maxlength: 1000 })),
    h('fieldset', {}, h('legend', {}, t('club.languages')), ...langs),
    h('p', {}, h('label', { class: 'toggle' }, h('input', { type: 'checkbox', name: 'public', id: 'club-public' }), ' ', t('club.public'))),
    h('p', {}, h('label', { for: 'club-member' }, t('people.name')), ' ', h('input', { id: 'club-member', name: 'name', required: true, maxlength: 40, value: visitor().name || '' })),
    h('p', {}, h('button', { type: 'submit', class: 'primary', id: 'club-create' }, t('club.create'))), msg);
  const mine = Object.entries(myClubs());
  app.replaceChildren(h('div', { class: 'narrow clubs-page' }, h('h1', {}, t('club.heading')), h('p', {}, t('club.intro')),
    h('section', { 'aria-labelledby': 'my-clubs-h' }, h('h2', { id: 'my-clubs-h' }, t('club.mine')),
      mine.length ? h('ul', { id: 'my-clubs' }, mine.map(([id, c]) => h('li', {}, h('a', { href: `#/club/${id}` }, c.name))))
        : h('p', { class: 'muted' }, t('club.none'))),
    findSection(),
    h('section', { 'aria-labelledby': 'new-club-h' }, h('h2', { id: 'new-club-h' }, t('club.new')), form)));
}

// The public clubs (GET /api/clubs), searched by name and language.
function findSection() {
  const out = h('div', { id: 'club-found', 'aria-live': 'polite' });
  const lang = h('select', { id: 'find-lang', name: 'lang' }, h('option', { value: '' }, t('club.find.any')),
    ...LANGUAGES.map((l) => h('option', { value: l }, t('lang.' + l))));
  const search = async (name = '', l = '') => {
    try {
      const r = await findClubs(name, l);
      out.replaceChildren(r.clubs.length ? h('ul', { id: 'found-clubs' }, r.clubs.map((c) => h('li', {},
        h('a', { href: `#/club/${c.id}` }, c.name), ' ', h('span', { class: 'muted' },
          `${c.languages.map((x) => t('lang.' + x)).join(', ')} · ${t('club.find.members', { n: c.members })}`))))
        : h('p', { class: 'muted' }, t('club.find.none')));
    } catch (err) { out.replaceChildren(errorBox(err)); }
  };
  const form = h('form', { id: 'club-find', role: 'search', onsubmit: (e) => {
    e.preventDefault();
    search(form.name.value.trim(), form.lang.value);
  } },
  h('p', {}, h('label', { for: 'find-name' }, t('club.find.name')), ' ', h('input', { id: 'find-name', name: 'name', maxlength: 80 }), ' ',
    h('label', { for: 'find-lang' }, t('club.find.lang')), ' ', lang, ' ', h('button', { type: 'submit', id: 'find-go' }, t('club.find.go'))));
  search();
  return h('section', { 'aria-labelledby': 'find-club-h' }, h('h2', { id: 'find-club-h' }, t('club.find')), form, out);
}

export async function showClub(app, id) {
  const invite = new URLSearchParams(location.hash.split('?')[1] || '').get('invite');
  let club = await getClub(id);
  // The club's tournaments (API.md "Tournaments"): only its members play in them.
  let tourneys = [];
  const loadTourneys = async () => { try { tourneys = (await listTournaments('', id)).tournaments; } catch { /* shown next time */ } };
  await loadTourneys();
  let stopWait = null;
  const root = h('div', { class: 'narrow club-page' });
  const msg = h('div', { 'aria-live': 'polite', id: 'club-msg' });
  const news = h('p', { class: 'sr-only', 'aria-live': 'polite', id: 'club-news' });
  const act = async (fn) => {
    msg.replaceChildren();
    try { club = await fn(); render(); } catch (err) { msg.replaceChildren(errorBox(err)); }
  };
  const lobbyOut = h('div', { id: 'club-lobby-out', 'aria-live': 'polite' });
  const form = await challengeForm('club', t('club.challenge.make'), async (f) => {
    const c = await clubChallenge(club.id, f);
    lobbyOut.replaceChildren(h('p', { class: 'muted', id: 'club-waiting' }, t('people.seek.waiting')));
    if (stopWait) stopWait();
    stopWait = awaitAccept(c.id, f.game, (st) => lobbyOut.replaceChildren(h('p', {}, t('people.status.' + st))));
    club = await getClub(club.id);
    render();
  }, false); // a member's name is the club's

  function render() {
    document.title = `${club.name} — agora`;
    const you = club.you;
    const admin = you && (you.role === 'admin' || you.role === 'creator');
    const items = [h('h1', {}, club.name)];
    if (club.description) items.push(h('p', { class: 'club-description' }, ...club.description.split('\n').flatMap((line, i) => (i ? [h('br'), line] : [line]))));
    items.push(h('p', { class: 'muted' }, t('club.languages'), ': ', club.languages.map((l) => t('lang.' + l)).join(', ')));
    if (club.public) items.push(h('p', { class: 'muted', id: 'club-public-note' }, t('club.public.yes')));
    if (!you && (invite || club.public)) items.push(h('form', { id: 'club-join', onsubmit: (e) => {
      e.preventDefault();
      act(() => joinClub(club.id, invite, e.target.name.value.trim()));
    } }, invite ? null : h('p', {}, t('club.join.open')), h('p', {}, h('label', { for: 'join-name' }, t('people.name')), ' ',
      h('input', { id: 'join-name', name: 'name', required: true, maxlength: 40, value: visitor().name || '' }), ' ',
      h('button', { type: 'submit', class: 'primary', id: 'join' }, t('club.join')))));
    else if (!you) items.push(h('p', { class: 'muted' }, t('club.outsider')));
    items.push(msg);
    if (you) {
      const link = `${location.origin}${club.invite_url}`;
      items.push(h('p', {}, h('label', { for: 'club-invite' }, t('club.invite')), ' ',
        h('input', { id: 'club-invite', readonly: true, value: link, size: 48, onfocus: (e) => e.target.select() })));
    }
    items.push(h('h2', {}, t('club.members')), h('ul', { id: 'club-members' }, club.members.map((m) => h('li', { 'data-member': m.id },
      m.player ? h('a', { href: `#/player/${m.player}` }, m.name) : m.name, ' ', h('span', { class: 'muted' }, t('club.role.' + m.role)),
      admin && m.role !== 'creator' && m.id !== you.id ? [' ', h('button', { type: 'button', class: 'small', id: `remove-${m.id}`, onclick: () => act(() => removeMember(club.id, m.id)) }, t('club.remove')),
        ' ', h('button', { type: 'button', class: 'small', id: `bar-${m.id}`, onclick: () => act(() => barMember(club.id, m.id)) }, t('club.bar'))] : [],
      you && you.role === 'creator' && m.role !== 'creator' ? [' ', h('button', { type: 'button', class: 'small', id: `admin-${m.id}`, onclick: () => act(() => setAdmin(club.id, m.id, m.role !== 'admin')) }, t(m.role === 'admin' ? 'club.unadmin' : 'club.admin'))] : []))));
    if (admin) items.push(h('p', {}, h('button', { type: 'button', id: 'club-public-toggle', onclick: () => act(() => setPublic(club.id, !club.public)) },
      t(club.public ? 'club.public.unmake' : 'club.public.make'))));
    items.push(h('h2', {}, t('club.lobby')));
    items.push(club.challenges.length ? h('ul', { id: 'club-challenges' }, club.challenges.map((c) => h('li', {},
      `${who(c)} · ${t(`game.${c.game}`)} · ${clockLabel(c)} · ${rating(c)}`, ' ',
      you && c.name !== (club.members.find((m) => m.id === you.id) || {}).name ? h('button', { type: 'button', class: 'small', 'data-challenge': c.id, onclick: async () => {
        try {
          const st = await acceptChallenge(c.id, (club.members.find((m) => m.id === you.id) || {}).name || visitor().name);
          location.hash = `#/game/${st.id}`;
        } catch (err) { msg.replaceChildren(errorBox(err)); }
      } }, t('people.seek.accept')) : '')))
      : h('p', { class: 'muted', id: 'club-challenges' }, t('people.lobby.empty')));
    if (you) items.push(h('h3', {}, t('club.challenge')), form, lobbyOut);
    items.push(h('h2', {}, t('nav.tournaments')));
    items.push(tourneys.length ? h('ul', { id: 'club-tournaments' }, tourneys.map((x) => h('li', {},
      h('a', { href: `#/tournament/${x.id}` }, x.name), ' · ', t(`game.${x.game}`), ' · ', t(`tourney.status.${x.status}`))))
      : h('p', { class: 'muted', id: 'club-tournaments' }, t('tourney.list.none')));
    if (admin) items.push(h('p', {}, h('a', { href: '#/tournaments', id: 'club-new-tournament' }, t('tourney.new'))));
    items.push(h('h2', {}, t('club.results')));
    items.push(club.results.length ? h('table', { id: 'club-results' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('club.player')), h('th', { scope: 'col' }, t('club.player')), h('th', { scope: 'col' }, t('club.score')))),
      h('tbody', {}, club.results.map((r) => h('tr', {}, h('td', {}, r.a), h('td', {}, r.b),
        h('td', {}, `${num(r.a_wins)} – ${num(r.draws)} – ${num(r.b_wins)}`)))))
      : h('p', { class: 'muted' }, t('club.results.none')));
    items.push(h('h2', {}, t('club.games')));
    items.push(club.games.length ? h('ul', { id: 'club-games' }, club.games.map((g) => h('li', {},
      h('a', { href: `#/game/${g.id}` }, `${g.white} – ${g.black}`), ' · ', t(`game.${g.game}`), ' · ', t('club.result.' + g.result))))
      : h('p', { class: 'muted' }, t('club.games.none')));
    if (you && you.role !== 'creator') items.push(h('p', {}, h('button', { type: 'button', id: 'club-leave', onclick: () => act(() => leaveClub(club.id)) }, t('club.leave'))));
    // Drawn again: keep what the visitor was typing and where the focus was.
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : '';
    const typed = [...root.querySelectorAll('input[id]:not([readonly]), textarea[id]')].filter((x) => !form.contains(x)).map((x) => [x.id, x.value]);
    root.replaceChildren(...items);
    for (const [fid, value] of typed) { const x = root.querySelector(`#${fid}`); if (x && !form.contains(x)) x.value = value; }
    if (focused) { const x = document.getElementById(focused); if (x && x !== document.activeElement) x.focus(); }
  }
  render();
  app.replaceChildren(root, news); // the live region stays while the page is drawn again
  // The page keeps itself fresh: members, challenges, games and results as they change.
  const stopRefresh = whileVisible(async () => {
    const next = await getClub(id);
    const before = JSON.stringify(tourneys);
    await loadTourneys();
    if (JSON.stringify(next) === JSON.stringify(club) && before === JSON.stringify(tourneys)) return;
    const known = new Set(club.challenges.map((c) => c.id));
    const fresh = next.challenges.filter((c) => !known.has(c.id));
    club = next;
    render();
    if (fresh.length) news.textContent = fresh.map((c) => t('club.live.challenge', { name: who(c), game: t(`game.${c.game}`), clock: clockLabel(c) })).join(' ');
  }, REFRESH_MS);
  return () => { stopRefresh(); if (stopWait) stopWait(); };
}

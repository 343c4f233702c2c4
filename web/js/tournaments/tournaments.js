// Tournaments: #/tournaments (upcoming, running and finished arenas and Swiss; create one, for
// everyone or for a club the visitor administers) and #/tournament/ID (its rules as the
// server plays them, a countdown, the standings live from its event stream, the
// visitor's game with a sound and a spoken line when a new one starts, join, pause,
// withdraw, berserk, the podium at the end; a Swiss's round, points and tie-breaks, byes
// and its TRF).  The logic without DOM is tourney-model.js.
import { errorText, t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { visitor } from '../net/people-api.js';
import { myClubs } from '../net/people-api.js';
import { listTournaments, getTournament, createTournament, joinTournament, pauseTournament, withdrawTournament, berserk, tournamentEvents } from '../net/tournaments-api.js';
import { CLOCKS, clockLabel } from '../people/people.js';
import { whileVisible } from '../people/people-watch.js';
import { playSound } from '../board/sound.js';
import { tooLate, countdown, countdownTarget, actions, newGame } from './tourney-model.js';

const GAMES = ['chess', 'agon', 'egara-guti'];
const REFRESH_MS = 5000;

const errorBox = (err) => h('p', { class: 'error', role: 'alert' }, t('error.generic', { message: errorText(err) }));

const clockOf = (tr) => clockLabel(tr);
const when = (ms) => new Date(ms).toLocaleString(document.documentElement.lang || undefined);

function summaryLine(tr) {
  const length = tr.kind === 'swiss' ? t('tourney.rounds.n', { n: tr.rounds }) : t('tourney.minutes', { n: Math.round(tr.duration / 60000) });
  return [t(`tourney.kind.${tr.kind}`), t(`game.${tr.game}`), clockOf(tr), length,
    tr.rated ? t('people.rated.yes') : t('people.rated.no')].join(' · ');
}

export async function showTournaments(app) {
  document.title = `${t('tourney.heading')} — agora`;
  const lists = h('div', {});
  const msg = h('div', { 'aria-live': 'polite' });
  const clubs = Object.entries(myClubs());
  const clockSel = h('select', { id: 'tourney-clock', name: 'clock' },
    CLOCKS.filter((c) => c.clock).map((c) => h('option', { value: c.id }, clockLabel(c))));
  const form = h('form', { id: 'tourney-form', onsubmit: async (e) => {
    e.preventDefault();
    msg.replaceChildren();
    const f = e.target;
    const clock = CLOCKS.find((c) => c.id === f.clock.value).clock;
    const kind = f.kind.value;
    const fields = {
      kind, tournament: f.tournament.value.trim(), game: f.game.value, clock,
      starts: Date.now() + Number(f.starts.value) * 60000, rated: f.rated.checked, name: f.name.value.trim(),
    };
    if (kind === 'swiss') fields.rounds = Number(f.rounds.value);
    else fields.minutes = Number(f.minutes.value);
    if (f.club && f.club.value) fields.club = f.club.value;
    try {
      const v = await createTournament(fields);
      location.hash = `#/tournament/${v.tournament.id}`;
    } catch (err) { msg.replaceChildren(errorBox(err)); }
  } },
    h('p', {}, h('label', { for: 'tourney-name' }, t('tourney.name')), ' ', h('input', { id: 'tourney-name', name: 'tournament', required: true, maxlength: 80 })),
    h('p', {}, h('label', { for: 'tourney-game' }, t('tourney.game')), ' ', h('select', { id: 'tourney-game', name: 'game' }, GAMES.map((g) => h('option', { value: g }, t(`game.${g}`))))),
    h('p', {}, h('label', { for: 'tourney-clock' }, t('tourney.clock')), ' ', clockSel),
    h('p', {}, h('label', { for: 'tourney-kind' }, t('tourney.kind')), ' ', h('select', { id: 'tourney-kind', name: 'kind', onchange: (e) => {
      const swiss = e.target.value === 'swiss';
      document.getElementById('tourney-minutes-p').hidden = swiss;
      document.getElementById('tourney-rounds-p').hidden = !swiss;
    } }, ['arena', 'swiss'].map((k) => h('option', { value: k }, t(`tourney.kind.${k}`))))),
    h('p', { id: 'tourney-minutes-p' }, h('label', { for: 'tourney-minutes' }, t('tourney.length')), ' ', h('input', { id: 'tourney-minutes', name: 'minutes', type: 'number', min: 1, max: 720, value: 30 })),
    h('p', { id: 'tourney-rounds-p', hidden: true }, h('label', { for: 'tourney-rounds' }, t('tourney.rounds')), ' ', h('input', { id: 'tourney-rounds', name: 'rounds', type: 'number', min: 1, max: 20, value: 5 })),
    h('p', {}, h('label', { for: 'tourney-starts' }, t('tourney.starts.in')), ' ', h('select', { id: 'tourney-starts', name: 'starts' },
      [0, 5, 15, 60].map((m) => h('option', { value: m }, m ? t('tourney.starts.after', { n: m }) : t('tourney.starts.now'))))),
    h('p', {}, h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'tourney-rated', name: 'rated' }), ' ', t('tourney.rated'))),
    clubs.length ? h('p', {}, h('label', { for: 'tourney-club' }, t('tourney.club')), ' ', h('select', { id: 'tourney-club', name: 'club' },
      h('option', { value: '' }, t('tourney.club.none')), clubs.map(([id, c]) => h('option', { value: id }, c.name)))) : '',
    h('p', {}, h('label', { for: 'tourney-creator' }, t('people.name')), ' ', h('input', { id: 'tourney-creator', name: 'name', required: true, maxlength: 40, value: visitor().name || '' })),
    h('p', {}, h('button', { type: 'submit', class: 'primary', id: 'tourney-create' }, t('tourney.create'))), msg);
  async function load() {
    const sections = [];
    for (const status of ['running', 'upcoming', 'finished']) {
      const { tournaments } = await listTournaments(status);
      sections.push(h('section', { 'aria-labelledby': `t-${status}-h` }, h('h2', { id: `t-${status}-h` }, t(`tourney.list.${status}`)),
        tournaments.length ? h('ul', { id: `tourneys-${status}` }, tournaments.map((tr) => h('li', {},
          h('a', { href: `#/tournament/${tr.id}` }, tr.name), ' ', h('span', { class: 'muted' }, summaryLine(tr), ' · ', when(tr.starts)))))
          : h('p', { class: 'muted' }, t('tourney.list.none'))));
    }
    lists.replaceChildren(...sections);
  }
  await load();
  app.replaceChildren(h('div', { class: 'narrow tourneys-page' }, h('h1', {}, t('tourney.heading')), h('p', {}, t('tourney.intro')), lists,
    h('section', { 'aria-labelledby': 'tourney-new-h' }, h('h2', { id: 'tourney-new-h' }, t('tourney.new')), form)));
  return whileVisible(load, REFRESH_MS * 2);
}

function rulesList(view) {
  const r = view.rules;
  if (view.tournament.kind === 'swiss') return h('ul', { id: 'tourney-rules' },
    h('li', {}, t('tourney.swiss.rule.points')),
    h('li', {}, t('tourney.swiss.rule.pairing')),
    h('li', {}, t('tourney.swiss.rule.late')),
    h('li', {}, t('tourney.swiss.rule.forfeit', { n: r.first_move_seconds })),
    h('li', {}, t('tourney.swiss.rule.tiebreaks')));
  return h('ul', { id: 'tourney-rules' },
    h('li', {}, t('tourney.rule.points', { win: num(r.win), draw: num(r.draw) })),
    h('li', {}, t('tourney.rule.fire', { n: r.fire_after })),
    h('li', {}, t('tourney.rule.berserk', { n: r.berserk_moves })),
    h('li', {}, t('tourney.rule.early', { n: r.early_draw_moves })),
    h('li', {}, t('tourney.rule.first', { n: r.first_move_seconds })),
    h('li', {}, t('tourney.rule.end')),
    h('li', {}, t('tourney.rule.pairing')));
}

// A decimal text of the server's ("2.5") in the page's digits and decimal sign.
const decimal = (text) => {
  const n = Number(text);
  return Number.isFinite(n) ? new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 2 }).format(n) : text;
};

function swissTable(view) {
  const cols = ['rank', 'player', 'points', 'bh_c1', 'bh', 'sb', 'wins'];
  return h('table', { id: 'tourney-standings' },
    h('caption', { class: 'sr-only' }, t('tourney.standings')),
    h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, t(`tourney.col.${c}`))))),
    h('tbody', {}, view.standings.map((s) => h('tr', { 'data-name': s.name },
      h('td', {}, num(s.rank)),
      h('td', {}, s.id ? h('a', { href: `#/player/${s.id}` }, s.name) : s.name, ' ', h('span', { class: 'muted' }, num(s.rating)),
        s.state !== 'active' ? [' ', h('span', { class: 'muted' }, t(`tourney.state.${s.state}`))] : ''),
      h('td', { class: 'score' }, decimal(s.points)),
      h('td', {}, decimal(s.bh_c1)), h('td', {}, decimal(s.bh)), h('td', {}, decimal(s.sb)), h('td', {}, num(s.wins))))));
}

function standingsTable(view) {
  if (!view.standings.length) return h('p', { class: 'muted', id: 'tourney-standings' }, t('tourney.nobody'));
  if (view.tournament.kind === 'swiss') return swissTable(view);
  return h('table', { id: 'tourney-standings' },
    h('caption', { class: 'sr-only' }, t('tourney.standings')),
    h('thead', {}, h('tr', {}, ['rank', 'player', 'score', 'games', 'sheet'].map((c) => h('th', { scope: 'col' }, t(`tourney.col.${c}`))))),
    h('tbody', {}, view.standings.map((s) => h('tr', { 'data-name': s.name },
      h('td', {}, num(s.rank)),
      h('td', {}, s.id ? h('a', { href: `#/player/${s.id}` }, s.name) : s.name, ' ', h('span', { class: 'muted' }, num(s.rating)),
        s.fire ? [' ', h('span', { class: 'fire', title: t('tourney.fire') }, '🔥', h('span', { class: 'sr-only' }, t('tourney.fire')))] : '',
        s.state !== 'active' ? [' ', h('span', { class: 'muted' }, t(`tourney.state.${s.state}`))] : ''),
      h('td', { class: 'score' }, num(s.score)),
      h('td', {}, num(s.games)),
      h('td', { class: 'sheet' }, s.sheet.map(([p, fire]) => h('span', { class: fire ? 'on-fire' : '' }, num(p), ' ')))))));
}

function gamesList(view) {
  if (!view.games.length) return h('p', { class: 'muted', id: 'tourney-games' }, t('tourney.games.none'));
  return h('ul', { id: 'tourney-games' }, view.games.map((g) => h('li', {},
    view.tournament.kind === 'swiss' ? `${t('tourney.round', { r: g.round, n: view.tournament.rounds })} · ` : '',
    h('a', { href: `#/game/${g.id}` }, `${g.white.name} – ${g.black.name}`), ' · ',
    g.result ? t(`tourney.result.${g.result}`) : t('tourney.result.on'),
    g.result && !g.counts ? [' ', h('span', { class: 'muted' }, t('tourney.uncounted'))] : '')));
}

export async function showTournament(app, id) {
  let view = await getTournament(id);
  const root = h('div', { class: 'narrow tourney-page' });
  const msg = h('div', { 'aria-live': 'polite', id: 'tourney-msg' });
  const news = h('p', { class: 'sr-only', 'aria-live': 'assertive', id: 'tourney-news' });
  const clock = h('p', { id: 'tourney-countdown', role: 'timer', 'aria-live': 'off' });
  const act = async (fn) => {
    msg.replaceChildren();
    try { const before = view; view = await fn(); render(); announce(before); } catch (err) { msg.replaceChildren(errorBox(err)); }
  };
  function announce(before) {
    const g = newGame(before, view);
    if (!g) return;
    playSound('start');
    news.textContent = t('tourney.your.new');
  }
  function tickClock() {
    const target = countdownTarget(view);
    if (!target) { clock.textContent = t('tourney.over'); return; }
    const c = countdown(target.at, Date.now() + (view.now - view.fetched));
    const text = `${num(c.h)}:${num(String(c.m).padStart(2, '0'))}:${num(String(c.s).padStart(2, '0'))}`;
    clock.textContent = t(`tourney.countdown.${target.kind}`, { time: text });
  }
  function render() {
    view.fetched = view.fetched || Date.now();
    const tr = view.tournament;
    document.title = `${tr.name} — agora`;
    const items = [h('h1', {}, tr.name),
      h('p', { class: 'muted', id: 'tourney-summary' }, summaryLine(tr), ' · ', t(`tourney.status.${tr.status}`), ' · ', t('tourney.by', { name: tr.creator })),
      clock];
    const can = actions(view);
    const buttons = [];
    if (can.includes('join')) buttons.push(h('form', { id: 'tourney-join', onsubmit: (e) => {
      e.preventDefault();
      act(() => joinTournament(id, e.target.name.value.trim()));
    } }, h('label', { for: 'tourney-join-name' }, t('people.name')), ' ',
      h('input', { id: 'tourney-join-name', name: 'name', required: true, maxlength: 40, value: visitor().name || '' }), ' ',
      h('button', { type: 'submit', class: 'primary', id: 'tourney-join-button' }, t(view.me ? 'tourney.back' : 'tourney.join'))));
    if (!view.me && tooLate(tr)) buttons.push(h('p', { id: 'tourney-too-late' }, t('tourney.too.late', { r: tr.round, n: tr.rounds })));
    if (can.includes('pause')) buttons.push(h('button', { type: 'button', id: 'tourney-pause', onclick: () => act(() => pauseTournament(id)) }, t('tourney.pause')));
    if (can.includes('withdraw')) buttons.push(' ', h('button', { type: 'button', id: 'tourney-withdraw', onclick: () => act(() => withdrawTournament(id)) }, t('tourney.withdraw')));
    items.push(h('div', { class: 'tourney-actions' }, ...buttons), msg);
    const mine = view.me && view.me.game;
    if (mine) items.push(h('section', { id: 'tourney-mine', 'aria-labelledby': 'tourney-mine-h' }, h('h2', { id: 'tourney-mine-h' }, t('tourney.your.game')),
      h('p', {}, h('a', { class: 'button primary', id: 'tourney-play', href: `#/game/${mine.id}` }, t('tourney.play', { side: t(`side.${mine.side}`) })), ' ',
        h('button', { type: 'button', id: 'tourney-berserk', onclick: async () => {
          msg.replaceChildren();
          try { await berserk(id, mine.id); msg.replaceChildren(h('p', {}, t('tourney.berserked'))); } catch (err) { msg.replaceChildren(errorBox(err)); }
        } }, t('tourney.berserk')))));
    if (tr.status === 'finished' && view.podium.length) items.push(h('section', { id: 'tourney-podium', 'aria-labelledby': 'tourney-podium-h' },
      h('h2', { id: 'tourney-podium-h' }, t('tourney.podium')),
      h('ol', {}, view.podium.map((p) => h('li', {}, p.name, ' · ', p.points !== undefined ? decimal(p.points) : t('tourney.points', { n: p.score }))))));
    if (tr.kind === 'swiss' && tr.status !== 'upcoming') items.push(h('p', { id: 'tourney-round' }, t('tourney.round', { r: tr.round, n: tr.rounds })));
    items.push(h('h2', {}, t('tourney.standings')), standingsTable(view));
    if (tr.kind === 'swiss') {
      if (view.byes && view.byes.length) items.push(h('h3', {}, t('tourney.byes')), h('ul', { id: 'tourney-byes' }, view.byes.map((b) => h('li', {}, t('tourney.bye', { r: b.round, name: b.name })))));
      items.push(h('p', {}, h('a', { href: `/api/tournaments/${encodeURIComponent(id)}/trf`, id: 'tourney-trf', download: `${tr.name}.trf` }, t('tourney.trf'))));
    }
    items.push(h('h2', {}, t('tourney.games')), gamesList(view));
    items.push(h('details', { open: tr.status !== 'finished' }, h('summary', {}, t('tourney.rules')), rulesList(view)));
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : '';
    root.replaceChildren(...items);
    if (focused) { const x = document.getElementById(focused); if (x && x !== document.activeElement) x.focus(); }
    tickClock();
  }
  async function refresh() {
    const before = view;
    const next = await getTournament(id);
    next.fetched = Date.now();
    view = next;
    render();
    announce(before);
  }
  render();
  app.replaceChildren(root, news);
  const timer = setInterval(tickClock, 1000);
  // Live: the tournament's stream says when something changed; polling, slower, when
  // the browser has no EventSource or the stream breaks.
  const es = tournamentEvents(id);
  if (es) es.addEventListener('tournament', () => { refresh().catch(() => {}); });
  const stopPoll = whileVisible(refresh, es ? REFRESH_MS * 3 : REFRESH_MS);
  return () => { clearInterval(timer); stopPoll(); if (es) es.close(); };
}

// The play page's part for a game between two people (play.js mounts it): both
// players' names and clocks (counting down in the browser from the server's figures),
// the viewer count, the watch link, and the actions between people (draw offers and
// answers, takeback requests, abort, resign, rematch, claiming an abandoned game), and
// for a tournament's game a link back to it, the time left in an arena and who
// berserked (and a Berserk button before one's first move).
// The server decides everything; this only shows its state and sends requests.
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { gameOp } from '../net/people-api.js';
import { rememberGame, tokenOf } from '../net/api.js';
import { lowTime } from '../board/sound.js';
import { berserk, getTournament } from '../net/tournaments-api.js';

/** Time left under which a clock shows red and the player hears a warning. */
const LOW_MS = 10000;

/** m:ss (or h:mm:ss, or days) of a clock's milliseconds, in the page's digits. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return t('people.clock.days', { n: num(Math.floor(s / 86400)), h: num(Math.floor((s % 86400) / 3600)) });
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (v) => num(String(v).padStart(2, '0'));
  return hh ? `${num(hh)}:${two(mm)}:${two(ss)}` : `${num(mm)}:${two(ss)}`;
}

export function peoplePanel(initial, { act, refresh }) {
  let S = initial;
  let base = 0; // performance.now() when S.clock was read
  let confirmResign = false;
  const el = h('section', { class: 'people', id: 'people', 'aria-label': t('people.panel') });
  const clocks = { white: h('span', { class: 'clock', id: 'clock-white', role: 'timer', 'aria-live': 'off' }),
    black: h('span', { class: 'clock', id: 'clock-black', role: 'timer', 'aria-live': 'off' }) };
  const rows = h('div', { class: 'players' });
  const viewers = h('p', { class: 'viewers muted', id: 'viewers', 'aria-live': 'polite' });
  const actions = h('div', { class: 'people-actions', id: 'people-actions' });
  const watch = h('p', { class: 'watch-link' });
  el.append(rows, viewers, actions, watch);

  const me = () => S.you;
  const opp = () => (S.you === 'white' ? 'black' : 'white');
  const left = (side) => {
    const c = S.clock;
    if (!c) return 0;
    const run = c.running === side ? performance.now() - base : 0;
    return c[side] - run;
  };

  let warned = false; // the low-time sound played since the player's clock went under LOW_MS
  // A tournament's game: the tournament's own clock (an arena's end), read once.
  const tourneyClock = h('span', { id: 'tourney-left', role: 'timer', 'aria-live': 'off' });
  let tourney = null; // {id, name, ends (ms, or 0 for a Swiss), skew (server - browser ms)}
  function loadTourney() {
    const tr = S.tournament;
    if (!tr || (tourney && tourney.id === tr.id)) return;
    tourney = { id: tr.id, name: '', ends: 0, skew: 0 };
    getTournament(tr.id).then((v) => {
      tourney = { id: tr.id, name: v.tournament.name, ends: v.tournament.kind === 'arena' ? v.tournament.ends : 0, skew: v.now - Date.now() };
      tick();
    }).catch(() => {});
  }
  function tick() {
    if (tourney && tourney.ends) {
      const left = tourney.ends - (Date.now() + tourney.skew);
      tourneyClock.textContent = left > 0 ? t('tourney.countdown.ends', { time: clockText(left) }) : t('tourney.over');
    }
    for (const side of ['white', 'black']) {
      clocks[side].textContent = S.clock ? clockText(left(side)) : '—';
      clocks[side].classList.toggle('running', !!S.clock && S.clock.running === side);
      clocks[side].classList.toggle('low', !!S.clock && left(side) < LOW_MS);
    }
    // The player's own clock running low: one warning sound each time it goes under.
    const mine = S.clock && S.you ? left(S.you) : Infinity;
    if (mine >= LOW_MS) warned = false;
    else if (!warned && S.clock.running === S.you && mine > 0) {
      warned = true;
      lowTime();
    }
  }
  const timer = setInterval(tick, 250);
  // After the end the event stream is closed: a rematch asked for is seen by polling.
  const poll = setInterval(() => {
    if (S.you && S.status.result !== 'ongoing' && !S.rematch_id && refresh) refresh();
  }, 2000);

  function name(side) {
    const p = (S.players || {})[side] || {};
    const n = p.name || t('side.' + side);
    if (p.rating && p.rating_after) return t('people.rated.change', { name: n, rating: num(p.rating), after: num(p.rating_after) });
    return p.rating ? t('people.rated.name', { name: n, rating: num(p.rating) }) : n;
  }

  // The name links to the player's page when they have one (and do not hide).
  function nameLink(side) {
    const id = ((S.players || {})[side] || {}).id;
    return id ? h('a', { href: `#/player/${id}`, class: 'player-link', 'data-player': side }, name(side)) : name(side);
  }

  function button(id, label, onclick, cls = '') {
    return h('button', { type: 'button', id, class: cls, onclick }, label);
  }

  function renderActions() {
    const items = [];
    const over = S.status.result !== 'ongoing';
    const o = S.offers || {};
    if (!me()) { actions.replaceChildren(); return; }
    if (!over) {
      if (o.draw === opp()) items.push(h('p', { class: 'offer', id: 'draw-offered' }, t('people.draw.offered'), ' ',
        button('draw-accept', t('people.accept'), () => act(() => gameOp(S.id, 'draw', { answer: 'accept' })), 'primary'), ' ',
        button('draw-decline', t('people.decline'), () => act(() => gameOp(S.id, 'draw', { answer: 'decline' })))));
      else if (o.draw === me()) items.push(h('p', { class: 'muted', id: 'draw-sent' }, t('people.draw.sent')));
      else if (!S.can_abort) items.push(button('people-draw', t('play.offerdraw'), () => act(() => gameOp(S.id, 'draw'))));
      if (!S.clock) {
        if (o.takeback === opp()) items.push(h('p', { class: 'offer', id: 'takeback-asked' }, t('people.takeback.asked'), ' ',
          button('takeback-accept', t('people.accept'), () => act(() => gameOp(S.id, 'takeback', { answer: 'accept' })), 'primary'), ' ',
          button('takeback-decline', t('people.decline'), () => act(() => gameOp(S.id, 'takeback', { answer: 'decline' })))));
        else if (S.side_to_move !== me() && S.moves.length) items.push(button('people-takeback', t('people.takeback.ask'), () => act(() => gameOp(S.id, 'takeback'))));
        // Offered only when the server says the opponent is really gone (S.claim_win).
        if (S.side_to_move !== me() && S.claim_win) items.push(button('claim-win', t('people.claimwin'), () => act(() => gameOp(S.id, 'claim-win'))));
      }
      // A tournament's game: berserk (half the clock, no increment) before one's first move.
      const tr = S.tournament;
      const ownFirst = me() === 'white' ? S.moves.length === 0 : S.moves.length <= 1;
      if (tr && S.clock && ownFirst && !tr[`berserk_${me()}`]) items.push(button('people-berserk', t('tourney.berserk'), async () => {
        try { await berserk(tr.id, S.id); } catch { /* the state says whether it took */ }
        if (refresh) refresh();
      }));
      if (S.can_abort) items.push(button('abort', t('people.abort'), () => act(() => gameOp(S.id, 'abort'))));
      if (!confirmResign) items.push(button('people-resign', t('play.resign'), () => { confirmResign = true; renderActions(); }));
      else items.push(h('span', { class: 'confirm' }, t('play.resign.sure'), ' ',
        button('people-resign-yes', t('play.resign.yes'), () => { confirmResign = false; act(() => gameOp(S.id, 'resign')); }, 'danger'), ' ',
        button('people-resign-no', t('play.resign.no'), () => { confirmResign = false; renderActions(); })));
    } else if (S.rematch_id) {
      items.push(h('a', { class: 'button primary', id: 'rematch-go', href: `#/game/${S.rematch_id}` }, t('people.rematch.go')));
    } else if (o.rematch === me()) {
      items.push(h('p', { class: 'muted', id: 'rematch-sent' }, t('people.rematch.sent')));
    } else {
      if (o.rematch === opp()) items.push(h('p', { class: 'offer' }, t('people.rematch.asked')));
      items.push(button('people-rematch', t('play.rematch'), () => act(() => gameOp(S.id, 'rematch')), 'primary'));
    }
    actions.replaceChildren(...items);
  }

  function update(state) {
    S = state;
    base = performance.now();
    // The rematch is played with the same tokens as this game.
    if (S.rematch_id && tokenOf(S.id) && !tokenOf(S.rematch_id)) rememberGame({ id: S.rematch_id, token: tokenOf(S.id), game: S.game });
    const top = (S.you || 'white') === 'white' ? 'black' : 'white';
    const tr = S.tournament; // a tournament's game: who berserked, and a link back
    const berserked = (side) => (tr && tr[`berserk_${side}`] ? [' ', h('span', { class: 'berserk muted', id: `berserk-${side}` }, t('tourney.berserk.mark'))] : []);
    const row = (side) => h('p', { class: 'player ' + side, id: `player-${side}` },
      h('span', { class: 'who' }, nameLink(side), S.you === side ? ` (${t('people.you')})` : ''), ...berserked(side), ' ', clocks[side]);
    // Asked rated, played unrated: the pair's rated games of the day were counted (API.md).
    const capped = S.rated_capped ? [h('p', { class: 'muted', id: 'rated-capped' }, t('people.rated.capped'))] : [];
    loadTourney();
    const back = tr ? [h('p', {}, h('a', { href: `#/tournament/${tr.id}`, id: 'tourney-back' }, t('tourney.back.link')), ' ', tourneyClock)] : [];
    rows.replaceChildren(row(top), row(top === 'white' ? 'black' : 'white'), ...capped, ...back);
    viewers.textContent = t('people.viewers', { n: num(S.viewers || 0) });
    const link = `${location.origin}/#/game/${S.id}`;
    watch.replaceChildren(h('label', { for: 'watch-url' }, t('people.watchlink')), ' ',
      h('input', { id: 'watch-url', readonly: true, value: link, size: 40, onfocus: (e) => e.target.select() }));
    renderActions();
    tick();
    awaitClaim();
  }

  // The opponent away (S.away): look again when the claim becomes available; present,
  // now and then (a page that polled instead of streaming tells no one when it goes).
  let claimTimer = 0;
  function awaitClaim() {
    clearTimeout(claimTimer);
    if (!me() || !refresh || S.status.result !== 'ongoing' || S.side_to_move === me() || S.claim_win) return;
    const away = S.away && S.away.side === opp() ? S.away : null;
    claimTimer = setTimeout(() => refresh(), away ? away.claim_in + 500 : 30000);
  }

  /** An `update` event: offers, viewers and clocks without a move. */
  function onUpdate(data) {
    S = { ...S, clock: data.clock, offers: data.offers, rematch_id: data.rematch_id, viewers: data.viewers,
      away: data.away, claim_win: data.claim_win };
    update(S);
  }

  const title = () => `${name('white')} – ${name('black')}`;
  update(S);
  return { el, update, onUpdate, title, close: () => { clearInterval(timer); clearInterval(poll); clearTimeout(claimTimer); } };
}

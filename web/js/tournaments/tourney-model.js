// A tournament's page logic without DOM (tournaments.js draws it): the countdown's
// parts, what the visitor may do now, and whether a new game of theirs has started.

/** The time left until `at` (ms) from `now` as {h, m, s} (never negative). */
export function countdown(at, now) {
  const left = Math.max(0, Math.round((at - now) / 1000));
  return { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60), s: left % 60 };
}

/** What the countdown counts to: the start while upcoming, an arena's end while running. */
export function countdownTarget(view) {
  const t = view.tournament;
  if (t.status === 'upcoming') return { kind: 'starts', at: t.starts };
  if (t.status === 'running' && t.kind !== 'swiss') return { kind: 'ends', at: t.ends };
  return null; // a running Swiss counts rounds, not time
}

/** Whether a running Swiss is past half its rounds: too late for a newcomer to join
 * (an entrant who paused, withdrew or forfeited still comes back). */
export function tooLate(t) {
  return t.kind === 'swiss' && t.status === 'running' && 2 * t.round > t.rounds;
}

/** The buttons the visitor has: join (or come back), pause, withdraw. */
export function actions(view) {
  const t = view.tournament;
  if (t.status === 'finished') return [];
  const me = view.me;
  if (!me) return tooLate(t) ? [] : ['join'];
  if (me.state !== 'active') return ['join'];
  return ['pause', 'withdraw'];
}

/** The visitor's game that is new since `before` (a view or null): its id, or null. */
export function newGame(before, after) {
  const g = after && after.me && after.me.game;
  if (!g) return null;
  const old = before && before.me && before.me.game;
  return old && old.id === g.id ? null : g.id;
}

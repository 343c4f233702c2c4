// Hearing of a challenge, and keeping a page fresh, without the DOM (unit-tested in
// tests/web-unit/people-watch.test.mjs):
//  - watchChallenge: a challenge's creator hears its accept, withdrawal or expiry from
//    the server's event stream (GET /api/challenges/{id}/events, API.md "People"),
//    and polls the challenge only when the stream cannot be had at all;
//  - whileVisible: run a refresh every few seconds while the page is visible, at once
//    when it becomes visible again, never after stop().

export const challengeEventsUrl = (id) => `/api/challenges/${encodeURIComponent(id)}/events`;

/**
 * Follow challenge `id` until it is no longer open: `onDone(challenge)` once, with the
 * challenge as the server last told it (status accepted with its game_id, cancelled or
 * expired).  `env` supplies EventSource, getChallenge(id) (a promise), setInterval and
 * clearInterval (the browser's by default) and pollMs.  Returns stop().
 */
export function watchChallenge(id, onDone, env = {}) {
  const ES = 'EventSource' in env ? env.EventSource : globalThis.EventSource;
  const getChallenge = env.getChallenge;
  const every = env.setInterval || globalThis.setInterval.bind(globalThis);
  const cancel = env.clearInterval || globalThis.clearInterval.bind(globalThis);
  const pollMs = env.pollMs || 1000;
  let es = null;
  let timer = null;
  let over = false;
  const stop = () => {
    over = true;
    if (es) { es.close(); es = null; }
    if (timer !== null) { cancel(timer); timer = null; }
  };
  const seen = (c) => {
    if (over || !c || c.status === 'open') return;
    stop();
    onDone(c);
  };
  const poll = () => {
    if (over || timer !== null) return;
    timer = every(() => { getChallenge(id).then(seen, () => { /* try again */ }); }, pollMs);
  };
  if (!ES) {
    poll();
    return stop;
  }
  es = new ES(challengeEventsUrl(id));
  es.addEventListener('challenge', (e) => {
    try { seen(JSON.parse(e.data)); } catch { /* not JSON: wait for the next */ }
  });
  // A dropped connection is retried by the EventSource itself (readyState CONNECTING),
  // and the stream tells the status again at once.  CLOSED means it gave up (an answer
  // other than a stream: 429 past the caps, a 404): then poll.
  es.onerror = () => {
    if (over || !es || es.readyState !== 2) return;
    es.close();
    es = null;
    poll();
  };
  return stop;
}

/**
 * Call refresh() every `ms` while `doc` is visible (and once when it becomes visible
 * again), until stop().  One refresh at a time: a slow answer is not overtaken.
 */
export function whileVisible(refresh, ms, env = {}) {
  const doc = env.document || globalThis.document;
  const every = env.setInterval || globalThis.setInterval.bind(globalThis);
  const cancel = env.clearInterval || globalThis.clearInterval.bind(globalThis);
  let busy = false;
  let stopped = false;
  const run = async () => {
    if (stopped || busy || (doc && doc.visibilityState === 'hidden')) return;
    busy = true;
    try { await refresh(); } catch { /* the next turn tries again */ } finally { busy = false; }
  };
  const timer = every(run, ms);
  const onVisible = () => { if (doc.visibilityState === 'visible') run(); };
  if (doc) doc.addEventListener('visibilitychange', onVisible);
  return () => {
    stopped = true;
    cancel(timer);
    if (doc) doc.removeEventListener('visibilitychange', onVisible);
  };
}

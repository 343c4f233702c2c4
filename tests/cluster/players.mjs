// People playing through nginx in front of several agora servers, while one server is
// killed (tests/cluster/kill-one-server starts them; issue 26, item 6).
//
//   node tests/cluster/players.mjs BASE_URL GAMES SECONDS KILL_AT_S PID
//
// GAMES games at once, each between two players made as people make one (a challenge,
// its accept).  Each player keeps its game's event stream open (with its seat) and, as
// a page's EventSource does, reconnects with Last-Event-ID when the stream breaks; a
// player whose turn it is reads the state, sends the first legal move, and the other
// waits for that move on its stream.  A move whose request failed (the server died
// under it: nginx answers 502) is looked up in the state and sent again if it is not
// there.  At KILL_AT_S seconds the process PID gets SIGKILL.  At the end, checked:
//  - every acknowledged move (a 200) is in its game's stored moves, at its ply;
//  - every player's stream delivered each of the game's moves once, in order (ids
//    1..ply with no gap or repeat, across its reconnects);
//  - every game went on after the kill (moves acknowledged after it), so the players
//    whose streams and connections were on the killed server went over to the other;
//  - some stream did break and reconnect (the kill did hit players).
// Prints the numbers, then "N passed, N failed".

const [base, gamesArg, secondsArg, killArg, pidArg] = process.argv.slice(2);
const GAMES = Number(gamesArg || 10);
const SECONDS = Number(secondsArg || 12);
const KILL_AT = Number(killArg || 4);
const PID = Number(pidArg || 0);
const PAUSE_MS = 60;
const HEAR_TIMEOUT_MS = 15000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const elapsed = () => (Date.now() - t0) / 1000;
let killedAt = null;
let passed = 0;
let failed = 0;
const failures = [];
const fail = (what) => {
  failed++;
  if (failures.length < 30) failures.push(what);
};
const stats = { staleReads: 0, acked: 0, retried: 0, failedRequests: 0, reconnects: 0, ackedAfterKill: 0 };

async function call(method, path, token, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10000),
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, json, text };
  } catch (e) {
    return { status: 0, json: null, text: String(e) };
  }
}

// A player's event stream: reconnects as EventSource does, remembering the last id.
class Stream {
  constructor(gameId, seat, label) {
    this.url = `${base}/api/games/${gameId}/events?seat=${encodeURIComponent(seat)}`;
    this.label = label;
    this.lastId = 0;
    this.heard = []; // move events' ids, in the order delivered
    this.moves = new Map(); // ply -> move
    this.ended = false;
    this.closed = false;
    this.waiters = [];
    this.controller = null;
    this.run();
  }

  async run() {
    let first = true;
    while (!this.closed && !this.ended) {
      if (!first) {
        stats.reconnects++;
        await sleep(100);
      }
      first = false;
      this.controller = new AbortController();
      const headers = { Accept: 'text/event-stream' };
      if (this.lastId > 0) headers['Last-Event-ID'] = String(this.lastId);
      try {
        const res = await fetch(this.url, { headers, signal: this.controller.signal });
        if (res.status !== 200) {
          await res.text().catch(() => {});
          continue;
        }
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += decoder.decode(value, { stream: true });
          let cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            this.event(buf.slice(0, cut));
            buf = buf.slice(cut + 2);
          }
        }
      } catch {
        // broken (the server died, or closed by us): reconnect unless closed
      }
    }
  }

  event(block) {
    let id = null;
    let type = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = Number(line.slice(4));
      else if (line.startsWith('event: ')) type = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (id !== null) this.lastId = id;
    if (type === 'move') {
      const d = JSON.parse(data);
      this.heard.push(d.ply);
      this.moves.set(d.ply, d.move);
    } else if (type === 'end') {
      this.ended = true;
    }
    this.waiters = this.waiters.filter((w) => !w());
  }

  // Resolves true when the move event of `ply` has come, false after the timeout.
  hear(ply) {
    return new Promise((resolve) => {
      const check = () => {
        if (this.moves.has(ply)) {
          resolve(true);
          return true;
        }
        return false;
      };
      if (check()) return;
      this.waiters.push(check);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve(this.moves.has(ply));
      }, HEAR_TIMEOUT_MS);
    });
  }

  close() {
    this.closed = true;
    if (this.controller) this.controller.abort();
  }
}

const games = []; // {id, acked: Map ply -> move, streams: [Stream, Stream], tokens}

async function newGame(n) {
  const a = await call('POST', '/api/challenges', null, {
    game: 'chess',
    clock: { initial: 1800, increment: 0 },
    side: 'white',
    name: `Kill A${n}`,
  });
  if (a.status !== 201) return null;
  const b = await call('POST', `/api/challenges/${a.json.id}/accept`, null, { name: `Kill B${n}` });
  if (b.status !== 200) return null;
  const id = b.json.id;
  const s0 = await call('GET', `/api/games/${id}`, a.json.token);
  if (s0.status !== 200) return null;
  const g = {
    id,
    tokens: [a.json.token, b.json.token],
    n,
    acked: new Map(),
    over: false,
  };
  g.streams = [new Stream(id, s0.json.seat, `${id}/white`), new Stream(id, b.json.seat, `${id}/black`)];
  games.push(g);
  return g;
}

// One move by the player to move at `ply` (0-based count of moves made): true when the
// game holds a move at ply + 1 afterwards (ours acknowledged, or found stored).
async function move(g, ply) {
  const me = ply % 2;
  for (let attempt = 0; elapsed() < SECONDS + 20; attempt++) {
    if (attempt > 0) {
      stats.retried++;
      await sleep(150);
    }
    const st = await call('GET', `/api/games/${g.id}`, g.tokens[me]);
    if (st.status !== 200) {
      stats.failedRequests++;
      continue;
    }
    if (st.json.ply > ply) return true; // our earlier try was stored after all
    if (st.json.status && st.json.status.over) {
      g.over = true;
      return false;
    }
    if (st.json.ply < ply) {
      // A server that has not yet heard the last move from the other (the outbox's
      // delay, deploy/README.md): read again.
      stats.staleReads++;
      continue;
    }
    const legal = st.json.legal_moves || [];
    if (!legal.length) {
      g.over = true;
      return false;
    }
    const mv = legal[0].move;
    const r = await call('POST', `/api/games/${g.id}/moves`, g.tokens[me], { move: mv });
    if (r.status === 200) {
      g.acked.set(ply + 1, mv);
      stats.acked++;
      if (killedAt !== null) {
        stats.ackedAfterKill++;
        g.afterKill = (g.afterKill || 0) + 1;
      }
      if (r.json && r.json.status && r.json.status.over) g.over = true;
      return true;
    }
    stats.failedRequests++; // 502 (the server died under it), 409 (a stale cache): look again
  }
  fail(`${g.id}: no move at ply ${ply + 1} in time`);
  return false;
}

async function play(n) {
  let g = await newGame(n);
  while (!g && elapsed() < SECONDS) {
    stats.failedRequests++;
    await sleep(200);
    g = await newGame(n);
  }
  if (!g) {
    fail(`game ${n}: never made`);
    return;
  }
  let ply = 0;
  while (elapsed() < SECONDS) {
    if (g.over) {
      g = await newGame(n);
      ply = 0;
      if (!g) return fail(`game ${n}: a new game not made`);
    }
    await sleep(Math.random() * 2 * PAUSE_MS);
    if (!(await move(g, ply))) continue;
    ply++;
    const other = g.streams[ply % 2];
    if (!(await other.hear(ply))) {
      fail(`${g.id}: ${other.label} did not hear ply ${ply} in ${HEAR_TIMEOUT_MS / 1000} s`);
      return;
    }
  }
}

async function main() {
  const killer = (async () => {
    await sleep(KILL_AT * 1000);
    if (PID > 0) {
      process.kill(PID, 'SIGKILL');
      killedAt = elapsed();
      console.log(`killed server pid ${PID} at ${killedAt.toFixed(1)} s`);
    }
  })();
  await Promise.all([killer, ...Array.from({ length: GAMES }, (_, i) => play(i))]);

  // Let the streams catch up with the last moves, then check.
  await sleep(1500);
  let stored = 0;
  for (const g of games) {
    const top = Math.max(0, ...g.acked.keys());
    let st = await call('GET', `/api/games/${g.id}`, g.tokens[0]);
    for (let i = 0; i < 10 && st.status === 200 && st.json.ply < top; i++) {
      stats.staleReads++; // as above: a server a little behind; read again
      await sleep(300);
      st = await call('GET', `/api/games/${g.id}`, g.tokens[0]);
    }
    if (st.status !== 200) {
      fail(`${g.id}: the final state did not come (${st.status})`);
      continue;
    }
    const moves = new Map((st.json.moves || []).map((m) => [m.ply, m.move]));
    stored += moves.size;
    let lost = 0;
    for (const [ply, mv] of g.acked) if (moves.get(ply) !== mv) lost++;
    if (lost) fail(`${g.id}: ${lost} acknowledged moves lost`);
    else passed++;
    for (const s of g.streams) {
      const want = Array.from({ length: st.json.ply }, (_, i) => i + 1);
      const got = s.heard.slice(0, want.length);
      if (s.heard.length !== want.length || got.some((p, i) => p !== want[i]))
        fail(`${s.label}: stream heard plies [${s.heard.join(',')}], the game has ${st.json.ply}`);
      else passed++;
      s.close();
    }
  }
  if (PID > 0) {
    if (killedAt === null) fail('the server was not killed');
    if (stats.ackedAfterKill === 0) fail('no move acknowledged after the kill');
    else passed++;
    if (stats.reconnects === 0) fail('no stream reconnected: the kill hit no player');
    else passed++;
    // Every player went on after the kill: the last game of each pair of players
    // has moves acknowledged after it (or began after it).
    const last = new Map();
    for (const g of games) last.set(g.n, g);
    for (const g of last.values()) {
      if (!g.afterKill) fail(`${g.id}: no move acknowledged after the kill`);
      else passed++;
    }
  }
  console.log(
    `games ${games.length}, moves acknowledged ${stats.acked} (${stats.ackedAfterKill} after the kill), ` +
      `stored ${stored}, requests failed and retried ${stats.failedRequests}, stream reconnects ${stats.reconnects}, ` +
      `stale reads ${stats.staleReads}`,
  );
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();

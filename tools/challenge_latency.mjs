// tools/challenge-latency: ROUNDS challenges, each created, its event stream opened (its
// first event: open), then accepted; the time from sending the accept to the creator's
// stream telling "accepted".  node tools/challenge_latency.mjs BASE_URL [ROUNDS]
const base = process.argv[2];
const N = Number(process.argv[3] || 50);
const body = JSON.stringify({ game: 'chess', clock: { initial: 180, increment: 2 }, side: 'white', name: 'Ann' });
const lat = [];
for (let i = 0; i < N; i++) {
  const c = await (await fetch(`${base}/api/challenges`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })).json();
  const res = await fetch(`${base}/api/challenges/${c.id}/events`);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  // The time the next event holding `want` arrives (other events and pings skipped).
  const next = async (want) => {
    for (;;) {
      const m = buf.indexOf('\n\n');
      if (m >= 0) {
        const ev = buf.slice(0, m);
        buf = buf.slice(m + 2);
        if (ev.includes(want)) return performance.now();
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before ${want}`);
      buf += dec.decode(value);
    }
  };
  await next('"status":"open"');
  const got = next('"status":"accepted"');
  const t0 = performance.now();
  const r = await fetch(`${base}/api/challenges/${c.id}/accept`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Bob' }) });
  await r.json();
  const t1 = await got;
  lat.push(t1 - t0);
  reader.cancel();
}
lat.sort((a, b) => a - b);
const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(2);
console.log(`rounds ${N}: accept sent -> creator's event: p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${lat[lat.length - 1].toFixed(2)} ms`);

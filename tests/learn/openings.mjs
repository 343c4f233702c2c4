// Every opening name the server reads (GET /api/openings/chess: Debian's pgn-extract
// eco.pgn) is checked through the API: its record's moves are legal (POST
// /api/positions reads them), they reach the position the name is listed with, and
// that position, asked for with "book": true, is named by it (or by an earlier line
// reaching the same position).  Book moves come with weights and are legal moves.
// Starts `./agora serve` (tests/e2e/browser.mjs) unless AGORA_URL names a running one.
if (!process.env.AGORA_URL) process.env.AGORA_SERVE = '1';
const { startServer } = await import('../e2e/browser.mjs');
const srv = await startServer();
let passed = 0, failed = 0;
const check = (name, ok, detail = '') => {
  if (ok) passed++;
  else failed++;
  if (!ok || process.env.VERBOSE) console.log(`${ok ? 'ok' : 'FAIL'} ${name}${ok || !detail ? '' : ': ' + detail}`);
};
const post = async (body) => {
  const res = await fetch(srv.url + '/api/positions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, data: await res.json() };
};

try {
  const res = await fetch(srv.url + '/api/openings/chess');
  const list = await res.json();
  check('GET /api/openings/chess lists the names', res.status === 200 && list.count === list.names.length && list.count > 1000, `${res.status} ${list.count}`);
  const firstAt = new Map(); // position -> names of the lines reaching it, in file order
  for (const n of list.names) firstAt.set(n.position, [...(firstAt.get(n.position) || []), n.name]);
  let bad = 0;
  for (const n of list.names) {
    const read = await post({ game: 'chess', record: n.record });
    if (read.status !== 200) {
      bad++;
      check(`${n.code} ${n.name}: its moves are legal`, false, read.data.error);
      continue;
    }
    const moves = read.data.moves.map((m) => m.move);
    const at = await post({ game: 'chess', moves, book: true });
    const ok = at.status === 200 && at.data.position === n.position && moves.length === n.plies &&
      at.data.book.name && at.data.book.name.ply === moves.length && firstAt.get(n.position).includes(at.data.book.name.name);
    if (!ok) bad++;
    check(`${n.code} ${n.name}: reaches its position and is named there`, ok, JSON.stringify(at.data.book?.name || at.data.error));
  }
  check(`all ${list.count} names: legal, reaching their positions, named there`, bad === 0, `${bad} bad`);
  // The start: book moves with weights, each a legal move; a transposition keeps a name.
  const start = await post({ game: 'chess', moves: [], book: true });
  const legal = new Set(start.data.legal_moves.map((m) => m.move));
  check('the start: book moves with positive weights, all legal', start.data.book.moves.length > 3 && start.data.book.moves.every((m) => legal.has(m.move) && m.weight > 0 && m.display));
  check('the start has no name', start.data.book.name === null);
  const deep = await post({ game: 'chess', moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5', 'a2a3', 'a7a6'], book: true });
  check('out of the named lines, the last name on the way stays', deep.data.book.name && deep.data.book.name.ply === 6 && /Giuoco Piano/i.test(deep.data.book.name.name), JSON.stringify(deep.data.book.name));
  const other = await post({ game: 'agon', moves: [], book: true });
  check('a game without a book: no moves, no name', other.status === 200 && other.data.book.moves.length === 0 && other.data.book.name === null);
  const none = await fetch(srv.url + '/api/openings/agon');
  check('GET /api/openings/agon: 404 (no names)', none.status === 404 && (await none.json()).error);
  const unknown = await fetch(srv.url + '/api/openings/nope');
  check('GET /api/openings/nope: 404', unknown.status === 404);
  const wrong = await fetch(srv.url + '/api/openings/chess', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  check('POST /api/openings/chess: 405', wrong.status === 405);
} catch (err) {
  check('the openings walk', false, err.message);
} finally {
  srv.stop();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

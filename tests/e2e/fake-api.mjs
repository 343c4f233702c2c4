// TEST DOUBLE of the agora server API (issue 6), for the browser tests until the real
// `agora serve` lands.  It serves web/ and answers /api/games... from hand-written
// fixtures (tests/e2e/fixtures/*.json): each fixture is a small graph of game states,
// the human's moves that lead from one to the next, and the computer's replies.  It
// knows no game rules; it only expands the fixtures' short forms into the contract's
// JSON shape (legal move objects, board, pieces) and plays the scripted replies.
//
//   node tests/e2e/fake-api.mjs [--port N] [--style server]   prints "listening on PORT"
//
// Two shapes of the same API: by default the contract (the state carries the
// layout as `board`, a `pieces` map, moves with `san`, results "white wins", and each
// event is a whole state); with --style server the shape of src/server/API.md on the
// server branch (`board` one letter per layout cell with the layout in GET
// /api/catalog, `captured_pieces`, moves with `display`, results "white-wins", events
// `move` carrying one move and a final `end`).
//
// Fixture form:
//   {"name", "game", "human_side", "level", "position" (start text; picked by POST
//    {"position"}), "default": true (picked when POST has no position),
//    "reply_via_sse": ms (POST answers after the human's move; the reply follows by SSE),
//    "opening": {"move","san","next"} (the computer's first move when it starts),
//    "draw_accept": false,
//    "states": {KEY: {"position", "legal": ["e2e4" | {"move", ...overrides}],
//                     "status": {...}, "claims": [...]}},
//    "moves": [{"at": KEY, "move", "san", "mid": KEY?, "reply", "reply_san", "next": KEY}]}
import { createServer } from 'node:http';
import { readFileSync, readdirSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join, dirname, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';

const here = dirname(fileURLToPath(import.meta.url));
const SERVER_STYLE = process.argv.includes('--style') && process.argv[process.argv.indexOf('--style') + 1] === 'server';
const webRoot = join(here, '..', '..', 'web');
const fixtures = readdirSync(join(here, 'fixtures')).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(here, 'fixtures', f), 'utf8')));
const boards = {};
for (const g of ['chess', 'agon', 'egara-guti']) boards[g] = JSON.parse(readFileSync(join(webRoot, 'boards', g + '.json'), 'utf8'));

// ---- position text -> pieces (the formats of the rule books; FEN for chess)
function piecesOf(game, text) {
  const out = {};
  const [body] = text.split(' ');
  if (game === 'chess') {
    body.split('/').forEach((row, i) => {
      let f = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) f += Number(ch);
        else out['abcdefgh'[f++] + (8 - i)] = { piece: ch, captured: false };
      }
    });
  } else if (game === 'agon') {
    body.split('/').forEach((file, x) => {
      let rank = 1;
      const re = /(\d+)|([QGqg])(\*?)/g;
      let m;
      while ((m = re.exec(file))) {
        if (m[1]) rank += Number(m[1]);
        else out['abcdefghikl'[x] + rank++] = { piece: m[2], captured: m[3] === '*' };
      }
    });
  } else {
    const ranks = [['a7', 'b7', 'd7', 'f7', 'g7'], ['b6', 'd6', 'f6'], ['c5', 'd5', 'e5'], ['d4'], ['c3', 'd3', 'e3'], ['b2', 'd2', 'f2'], ['a1', 'b1', 'd1', 'f1', 'g1']];
    body.split('/').forEach((row, i) => {
      let k = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) k += Number(ch);
        else out[ranks[i][k++]] = { piece: ch, captured: false };
      }
    });
  }
  return out;
}

function cellsIn(text, board) {
  const names = board.cells.map((c) => c.name).sort((a, b) => b.length - a.length);
  const out = [];
  for (let i = 0; i < text.length;) {
    const hit = names.find((n) => text.startsWith(n, i));
    if (hit) { out.push(hit); i += hit.length; } else i++;
  }
  return out;
}

// The point between two landing points of a jump: joined to both by lines, in line.
function between(board, a, b) {
  const idx = (n) => board.cells.findIndex((c) => c.name === n);
  const ia = idx(a), ib = idx(b);
  const adj = (i) => new Set((board.edges || []).flatMap(([p, q]) => (p === i ? [q] : q === i ? [p] : [])));
  const A = board.cells[ia], B = board.cells[ib];
  for (const k of adj(ia)) {
    if (!adj(ib).has(k)) continue;
    const C = board.cells[k];
    if (Math.abs((C.x - A.x) * (B.y - A.y) - (C.y - A.y) * (B.x - A.x)) < 1e-6) return C.name;
  }
  return null;
}

function expandMove(game, board, pieces, entry) {
  const o = typeof entry === 'string' ? { move: entry } : { ...entry };
  const cells = cellsIn(o.move, board);
  const m = { move: o.move, from: cells[0], to: cells[cells.length - 1], path: cells.slice(1), captured: [], flags: [] };
  if (game === 'chess') {
    const promo = o.move.length === 5 ? o.move[4] : null;
    if (promo) { m.flags.push('promotion'); m.promotion = promo; }
    if (pieces[m.to]) { m.flags.push('capture'); m.captured = [m.to]; }
  } else if (o.move.includes('@')) {
    m.flags.push('return');
  } else if (game === 'egara-guti' && o.move.includes('x')) {
    m.flags.push('capture');
    if (m.path.length > 1) m.flags.push('chain');
    m.captured = cells.slice(1).map((c, i) => between(board, cells[i], c));
  }
  for (const [k, v] of Object.entries(o)) if (k !== 'move') m[k] = v;
  if (o.captured && o.captured.length && !m.flags.includes('capture')) m.flags.push('capture');
  return m;
}

// ---- games, kept in a file when --state FILE is given so that a restarted double
// (the "server restart" test) finds them again
const games = new Map();
const now = () => new Date().toISOString();
const stateArg = process.argv.indexOf('--state');
const stateFile = stateArg > 0 ? process.argv[stateArg + 1] : null;

function save() {
  if (!stateFile) return;
  const rows = [...games.values()].map(({ fixture, listeners, thinking, ...g }) => ({ ...g, fixture: fixture.name }));
  writeFileSync(stateFile, JSON.stringify(rows));
}

if (stateFile && existsSync(stateFile)) {
  for (const row of JSON.parse(readFileSync(stateFile, 'utf8'))) {
    const fixture = fixtures.find((f) => f.name === row.fixture);
    if (fixture) games.set(row.id, { ...row, fixture, listeners: new Set(), thinking: null });
  }
}

function stateJson(g) {
  const f = g.fixture;
  const st = f.states[g.at];
  const side = st.position.split(' ')[1] === 'w' ? 'white' : 'black';
  const pieces = piecesOf(f.game, st.position);
  const status = g.status || st.status || { result: 'ongoing', reason: 'none' };
  const board = boards[f.game];
  return {
    id: g.id, game: f.game, level: g.level, human_side: g.human_side, position: st.position, side_to_move: side,
    moves: g.moves, legal_moves: status.result === 'ongoing' ? (st.legal || []).map((e) => expandMove(f.game, board, pieces, e)) : [],
    status, claims: status.result === 'ongoing' ? st.claims || [] : [], created: g.created, updated: g.updated, board, pieces,
  };
}

// The state in the shape of src/server/API.md.
function serverShape(st) {
  const over = st.status.result !== 'ongoing';
  const status = { over, result: st.status.result.replace(' ', '-'), reason: st.status.reason, text: st.status.reason };
  if (st.status.result.endsWith('wins')) status.winner = st.status.result.split(' ')[0];
  const { pieces, board, ...rest } = st;
  return {
    ...rest, title: st.game, ply: st.moves.length, start_position: null,
    board: board.cells.map((c) => (pieces[c.name] ? pieces[c.name].piece : '')),
    captured_pieces: Object.keys(pieces).filter((c) => pieces[c].captured),
    moves: st.moves.map((m, i) => ({ ply: i + 1, move: m.move, display: m.san })),
    legal_moves: st.legal_moves.map((m) => ({ ...m, display: m.move })),
    your_turn: !over && st.side_to_move === st.human_side, thinking: false, status,
  };
}

function out(g) {
  const st = stateJson(g);
  return SERVER_STYLE ? serverShape(st) : st;
}

function push(g) {
  g.updated = now();
  save();
  if (!SERVER_STYLE) {
    const data = JSON.stringify(stateJson(g));
    for (const res of g.listeners) res.write(`id: ${g.moves.length}\ndata: ${data}\n\n`);
    return;
  }
  const st = serverShape(stateJson(g));
  const last = st.moves[st.moves.length - 1];
  for (const res of g.listeners) {
    if (last && res.sent < last.ply) {
      res.write(`id: ${last.ply}\nevent: move\ndata: ${JSON.stringify({ ...last, side: last.ply % 2 ? 'white' : 'black', last: true, status: st.status })}\n\n`);
      res.sent = last.ply;
    }
    if (st.status.over) {
      res.end(`event: end\ndata: ${JSON.stringify({ status: st.status })}\n\n`);
      g.listeners.delete(res);
    }
  }
}

function computerMove(g, move, san, next, delay) {
  g.thinking = setTimeout(() => {
    g.thinking = null;
    g.moves.push({ move, san });
    g.at = next;
    push(g);
  }, delay);
}

function send(res, code, body, type = 'application/json') {
  res.writeHead(code, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(type === 'application/json' ? JSON.stringify(body) : body);
}

function readBody(req) {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => resolve(s));
  });
}

async function api(req, res, parts) {
  if (req.method === 'POST' && parts.length === 0) {
    let body;
    try { body = JSON.parse(await readBody(req)); } catch { return send(res, 400, { error: 'bad JSON' }); }
    if (!['agon', 'egara-guti', 'chess'].includes(body.game)) return send(res, 400, { error: 'unknown game' });
    if (!(body.level >= 1 && body.level <= 8)) return send(res, 400, { error: 'level must be 1..8' });
    const side = body.side === 'random' ? 'white' : body.side;
    if (!['white', 'black'].includes(side)) return send(res, 400, { error: 'side must be white, black or random' });
    const f = body.position
      ? fixtures.find((x) => x.game === body.game && x.position === body.position)
      : fixtures.find((x) => x.game === body.game && x.default && x.human_side === side) || fixtures.find((x) => x.game === body.game && x.default);
    if (!f) return send(res, 400, { error: 'test double: no fixture for this position' });
    const g = { id: randomBytes(8).toString('hex'), token: randomBytes(16).toString('hex'), fixture: f, at: f.start || 'start', moves: [], human_side: f.human_side, level: body.level, created: now(), updated: now(), listeners: new Set() };
    games.set(g.id, g);
    save();
    if (f.opening) computerMove(g, f.opening.move, f.opening.san, f.opening.next, f.opening.delay || 500);
    return send(res, 201, { ...out(g), token: g.token });
  }
  const g = games.get(parts[0]);
  if (!g) return send(res, 404, { error: 'no such game' });
  const action = parts[1];
  if (req.method === 'GET' && !action) return send(res, 200, out(g));
  if (req.method === 'GET' && action === 'events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': agora test double\n\n');
    res.sent = Number(req.headers['last-event-id'] || g.moves.length);
    g.listeners.add(res);
    req.on('close', () => g.listeners.delete(res));
    return;
  }
  if (req.method === 'GET' && action === 'record') {
    if (g.fixture.game === 'chess') {
      const sans = g.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + m.san).join(' ');
      return send(res, 200, `[Event "agora"]\n[White "?"]\n[Black "?"]\n[Result "*"]\n\n${sans} *\n`, 'application/x-chess-pgn');
    }
    return send(res, 200, g.moves.map((m) => m.move).join('\n') + '\n', 'text/plain; charset=utf-8');
  }
  if (req.method !== 'POST') return send(res, 404, { error: 'not found' });
  if (req.headers.authorization !== `Bearer ${g.token}`) return send(res, 403, { error: 'wrong or missing token' });
  const st = stateJson(g);
  if (st.status.result !== 'ongoing') return send(res, 409, { error: 'the game is over' });
  let body = {};
  try { body = JSON.parse((await readBody(req)) || '{}'); } catch { return send(res, 400, { error: 'bad JSON' }); }
  if (action === 'resign') {
    g.status = { result: g.human_side === 'white' ? 'black wins' : 'white wins', reason: 'resignation' };
    push(g);
    return send(res, 200, out(g));
  }
  if (action === 'draw') {
    if (g.fixture.draw_accept) { g.status = { result: 'draw', reason: 'agreement' }; push(g); }
    return send(res, 200, SERVER_STYLE ? { ...out(g), draw: g.fixture.draw_accept ? 'accepted' : 'declined' } : out(g));
  }
  if (action === 'claim') {
    if (!st.claims.length) return send(res, 409, { error: 'no draw claim available' });
    g.status = { result: 'draw', reason: st.claims[0] === 'threefold' ? 'threefold-claim' : 'fifty-move-claim' };
    push(g);
    return send(res, 200, out(g));
  }
  if (action === 'moves') {
    if (st.side_to_move !== g.human_side || g.thinking) return send(res, 409, { error: 'not your turn' });
    if (!st.legal_moves.some((m) => m.move === body.move)) return send(res, 400, { error: `illegal move: ${body.move}` });
    const step = g.fixture.moves.find((m) => m.at === g.at && m.move === body.move);
    if (!step) return send(res, 400, { error: `test double: no continuation after ${body.move}` });
    g.moves.push({ move: step.move, san: step.san });
    if (step.reply && g.fixture.reply_via_sse && step.mid) {
      g.at = step.mid;
      push(g);
      computerMove(g, step.reply, step.reply_san, step.next, g.fixture.reply_via_sse);
      return send(res, 200, out(g));
    }
    if (step.reply) g.moves.push({ move: step.reply, san: step.reply_san });
    g.at = step.next;
    push(g);
    return send(res, 200, out(g));
  }
  return send(res, 404, { error: 'not found' });
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/api/catalog' && SERVER_STYLE)
    return send(res, 200, { games: Object.entries(boards).map(([name, layout]) => ({ name, title: name, aliases: name === 'egara-guti' ? ['egara'] : [], start_position: null, layout, level_min: 1, level_max: 8 })) });
  if (url.pathname.startsWith('/api/games')) {
    const parts = url.pathname.slice('/api/games'.length).split('/').filter(Boolean);
    try { return await api(req, res, parts); } catch (err) { return send(res, 500, { error: String(err) }); }
  }
  let path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
  if (path.endsWith('/')) path += 'index.html';
  const file = join(webRoot, path);
  if (!file.startsWith(webRoot) || !existsSync(file) || !statSync(file).isFile()) return send(res, 404, { error: 'not found' });
  res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
  res.end(readFileSync(file));
});

// Started by the test runner with a pipe on stdin: when the runner dies, so does this.
if (process.argv.includes('--exit-with-parent')) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
process.on('SIGTERM', () => { server.close(); server.closeAllConnections(); process.exit(0); });
const portArg = process.argv.indexOf('--port');
server.listen(portArg > 0 ? Number(process.argv[portArg + 1]) : 0, '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`);
});

// TEST DOUBLE of the agora server API, for the browser tests: it speaks exactly the
// shape of src/server/API.md, serves web/, and answers /api/games... from hand-written
// fixtures (tests/e2e/fixtures/*.json): each fixture is a small graph of game states,
// the human's moves that lead from one to the next, and the computer's replies.  It
// knows no game rules; it only expands the fixtures' short forms into API.md's JSON
// (legal move objects, one letter per layout cell) and plays the scripted replies.
// GET /api/catalog, and so every board's geometry, is the real server's: at start the
// double runs `agora serve` (AGORA_BIN, else ./agora) on a free port for a moment and
// keeps its catalogue.
//
//   node tests/e2e/fake-api.mjs [--port N] [--state FILE]   prints "listening on PORT"
//
// Fixture form:
//   {"name", "game", "human_side", "level", "position" (start text; picked by POST
//    {"position"}), "default": true (picked when POST has no position),
//    "reply_via_sse": ms (POST answers after the human's move; the reply follows by SSE),
//    "opening": {"move","display","next"} (the computer's first move when it starts),
//    "draw_accept": false,
//    "states": {KEY: {"position", "legal": ["e2e4" | {"move", ...overrides}],
//                     "status": {"result", "reason"}, "claims": [...]}},
//    "moves": [{"at": KEY, "move", "display", "mid": KEY?, "reply", "reply_display", "next": KEY,
//               "reply_desc": {...}?  (overrides of the reply's last_move: captured, taken, flags)}]}
// The state's last_move is the move's expanded form (as legal moves are) in the state
// before it, with its side, piece and the letters on its captured cells.
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join, dirname, extname, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const webRoot = join(root, 'web');
const fixtures = readdirSync(join(here, 'fixtures')).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(here, 'fixtures', f), 'utf8')));
// The analysis board's fixtures (fixtures/analysis/GAME.json): positions by the moves
// that lead to them from the fixture's start ("" is the start, "e2e4 e7e5" two plies
// on), each with its position text and legal moves (from `agora moves`), the engine's
// lines by the same keys, and scripted reviews by a game's moves:
//   {"game", "position", "positions": {KEY: {"position", "legal": [...]}},
//    "lines": {KEY: [{"multipv", "score", "mate", "win", "pv", "pv_display"}]},
//    "reviews": [{"moves": "e2e4 e7e5 ...", "accuracy", "plies": [...]}]}
const analysisFixtures = readdirSync(join(here, 'fixtures', 'analysis')).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(here, 'fixtures', 'analysis', f), 'utf8')));

// ---- the catalogue, from the real server
function realCatalog() {
  const bin = resolve(root, process.env.AGORA_BIN || 'agora');
  if (!existsSync(bin)) throw new Error(`${bin} is missing (make agora): the test double serves its catalogue`);
  return new Promise((done, fail) => {
    const child = spawn(bin, ['serve', '--port', '0', '--db', ':memory:', '--book', 'none', '--threads', '1', '--workers', '1', '--analysis-engine', 'none'],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => { child.kill('SIGKILL'); fail(new Error('agora serve did not start')); }, 15000);
    let out = '';
    let asked = false;
    child.on('exit', (code) => { clearTimeout(timer); if (code) fail(new Error(`agora serve exited with ${code}`)); });
    child.stdout.on('data', async (d) => {
      out += d;
      const m = out.match(/serving on (http:\/\/[^/\s]+\/)/);
      if (!m || asked) return;
      asked = true;
      try {
        const res = await fetch(m[1] + 'api/catalog');
        if (!res.ok) throw new Error(`GET /api/catalog: ${res.status}`);
        done(await res.json());
      } catch (err) {
        fail(err);
      } finally {
        child.kill('SIGTERM');
      }
    });
  });
}
const catalog = await realCatalog();
const entryOf = (game) => catalog.games.find((g) => g.name === game || g.aliases.includes(game));

// ---- position text -> pieces.  Each game's text lists the board's lines in turn, a
// digit skipping that many cells, a letter a piece (Agon: a trailing * marks it
// captured).  Chess and Egara-guti write rows from the top, each left to right; Agon
// writes files left to right, each from the bottom.  The lines come from the layout.
const key = (v) => Math.round(v * 1000);
function lines(game, layout) {
  const byFile = game === 'agon';
  const groups = new Map();
  for (const c of layout.cells) {
    const k = key(byFile ? c.x : c.y);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(c);
  }
  return [...groups.entries()].sort((a, b) => (byFile ? a[0] - b[0] : b[0] - a[0]))
    .map(([, cells]) => cells.sort((a, b) => (byFile ? a.y - b.y : a.x - b.x)).map((c) => c.name));
}

function piecesOf(game, layout, text) {
  const out = {};
  const rows = lines(game, layout);
  text.split(' ')[0].split('/').forEach((row, i) => {
    let k = 0;
    for (const m of row.matchAll(/(\d+)|([A-Za-z])(\*?)/g)) {
      if (m[1]) k += Number(m[1]);
      else out[rows[i][k++]] = { piece: m[2], captured: m[3] === '*' };
    }
  });
  return out;
}

function cellsIn(text, layout) {
  const names = layout.cells.map((c) => c.name).sort((a, b) => b.length - a.length);
  const out = [];
  for (let i = 0; i < text.length;) {
    const hit = names.find((n) => text.startsWith(n, i));
    if (hit) { out.push(hit); i += hit.length; } else i++;
  }
  return out;
}

// The point between two landing points of a jump: joined to both by lines, in line.
function between(layout, a, b) {
  const idx = (n) => layout.cells.findIndex((c) => c.name === n);
  const ia = idx(a), ib = idx(b);
  const adj = (i) => new Set((layout.edges || []).flatMap(([p, q]) => (p === i ? [q] : q === i ? [p] : [])));
  const A = layout.cells[ia], B = layout.cells[ib];
  for (const k of adj(ia)) {
    if (!adj(ib).has(k)) continue;
    const C = layout.cells[k];
    if (Math.abs((C.x - A.x) * (B.y - A.y) - (C.y - A.y) * (B.x - A.x)) < 1e-6) return C.name;
  }
  return null;
}

function expandMove(game, layout, pieces, entry) {
  const o = typeof entry === 'string' ? { move: entry } : { ...entry };
  const cells = cellsIn(o.move, layout);
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
    m.captured = cells.slice(1).map((c, i) => between(layout, cells[i], c));
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

function statusOf(s) {
  const out = { over: s.result !== 'ongoing', result: s.result };
  if (s.result.endsWith('-wins')) out.winner = s.result.split('-')[0];
  return { ...out, reason: s.reason, text: s.reason === 'none' ? 'the game goes on' : s.reason };
}

// A move as the state's last_move: expanded in the position `before` (a fixture
// state's text), with overrides.
function describePlayed(g, text, display, beforeKey, side, overrides = {}) {
  const f = g.fixture;
  const layout = entryOf(f.game).layout;
  const before = f.states[beforeKey];
  const pieces = before ? piecesOf(f.game, layout, before.position) : {};
  const legal = (before?.legal || []).find((e) => (e.move || e) === text);
  const m = { ...expandMove(f.game, layout, pieces, legal || text), ...overrides };
  m.taken = m.taken || m.captured.map((c) => (pieces[c] ? pieces[c].piece : ''));
  return { move: text, display, side, piece: pieces[m.from] ? pieces[m.from].piece : '', ...m };
}

// A played move as the state and the events carry it (chess adds SAN as `san`).
function moveJson(g, m, i) {
  const out = { ply: i + 1, move: m.move, display: m.display };
  if (g.fixture.game === 'chess') out.san = m.display;
  return out;
}

// The state, in the shape of src/server/API.md.
function stateJson(g) {
  const f = g.fixture;
  const st = f.states[g.at];
  const entry = entryOf(f.game);
  const layout = entry.layout;
  const side = st.position.split(' ')[1] === 'w' ? 'white' : 'black';
  const pieces = piecesOf(f.game, layout, st.position);
  const status = statusOf(g.status || st.status || { result: 'ongoing', reason: 'none' });
  return {
    id: g.id, game: f.game, title: entry.title, level: g.level, human_side: g.human_side,
    start_position: g.start_position || null, position: st.position, side_to_move: side, ply: g.moves.length,
    board: layout.cells.map((c) => (pieces[c.name] ? pieces[c.name].piece : '')),
    captured_pieces: layout.cells.filter((c) => pieces[c.name] && pieces[c.name].captured).map((c) => c.name),
    moves: g.moves.map((m, i) => moveJson(g, m, i)),
    your_turn: !status.over && side === g.human_side, thinking: !!g.thinking,
    legal_moves: status.over ? [] : (st.legal || []).map((e) => ({ display: e.move || e, ...expandMove(f.game, layout, pieces, e) })),
    status, claims: status.over ? [] : st.claims || [], created: g.created, updated: g.updated,
    takebacks: g.takebacks || 0,
    last_move: g.moves.length && g.moves[g.moves.length - 1].desc ? { ply: g.moves.length, ...g.moves[g.moves.length - 1].desc } : null,
  };
}

// Every move a stream has not had yet, then `end` once the game is over.
function flush(g, res) {
  const st = stateJson(g);
  // Moves taken back since the stream last looked: `takeback` with the ply now (API.md).
  if (res.takebacks !== (g.takebacks || 0) || res.sent > g.moves.length) {
    res.takebacks = g.takebacks || 0;
    res.sent = g.moves.length;
    res.write(`id: ${res.sent}\nevent: takeback\ndata: ${JSON.stringify({ ply: res.sent, takebacks: res.takebacks })}\n\n`);
  }
  while (res.sent < g.moves.length) {
    const k = res.sent++;
    const data = { ...moveJson(g, g.moves[k], k), side: k % 2 === (g.first_black ? 1 : 0) ? 'white' : 'black', last: k + 1 === g.moves.length, status: st.status };
    res.write(`id: ${k + 1}\nevent: move\ndata: ${JSON.stringify(data)}\n\n`);
  }
  if (st.status.over && !g.thinking) {
    res.end(`event: end\ndata: ${JSON.stringify(st.status)}\n\n`);
    g.listeners.delete(res);
  }
}

function push(g) {
  g.updated = now();
  save();
  for (const res of g.listeners) flush(g, res);
}

function computerMove(g, move, display, next, delay, desc) {
  const side = g.human_side === 'white' ? 'black' : 'white';
  const before = g.at;
  g.thinking = setTimeout(() => {
    g.thinking = null;
    g.moves.push({ move, display, desc: describePlayed(g, move, display, before, side, desc) });
    g.at = next;
    push(g);
  }, delay);
}

// The real server's security headers (src/server/http.c), so the pages meet its CSP here too.
const SECURITY = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff',
};

function send(res, code, body, type = 'application/json') {
  res.writeHead(code, { 'Content-Type': type, 'Cache-Control': 'no-store', ...SECURITY });
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
    const entry = entryOf(body.game);
    if (!entry) return send(res, 400, { error: 'unknown game' });
    const level = body.level ?? 1;
    if (!(level >= entry.level_min && level <= entry.level_max)) return send(res, 400, { error: `level must be ${entry.level_min}..${entry.level_max}` });
    const side = body.side === 'random' ? 'white' : body.side ?? 'white';
    if (!['white', 'black'].includes(side)) return send(res, 400, { error: 'side must be white, black or random' });
    const game = entry.name;
    const f = body.position
      ? fixtures.find((x) => x.game === game && x.position === body.position)
      : fixtures.find((x) => x.game === game && x.default && x.human_side === side) || fixtures.find((x) => x.game === game && x.default);
    if (!f) return send(res, 400, { error: 'test double: no fixture for this position' });
    const g = {
      id: randomBytes(16).toString('hex'), token: randomBytes(16).toString('hex'), fixture: f, at: f.start || 'start', moves: [],
      human_side: f.human_side, level, start_position: body.position || null, created: now(), updated: now(), listeners: new Set(),
    };
    g.first_black = f.states[g.at].position.split(' ')[1] === 'b';
    games.set(g.id, g);
    save();
    if (f.opening) computerMove(g, f.opening.move, f.opening.display, f.opening.next, f.opening.delay || 500);
    return send(res, 201, { ...stateJson(g), token: g.token });
  }
  const g = games.get(parts[0]);
  if (!g) return send(res, 404, { error: 'no such game' });
  const action = parts[1];
  if (req.method === 'GET' && !action) return send(res, 200, stateJson(g));
  if (req.method === 'GET' && action === 'events') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive', ...SECURITY });
    res.write(': agora test double\n\n');
    res.sent = Math.min(Number(req.headers['last-event-id']) || 0, g.moves.length);
    res.takebacks = g.takebacks || 0;
    g.listeners.add(res);
    req.on('close', () => g.listeners.delete(res));
    flush(g, res);
    return;
  }
  if (req.method === 'GET' && action === 'record') {
    if (g.fixture.game === 'chess') {
      const sans = g.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + m.display).join(' ');
      return send(res, 200, `[Event "agora"]\n[White "?"]\n[Black "?"]\n[Result "*"]\n\n${sans} *\n`, 'text/plain; charset=utf-8');
    }
    return send(res, 200, g.moves.map((m) => m.move).join('\n') + '\n', 'text/plain; charset=utf-8');
  }
  if (action === 'review') {
    // No token is needed to analyse (API.md "Analysis").
    if (req.method === 'GET') return send(res, 200, g.review ? reviewJson(g.review) : { status: 'none', done: 0, total: g.moves.length + 1 });
    if (req.method !== 'POST') return send(res, 405, { error: 'wrong method' });
    if (!g.review) {
      g.review = makeReview(g.id, g.fixture.game, g.moves.map((m) => ({ move: m.move, display: m.display })), g.start_position, !!g.first_black);
      reviews.set(g.id, g.review); // a game's review is under GET /api/reviews/{id} too
    }
    const r = reviewJson(g.review);
    return send(res, r.status === 'done' ? 200 : 202, r);
  }
  if (req.method !== 'POST') return send(res, 405, { error: 'wrong method' });
  if (req.headers.authorization !== `Bearer ${g.token}`) return send(res, 403, { error: 'wrong or missing token' });
  const st = stateJson(g);
  if (st.status.over) return send(res, 409, { error: 'the game is over' });
  let body = {};
  try { body = JSON.parse((await readBody(req)) || '{}'); } catch { return send(res, 400, { error: 'bad JSON' }); }
  if (action === 'takeback') {
    if (g.thinking) return send(res, 409, { error: 'the computer is thinking' });
    const back = (g.history || []).pop();
    if (!back) return send(res, 409, { error: 'no move of yours to take back' });
    g.moves.length = back.n;
    g.at = back.at;
    g.takebacks = (g.takebacks || 0) + 1;
    push(g);
    return send(res, 200, stateJson(g));
  }
  if (action === 'resign') {
    g.status = { result: g.human_side === 'white' ? 'black-wins' : 'white-wins', reason: 'resignation' };
    push(g);
    return send(res, 200, stateJson(g));
  }
  if (action === 'draw') {
    if (g.fixture.draw_accept) { g.status = { result: 'draw', reason: 'agreement' }; push(g); }
    return send(res, 200, { ...stateJson(g), draw: g.fixture.draw_accept ? 'accepted' : 'declined' });
  }
  if (action === 'claim') {
    if (!st.claims.length) return send(res, 409, { error: 'no claim available' });
    g.status = { result: 'draw', reason: st.claims[0] === 'threefold' ? 'threefold-claim' : 'fifty-move-claim' };
    push(g);
    return send(res, 200, stateJson(g));
  }
  if (action === 'moves') {
    if (st.side_to_move !== g.human_side || g.thinking) return send(res, 409, { error: 'not your turn: the computer is to move' });
    if (!st.legal_moves.some((m) => m.move === body.move)) return send(res, 400, { error: `illegal move: ${body.move}` });
    const step = g.fixture.moves.find((m) => m.at === g.at && m.move === body.move);
    if (!step) return send(res, 400, { error: `test double: no continuation after ${body.move}` });
    // answer_delay: the answer comes only with the reply, after a long think (level 8).
    if (g.fixture.answer_delay) await new Promise((r) => setTimeout(r, g.fixture.answer_delay));
    (g.history ||= []).push({ at: g.at, n: g.moves.length }); // for a takeback
    const other = g.human_side === 'white' ? 'black' : 'white';
    g.moves.push({ move: step.move, display: step.display, desc: describePlayed(g, step.move, step.display, g.at, g.human_side) });
    if (step.reply && g.fixture.reply_via_sse && step.mid) {
      g.at = step.mid;
      push(g);
      computerMove(g, step.reply, step.reply_display, step.next, g.fixture.reply_via_sse, step.reply_desc);
      return send(res, 200, stateJson(g));
    }
    if (step.reply) g.moves.push({ move: step.reply, display: step.reply_display, desc: describePlayed(g, step.reply, step.reply_display, step.mid || g.at, other, step.reply_desc) });
    g.at = step.next;
    push(g);
    return send(res, 200, stateJson(g));
  }
  return send(res, 404, { error: 'not found' });
}

// ---- analysis (API.md "Analysis"): positions, the engine's stream, reviews
const THRESHOLDS = { inaccuracy: 10, mistake: 20, blunder: 30 };

function analysisFixture(game) {
  return analysisFixtures.find((f) => f.game === game);
}

// The moves a record holds, in order: PGN's movetext without tags, comments,
// variations, numbers, NAGs and the result (notation only).  Also its FEN tag.
function recordMoves(text) {
  const fen = (text.match(/\[FEN "([^"]*)"\]/) || [])[1] || null;
  let body = text.replace(/^\s*\[[^\]]*\]\s*$/gm, ' ').replace(/\{[^}]*\}/g, ' ').replace(/;[^\n]*/g, ' ');
  for (let prev = ''; prev !== body;) { prev = body; body = body.replace(/\([^()]*\)/g, ' '); }
  const words = body.split(/\s+/).map((w) => w.replace(/^\d+\.(\.\.)?/, '').replace(/[!?]+$/, '')).filter((w) => w && !/^\$\d+$/.test(w) && !['1-0', '0-1', '1/2-1/2', '*'].includes(w));
  return { fen, words };
}

// A record's whole tree, as API.md's POST /api/positions {"game", "record"} answers it:
// the main line's nodes {move, display, comment, variations: [line, ...]}, each move
// found in the fixture from the position before it (a variation's from the position
// before the move it replaces); comments before a line's first move are left out.
// Also the main line's texts, for positionJson.  An Error (400) names a bad move.
function recordTree(game, text) {
  const fen = (text.match(/\[FEN "([^"]*)"\]/) || [])[1] || null;
  const body = text.replace(/^\s*\[[^\]]*\]\s*$/gm, ' ');
  const main = [];
  const open = [];
  let line = main;
  for (const tk of body.match(/\{[^}]*\}?|;[^\n]*|[()]|[^\s{}();]+/g) || []) {
    const last = line[line.length - 1];
    if (tk[0] === '{' || tk[0] === ';') {
      const c = tk[0] === '{' ? tk.slice(1).replace(/\}$/, '') : tk.slice(1).replace(/\r$/, '');
      if (last) last.comment = last.comment ? `${last.comment} ${c}` : c;
    } else if (tk === '(') {
      if (!last) throw new Error('bad "record": a variation before any move');
      last.variations.push([]);
      open.push(line);
      line = last.variations[last.variations.length - 1];
    } else if (tk === ')') {
      if (!open.length) throw new Error('bad "record": \')\' without \'(\'');
      line = open.pop();
    } else {
      const w = tk.replace(/^\d+\.(\.\.)?/, '').replace(/[!?]+$/, '');
      if (w && !/^\$\d+$/.test(w) && !['1-0', '0-1', '1/2-1/2', '*'].includes(w)) line.push({ text: w, comment: '', variations: [] });
    }
  }
  if (open.length) throw new Error('bad "record": a variation left open');
  const resolve = (nodes, before, inVariation) => {
    const played = [...before];
    return nodes.map((n) => {
      const variations = n.variations.map((v) => resolve(v, played, true));
      let m;
      try {
        const ms = positionJson(game, fen, [...played, n.text]).json.moves;
        m = ms[ms.length - 1];
      } catch (err) {
        throw new Error(`bad "record" for ${game}: move ${played.length + 1} ${n.text}${inVariation ? ' in a variation' : ''}: ${err.message}`);
      }
      played.push(m.move);
      return { move: m.move, display: m.display, comment: n.comment, variations };
    });
  };
  return { fen, words: main.map((n) => n.text), tree: resolve(main, [], false) };
}

// The position after `moves` (move texts or display texts), in the shape of API.md's
// POST /api/positions answer; an Error (400) for anything the fixture does not hold.
function positionJson(game, start, moves) {
  const f = analysisFixture(game);
  const entry = entryOf(game);
  if (!f) throw new Error(`test double: no analysis fixture for ${game}`);
  if (start && start !== f.position && !Object.values(f.positions).some((p) => p.position === start)) throw new Error(`bad position: '${start}' (test double: not in the fixture)`);
  // A start inside the fixture's graph: its key is the prefix.
  let key = start && start !== f.position ? Object.keys(f.positions).find((k) => f.positions[k].position === start) : '';
  const baseKey = key;
  const played = [];
  for (const [i, text] of moves.entries()) {
    const at = f.positions[key];
    const hit = at && at.legal.map((e) => (typeof e === 'string' ? { move: e, display: e } : e)).find((e) => e.move === text || e.display === text);
    if (!hit) throw new Error(`move ${i + 1} '${text}': illegal or not in the test double's fixture`);
    key = key ? `${key} ${hit.move}` : hit.move;
    played.push(game === 'chess' ? { ply: i + 1, move: hit.move, display: hit.display, san: hit.display } : { ply: i + 1, move: hit.move, display: hit.display });
    if (!f.positions[key]) throw new Error(`move ${i + 1} '${text}': the test double has no position after it`);
  }
  const st = f.positions[key];
  const layout = entry.layout;
  const pieces = piecesOf(game, layout, st.position);
  return {
    key, baseKey,
    json: {
      game, title: entry.title, start_position: start || null, position: st.position, side_to_move: st.position.split(' ')[1] === 'b' ? 'black' : 'white', ply: moves.length,
      board: layout.cells.map((c) => (pieces[c.name] ? pieces[c.name].piece : '')),
      captured_pieces: layout.cells.filter((c) => pieces[c.name] && pieces[c.name].captured).map((c) => c.name),
      moves: played,
      legal_moves: (st.legal || []).map((e) => ({ display: e.move || e, ...expandMove(game, layout, pieces, e) })),
      status: statusOf({ result: 'ongoing', reason: 'none' }), claims: [],
    },
  };
}

// Who judges (API.md "Analysis"): Stockfish for chess, as a server with it installed.
const engineOf = (game) => (game === 'chess' ? 'Stockfish 15.1' : `agora ${game}`);

// The engine's lines at a position: the fixture's, else the first legal moves at an
// even score; sent at depths 1..3, then `done`.
function streamLines(req, res, game, pos, multipv) {
  const f = analysisFixture(game);
  const scripted = (f.lines || {})[pos.key];
  const base = scripted || pos.json.legal_moves.slice(0, 5).map((m, i) => ({ multipv: i + 1, score: 0, mate: null, win: 0.5, pv: [m.move], pv_display: [m.display] }));
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive', ...SECURITY });
  let depth = 0;
  const lines = (d) => base.slice(0, multipv).map((l) => ({ ...l, depth: d, seldepth: d + 2, nodes: 1000 * d, time_ms: 40 * d }));
  const timer = setInterval(() => {
    depth++;
    if (depth <= 3) res.write(`event: line\ndata: ${JSON.stringify({ engine: engineOf(game), lines: lines(depth) })}\n\n`);
    else {
      clearInterval(timer);
      res.end(`event: done\ndata: ${JSON.stringify({ engine: engineOf(game), lines: lines(3) })}\n\n`);
    }
  }, 250);
  req.on('close', () => clearInterval(timer));
}

// Reviews: the fixture's for those moves, else every move "good" at an even chance.
const reviews = new Map(); // id -> {started, total, body}
// The shape is API.md's: `total` counts the positions searched (plies + 1), scores,
// mates and chances are the mover's, `drop` in percentage points, `counts` per side.
function makeReview(id, game, moves, start, blackFirst) {
  const f = analysisFixture(game);
  const texts = moves.map((m) => m.move).join(' ');
  const scripted = f && (f.reviews || []).find((r) => r.moves === texts);
  const base = scripted ? scripted.plies : moves.map((m, i) => ({ ply: i + 1, move: m.move, display: m.display, best: m.move, best_display: m.display,
    score_before: 0, score_after: 0, win_before: 0.5, win_after: 0.5, class: 'best' }));
  const side = (ply) => ((ply - 1 + (blackFirst ? 1 : 0)) % 2 === 0 ? 'white' : 'black');
  const plies = base.map((p) => ({ ...p, side: side(p.ply), mate_before: null, mate_after: null,
    drop: Math.max(0, Math.round((p.win_before - p.win_after) * 1000) / 10) }));
  const counts = {};
  for (const s of ['white', 'black']) {
    counts[s] = { best: 0, good: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
    for (const p of plies) if (p.side === s) counts[s][p.class]++;
  }
  return { id, game, started: Date.now(), total: plies.length + 1,
    body: { start_position: start || null, engine: engineOf(game), plies, accuracy: scripted ? scripted.accuracy : { white: 100, black: 100 }, counts, thresholds: THRESHOLDS } };
}
function reviewJson(r) {
  const ms = Date.now() - r.started;
  const head = { id: r.id, game: r.game };
  if (ms < 1200) return { ...head, status: 'running', done: Math.min(r.total - 1, Math.floor((ms / 1200) * r.total)), total: r.total };
  return { ...head, status: 'done', done: r.total, total: r.total, ...r.body };
}

async function analysisApi(req, res, path) {
  let body;
  try { body = JSON.parse((await readBody(req)) || '{}'); } catch { return send(res, 400, { error: 'malformed JSON' }); }
  const entry = entryOf(body.game);
  if (!entry) return send(res, 400, { error: `unknown game '${body.game}'` });
  const game = entry.name;
  if (path === '/api/positions') {
    try {
      // A record read into moves (a proposal: POST /api/positions {"game", "record"}).
      if (typeof body.record === 'string') {
        const { fen, words, tree } = recordTree(game, body.record);
        return send(res, 200, { ...positionJson(game, fen, words).json, tree });
      }
      if (body.moves !== undefined && !Array.isArray(body.moves)) return send(res, 400, { error: 'moves must be an array of move texts' });
      return send(res, 200, positionJson(game, body.position || null, body.moves || []).json);
    } catch (err) {
      return send(res, 400, { error: err.message });
    }
  }
  if (path === '/api/analysis') {
    const multipv = body.multipv ?? 1;
    if (!(multipv >= 1 && multipv <= 5)) return send(res, 400, { error: 'multipv must be 1..5' });
    let pos;
    try { pos = positionJson(game, body.position || null, body.moves || []); } catch (err) { return send(res, 400, { error: err.message }); }
    return streamLines(req, res, game, pos, multipv);
  }
  if (path === '/api/reviews') {
    if (typeof body.record !== 'string') return send(res, 400, { error: 'record must be a string' });
    let pos;
    try { const { fen, words } = recordMoves(body.record); pos = positionJson(game, fen, words); } catch (err) { return send(res, 400, { error: err.message }); }
    const id = randomBytes(16).toString('hex');
    const root = positionJson(game, pos.json.start_position, []).json;
    reviews.set(id, makeReview(id, game, pos.json.moves, pos.json.start_position, root.side_to_move === 'black'));
    return send(res, 202, reviewJson(reviews.get(id)));
  }
  return send(res, 404, { error: 'not found' });
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.webmanifest': 'application/manifest+json' };

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/api/catalog') return send(res, 200, catalog);
  if (['/api/positions', '/api/analysis', '/api/reviews'].includes(url.pathname)) {
    if (req.method !== 'POST') return send(res, 405, { error: 'wrong method' });
    try { return await analysisApi(req, res, url.pathname); } catch (err) { return send(res, 500, { error: String(err) }); }
  }
  if (url.pathname.startsWith('/api/reviews/')) {
    const r = reviews.get(url.pathname.slice('/api/reviews/'.length));
    if (!r) return send(res, 404, { error: 'no such review' });
    if (req.method !== 'GET') return send(res, 405, { error: 'wrong method' });
    return send(res, 200, reviewJson(r));
  }
  if (url.pathname.startsWith('/api/games')) {
    const parts = url.pathname.slice('/api/games'.length).split('/').filter(Boolean);
    try { return await api(req, res, parts); } catch (err) { return send(res, 500, { error: String(err) }); }
  }
  let path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
  if (path.endsWith('/')) path += 'index.html';
  const file = join(webRoot, path);
  if (!file.startsWith(webRoot) || !existsSync(file) || !statSync(file).isFile()) return send(res, 404, { error: 'not found' });
  res.writeHead(200, { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store', ...SECURITY });
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

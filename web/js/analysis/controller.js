// The analysis board's controller, without DOM (unit-tested in
// tests/web-unit/analysis-controller.test.mjs): the move tree and the node shown, the
// positions the server answered, the move being entered, the engine's lines, the
// review, "learn from your mistakes" and the position editor.  The views
// (analysis.js and its *-view.js) draw from its state `s` and call its actions; it
// tells them what to draw again through `view`, one hook a part:
//   all (everything), board, tree, status, chooser, engine, engineError(message),
//   review, editor, editorText, editorClosed, link, shown(id) (the board shows node id)
// Messages are i18n keys with their values ({key, vars, kind}); the views translate.
// Rules stay on the server: every position is POST /api/positions's answer (api), and
// a move is one of its legal_moves.
import * as T from './tree.js';
import { PIECE_LETTERS, positionText } from './notation.js';
import { moverOf } from './review.js';
import { errorText } from '../common/i18n.js';

const ENGINE_PAUSE_MS = 250; // stepping through moves does not start an analysis each
const ENGINE_RETRY_MS = 600; // a busy server (429, 503) is asked again after this
const ENGINE_TRIES = 8;
const REVIEW_POLL_MS = 700;

/**
 * A controller for `game` (its catalogue `entry`), of the server's game `source` when
 * one is analysed.  `api`: position, analyse, piecesOf, startReview, getReview,
 * importReview, getImportedReview (web/js/net/api.js).  `timers`: setTimeout,
 * clearTimeout, setInterval, clearInterval (the global ones by default).  Returns the
 * controller: its state `s` and the actions of every part below.
 */
export function createAnalysis({ game, entry, source = null, api, view = {}, timers = globalThis }) {
  const s = {
    game, entry, layout: entry.layout, source,
    tree: null, cur: 0, P: null, cache: new Map(), // node id -> position (the server's answer)
    sel: null, promo: null, // {from, path} while a move is entered; promotion choices
    flipped: source ? source.human_side === 'black' : false,
    message: null, // {key, vars, kind}
    engineOn: false, multipv: 1, lines: [], linesDone: false, engineBy: null, // engineBy: {engine, error} of the lines
    review: null, reviewState: null, // the review once done; {status, done, total} while it runs
    learn: null, // {side, list: [ply...], k, answered, result}
    editing: null, // {pieces, side, letter, template} while the editor is open
  };
  // The parts call each other through `c`; `gone` once the page is left.
  const c = { s, game, api, timers, gone: false, ui: (hook, ...args) => view[hook] && view[hook](...args) };
  for (const part of [moves, board, entering, engine, loading, editor, exporting, reviewing, learning, lifecycle]) Object.assign(c, part(c));
  return c;
}

// ---- the tree and its positions
function moves(c) {
  const { s, game, api, ui } = c;
  let seq = 0; // the latest go(): an older answer is not shown
  async function fetchPosition(id) {
    if (s.cache.has(id)) return s.cache.get(id);
    const p = await api.position({ game, position: s.tree.start, moves: T.movesTo(s.tree, id) });
    s.cache.set(id, p);
    return p;
  }

  /** A new tree from `start` (null: the game's start) with `moves` (texts, {move,
   *  display} or a server's tree), showing its end or the node after `goTo` plies. */
  async function newTree(start, moves = [], goTo = 'end') {
    const root = await api.position({ game, position: start, moves: [] });
    const fields = String(root.position || '').split(/\s+/);
    s.tree = T.createTree({ start: start || null, blackFirst: root.side_to_move === 'black', firstMove: game === 'chess' ? Number(fields[5]) || 1 : 1 });
    s.cache.clear();
    s.cache.set(0, root);
    ui('positionText', root.position || '');
    const end = T.addTree(s.tree, 0, moves);
    s.review = null;
    s.learn = null;
    await go(typeof goTo === 'number' ? nodeAtPly(goTo) : end);
  }

  async function go(id) {
    if (!s.tree || !(id in s.tree.nodes)) return;
    const mine = ++seq;
    s.cur = id;
    s.sel = null;
    s.promo = null;
    ui('tree');
    try {
      const p = await fetchPosition(id);
      if (mine !== seq || c.gone) return;
      s.P = p;
      if (!s.learn || s.learn.answered) s.message = null;
    } catch (err) {
      if (mine !== seq || c.gone) return;
      s.message = { key: 'error.generic', vars: { message: errorText(err) }, kind: 'error' };
    }
    ui('all');
    ui('shown', id);
    c.restartEngine();
    ui('link');
  }

  function play(mv) {
    if (s.learn && !s.learn.answered && c.tryLearn(mv)) return;
    go(T.addMove(s.tree, s.cur, mv.move, mv.display));
  }

  /** The node after `ply` plies of the main line. */
  function nodeAtPly(ply) {
    let id = 0;
    for (let i = 0; i < ply; i++) id = T.next(s.tree, id);
    return id;
  }

  /** Where a key of the page goes (← → Home End ↑ ↓): {id}, or null for other keys. */
  function keyTarget(key) {
    const to = { ArrowLeft: () => T.prev(s.tree, s.cur), ArrowRight: () => T.next(s.tree, s.cur), Home: () => 0, End: () => T.last(s.tree, s.cur),
      ArrowUp: () => T.sibling(s.tree, s.cur, -1), ArrowDown: () => T.sibling(s.tree, s.cur, 1) }[key];
    return to ? { id: to() } : null;
  }

  /** The ply of the node shown (0 at the start). */
  const plyShown = () => T.plyOf(s.tree, s.cur);

  function promote() {
    if (T.promote(s.tree, s.cur)) { ui('tree'); ui('link'); }
  }
  function deleteVariation() {
    if (s.cur) go(T.removeVariation(s.tree, s.cur));
  }
  function setComment(text) {
    if (s.cur) { T.setComment(s.tree, s.cur, text); ui('tree'); }
  }
  return { fetchPosition, newTree, go, play, nodeAtPly, keyTarget, plyShown, promote, deleteVariation, setComment };
}

// ---- what the board shows
function board(c) {
  const { s } = c;
  const legal = () => (s.editing || !s.P ? [] : s.P.legal_moves || []);
  const candidates = () => (s.sel ? legal().filter((m) => m.from === s.sel.from && s.sel.path.every((c, i) => m.path[i] === c)) : []);

  function lastCells() {
    const n = s.tree && s.tree.nodes[s.cur];
    if (!n || !n.move) return [];
    const before = s.cache.get(n.parent);
    const mv = before && (before.legal_moves || []).find((m) => m.move === n.move);
    return mv ? [mv.from, ...mv.path] : [];
  }

  function marks() {
    const m = { last: lastCells(), selected: [], targets: [], captureTargets: [], movable: [], allowed: [], path: [], capturing: [], check: [] };
    if (s.editing) return m;
    if (!s.sel) return m; // no 'movable' marks: the analysis board is for looking
    m.selected = [s.sel.from];
    m.path = [...s.sel.path];
    const k = s.sel.path.length;
    for (const mv of candidates()) {
      const nxt = mv.path[k];
      if (!nxt) continue;
      if (mv.flags.includes('return')) m.allowed.push(nxt);
      else if (mv.flags.includes('capture')) m.captureTargets.push(nxt);
      else m.targets.push(nxt);
    }
    return m;
  }

  function arrows() {
    if (s.editing || !s.P) return [];
    // Learning: once answered, the better move is shown on the board.
    if (s.learn && s.learn.answered && s.learn.result !== 'right') {
      const p = c.learnPly();
      const mv = p && (s.P.legal_moves || []).find((m) => m.move === p.best);
      return mv ? [{ from: mv.from, to: mv.to, kind: 'best' }] : [];
    }
    if (!s.engineOn || !s.lines.length) return [];
    const out = [];
    s.lines.slice(0, s.multipv).forEach((ln, i) => {
      const mv = (s.P.legal_moves || []).find((m) => m.move === (ln.pv || [])[0]);
      if (mv) out.push({ from: mv.from, to: mv.to, kind: i === 0 ? 'best' : 'line' });
    });
    return out.reverse(); // the best drawn last, on top
  }

  /** The pieces shown: the editor's, or the position's with a piece being moved. */
  function shownPieces() {
    if (s.editing) return s.editing.pieces;
    if (!s.sel || !s.sel.path.length) return s.P.pieces;
    const p = { ...s.P.pieces };
    const moving = p[s.sel.from];
    delete p[s.sel.from];
    p[s.sel.path[s.sel.path.length - 1]] = moving;
    return p;
  }
  return { legal, candidates, lastCells, marks, arrows, shownPieces };
}

// ---- entering moves: click the piece, then each cell of the move's path
function entering(c) {
  const { s, ui } = c;
  function clickCell(cell) {
    if (s.editing) return c.editCell(cell);
    if (s.promo || !s.P) return;
    if (s.sel) {
      const k = s.sel.path.length;
      const nxt = c.candidates().filter((m) => m.path[k] === cell);
      if (nxt.length) {
        s.sel.path.push(cell);
        const done = nxt.filter((m) => m.path.length === s.sel.path.length);
        if (done.length === nxt.length) {
          if (done.length === 1) { s.sel = null; return c.play(done[0]); }
          s.promo = done;
        }
        return ui('all');
      }
      s.sel = k === 0 && cell !== s.sel.from && c.legal().some((m) => m.from === cell) ? { from: cell, path: [] } : null;
      return ui('all');
    }
    if (c.legal().some((m) => m.from === cell)) s.sel = { from: cell, path: [] };
    ui('all');
  }

  function cancelMove() {
    s.sel = null;
    s.promo = null;
    ui('all');
  }
  function pickPromotion(mv) {
    s.promo = null;
    ui('chooser');
    c.play(mv);
  }
  function flip() {
    s.flipped = !s.flipped;
    ui('board');
  }
  return { clickCell, cancelMove, pickPromotion, flip };
}

// ---- the engine: off until switched on; one stream at a time, restarted on every move
function engine(c) {
  const { s, game, api, ui } = c;
  let abort = null; // the running analysis's AbortController
  function stopEngine() {
    if (abort) abort.abort();
    abort = null;
  }

  function wait(ms, signal) {
    return new Promise((resolve, reject) => {
      const timer = c.timers.setTimeout(resolve, ms);
      signal.addEventListener('abort', () => { c.timers.clearTimeout(timer); reject(new Error('aborted')); });
    });
  }

  function restartEngine() {
    stopEngine();
    s.lines = [];
    s.linesDone = false;
    s.engineBy = null;
    if (!s.engineOn || !s.P || s.editing || (s.P.status && s.P.status.result !== 'ongoing')) { ui('engine'); ui('board'); return; }
    const ctl = new AbortController();
    abort = ctl;
    const at = s.cur;
    ui('engine');
    // A short pause first, so that stepping through moves with the keys does not start
    // (and stop) an analysis for every position passed; a busy server (429, 503) is
    // asked again a little later.
    const run = (tries) => api.analyse({ game, position: s.tree.start, moves: T.movesTo(s.tree, at), multipv: s.multipv }, (ls, done, by) => {
      if (ctl.signal.aborted || at !== s.cur) return;
      s.lines = ls;
      s.linesDone = done;
      s.engineBy = by && by.engine ? by : null;
      ui('engine');
      ui('board');
    }, ctl.signal).catch((err) => {
      if (ctl.signal.aborted) return;
      if ((err.status === 429 || err.status === 503) && tries < ENGINE_TRIES) return wait(ENGINE_RETRY_MS, ctl.signal).then(() => run(tries + 1), () => {});
      ui('engineError', errorText(err));
    });
    wait(ENGINE_PAUSE_MS, ctl.signal).then(() => run(0), () => {});
  }

  function setEngine(on) {
    s.engineOn = on;
    restartEngine();
    ui('engine');
  }
  function setMultipv(n) {
    s.multipv = n;
    restartEngine();
  }
  return { stopEngine, wait, restartEngine, setEngine, setMultipv };
}

// ---- loading positions and records
function loading(c) {
  const { s, game, api, ui } = c;
  async function loadPosition(text) {
    s.message = null;
    try {
      await c.newTree(text || null, []);
      s.message = { key: 'an.position.ok', kind: 'info' };
    } catch (err) {
      s.message = { key: 'an.position.bad', vars: { message: errorText(err) }, kind: 'error' };
    }
    ui('status');
  }

  async function loadRecord(text) {
    s.message = null;
    try {
      const p = await api.position({ game, record: text });
      await c.newTree(p.start_position || null, p.tree);
      s.message = { key: 'an.import.ok', vars: { n: p.moves.length }, kind: 'info' };
    } catch (err) {
      s.message = { key: 'an.import.bad', vars: { message: errorText(err) }, kind: 'error' };
    }
    ui('status');
  }

  async function reviewRecord(text) {
    try {
      const p = await api.position({ game, record: text });
      await c.newTree(p.start_position || null, p.tree, 0);
      const r = await api.importReview(game, text);
      c.runReview(() => api.getImportedReview(r.id), r);
    } catch (err) {
      s.message = { key: 'an.import.bad', vars: { message: errorText(err) }, kind: 'error' };
      ui('status');
    }
  }
  return { loadPosition, loadRecord, reviewRecord };
}

// ---- the editor: place and remove pieces, set the side to move
function editor(c) {
  const { s, game, api, ui } = c;
  function openEditor() {
    if (!s.P) return;
    c.stopEngine();
    s.editing = { pieces: { ...s.P.pieces }, side: s.P.side_to_move, letter: PIECE_LETTERS[game][0], template: s.P.position };
    ui('editor');
    ui('all');
  }

  function closeEditor() {
    if (!s.editing) return;
    s.editing = null;
    ui('editorClosed');
    ui('all');
    c.restartEngine();
  }

  function editCell(cell) {
    const e = s.editing;
    const p = e.pieces[cell];
    const letter = e.letter.replace('*', '');
    const captured = e.letter.endsWith('*');
    if (!letter || (p && p.piece === letter && !!p.captured === captured)) delete e.pieces[cell];
    else e.pieces[cell] = { piece: letter, captured };
    ui('board');
    ui('editorText');
  }

  /** The position text the editor's board makes. */
  const editorText = () => positionText(game, s.layout, s.editing.pieces, s.editing.side, s.editing.template);

  function setEditorLetter(letter) {
    s.editing.letter = letter;
    ui('editor');
  }
  function setEditorSide(side) {
    s.editing.side = side;
    ui('editorText');
  }
  function clearEditor() {
    s.editing.pieces = {};
    ui('board');
    ui('editorText');
  }
  function editorStart() {
    const root = s.cache.get(0);
    s.editing.pieces = api.piecesOf(s.layout, root && !s.tree.start ? root.board : [], []);
    if (s.tree.start) {
      api.position({ game, position: null, moves: [] }).then((p) => {
        s.editing.pieces = p.pieces;
        s.editing.template = p.position;
        ui('board');
        ui('editorText');
      });
    }
    ui('board');
    ui('editorText');
  }
  /** The editor's position, when the server reads it, becomes the board's start. */
  async function editorDone() {
    const text = editorText();
    try {
      await api.position({ game, position: text, moves: [] });
    } catch (err) {
      s.message = { key: 'an.position.bad', vars: { message: errorText(err) }, kind: 'error' };
      return ui('status');
    }
    s.editing = null;
    ui('editorClosed');
    await c.loadPosition(text);
  }
  return { openEditor, closeEditor, editCell, editorText, setEditorLetter, setEditorSide, clearEditor, editorStart, editorDone };
}

// ---- export and the link
function exporting(c) {
  const { s, game } = c;
  function exportPGN(lineOnly) {
    const opts = { variant: game === 'chess' ? null : s.entry.title };
    if (lineOnly) opts.line = s.cur;
    return T.toPGN(s.tree, opts);
  }

  /** The query of a link to what is shown ('' for the start of the game). */
  function linkQuery() {
    const params = new URLSearchParams();
    if (s.tree.start) params.set('position', s.tree.start);
    const moves = T.movesTo(s.tree, s.cur);
    if (moves.length) params.set('moves', moves.join(','));
    return params.toString();
  }
  return { exportPGN, linkQuery };
}

// ---- the review
function reviewing(c) {
  const { s, api, ui } = c;
  let reviewTimer = null;
  function runReview(poll, first) {
    c.timers.clearInterval(reviewTimer);
    s.review = null;
    s.reviewState = first;
    ui('review');
    const step = async () => {
      try {
        const r = await poll();
        if (c.gone) return;
        if (r.status === 'done') {
          c.timers.clearInterval(reviewTimer);
          s.review = r;
          s.reviewState = null;
          ui('review');
          ui('tree');
          return;
        }
        s.reviewState = r;
        ui('review');
      } catch (err) {
        c.timers.clearInterval(reviewTimer);
        s.reviewState = { status: 'error', message: errorText(err) };
        ui('review');
      }
    };
    if (first && first.status === 'done') { s.reviewState = null; s.review = first; ui('review'); ui('tree'); return; }
    reviewTimer = c.timers.setInterval(step, REVIEW_POLL_MS);
    step();
  }

  async function startGameReview() {
    try {
      const r = await api.startReview(s.source.id);
      runReview(() => api.getReview(s.source.id), r);
    } catch (err) {
      s.reviewState = { status: 'error', message: errorText(err) };
      ui('review');
    }
  }
  const stopReview = () => c.timers.clearInterval(reviewTimer);
  return { runReview, startGameReview, stopReview };
}

// ---- learn from your mistakes
function learning(c) {
  const { s, ui } = c;
  const learnPly = () => s.review.plies.find((x) => x.ply === s.learn.list[s.learn.k]);

  function startLearn(side) {
    const list = s.review.plies.filter((p) => (p.class === 'mistake' || p.class === 'blunder') && moverOf(p.ply, s.tree.blackFirst) === side && p.best && p.best !== p.move).map((p) => p.ply);
    s.learn = { side, list, k: 0, answered: false, result: null };
    if (!list.length) { s.message = { key: 'learn.none', kind: 'info' }; s.learn = null; ui('status'); return; }
    learnStep();
  }

  function learnStep() {
    s.learn.answered = false;
    s.learn.result = null;
    c.go(c.nodeAtPly(s.learn.list[s.learn.k] - 1));
  }

  function tryLearn(mv) {
    const p = learnPly();
    if (mv.move === p.best || mv.display === p.best_display) {
      s.learn.answered = true;
      s.learn.result = 'right';
      s.message = null;
      c.go(T.addMove(s.tree, s.cur, mv.move, mv.display));
      return true;
    }
    s.learn.result = 'wrong';
    s.sel = null;
    ui('status');
    ui('board');
    return true;
  }

  function learnShow() {
    s.learn.answered = true;
    ui('status');
    ui('board');
  }
  function learnNext() {
    s.learn.k++;
    learnStep();
  }
  function learnStop() {
    s.learn = null;
    s.message = null;
    ui('status');
  }
  return { learnPly, startLearn, learnStep, tryLearn, learnShow, learnNext, learnStop };
}

// ---- start and end
function lifecycle(c) {
  const { s, game, api, ui } = c;
  /** Shows what the page was asked for: the s.source game's moves (at `ply`, or its
   *  start for a review), or `position` and `moves` (texts) from a link. */
  async function start({ position = null, moves = [], ply = 'end', review = false } = {}) {
    if (s.source) {
      await c.newTree(s.source.start_position || null, s.source.moves.map((m) => ({ move: m.move, display: m.display })), review ? 0 : ply);
    } else {
      // Moves from a link get their display texts from the server, as played.
      let line = moves;
      if (moves.length) {
        const p = await api.position({ game, position, moves });
        line = p.moves.map((m) => ({ move: m.move, display: m.display }));
      }
      await c.newTree(position, line, ply);
    }
    ui('review');
    if (review && s.source) {
      try {
        const r = await api.getReview(s.source.id);
        if (r.status === 'done') c.runReview(() => api.getReview(s.source.id), r);
        else c.startGameReview();
      } catch { c.startGameReview(); }
    }
  }

  function dispose() {
    c.gone = true;
    c.stopEngine();
    c.stopReview();
  }
  return { start, dispose };
}

// The analysis board (issue 15): any position of any game, moves for both sides from
// the server's legal moves, a move tree with variations, the engine's lines on demand,
// a position editor, record import and export, and the review of a game.
//
//   #/analysis/GAME                     the game's start
//   #/analysis/GAME?position=P&moves=a,b,c&ply=N    a position and moves (a shared link)
//   #/analysis/GAME?game=ID             a game's start position and moves
//   #/review/ID                         the same for game ID, with its review
//
// Rules stay on the server: every position shown is POST /api/positions's answer, and
// a move is one of its legal_moves; the page only keeps the tree of the moves played.
import { t, num } from '../common/i18n.js';
import * as api from '../net/api.js';
import { drawBoard, boardKeys, pieceSide } from '../board/board.js';
import { h } from '../common/dom.js';
import { cellLabel, pieceName as pieceNameOf } from '../board/cells.js';
import { promotionBox, showPromotion } from '../board/promotion.js';
import * as T from './tree.js';
import { PIECE_LETTERS, positionText } from './notation.js';
import { showOpeningName } from '../openings/opening-name.js';
import { drawGraph, summary, SYMBOL, isError, moverOf } from './review.js';
import { choice, saveChoice } from '../common/storage.js';

const MATE_WORD = { chess: 'engine.mate' }; // the others: "wins in N"
const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
const other = (side) => (side === 'white' ? 'black' : 'white');

function hashParams() {
  return new URLSearchParams(location.hash.split('?')[1] || '');
}

/** Shows the analysis page; `opts`: {game (name), gameId, review: bool}.  Returns the
 *  page's cleanup. */
export async function showAnalysis(host, opts) {
  let game = opts.game;
  let source = null; // the game being analysed, when it is one of the server's games
  const q = hashParams();
  const gameId = opts.gameId || q.get('game');
  if (gameId) {
    source = await api.getGame(gameId);
    game = source.game;
  }
  const entry = await api.entryOf(game);
  if (!entry) throw new Error(`the server has no game '${game}'`);
  game = entry.name;
  const layout = entry.layout;
  const names = layout.cells.map((c) => c.name);

  let tree = null;
  let cur = 0;
  const cache = new Map(); // node id -> position (the server's answer)
  let P = null;            // the position shown
  let sel = null;          // {from, path} while a move is entered
  let promo = null;
  let flipped = source ? source.human_side === 'black' : false;
  let showNames = choice('names') === '1';
  let focusCell = null;
  let handle = null;
  let message = null;      // {text, kind}
  let engineOn = false;
  let multipv = 1;
  let lines = [];
  let linesDone = false;
  let abort = null;
  let spoken = 0;          // when the engine lines were last announced
  let review = null;       // the review, once done
  let reviewState = null;  // {status, done, total} while it runs
  let reviewTimer = null;
  let learn = null;        // {side, list: [ply...], k, tried, solved}
  let editing = null;      // {pieces, side, letter} while the editor is open
  let seq = 0;
  let gone = false;

  // ---- the page
  const bar = h('div', { class: 'eval-bar', id: 'eval-bar', hidden: true, role: 'img', 'aria-label': '' }, h('div', { class: 'eval-white' }));
  const boardHost = h('div', { class: 'board-host', id: 'board' });
  const chooser = promotionBox();
  const nav = h('div', { class: 'nav-buttons', role: 'group', 'aria-label': t('an.navigate') },
    h('button', { type: 'button', id: 'nav-first', 'aria-label': t('an.first'), title: t('an.first'), onclick: () => go(0) }, '⏮'),
    h('button', { type: 'button', id: 'nav-prev', 'aria-label': t('an.prev'), title: t('an.prev'), onclick: () => go(T.prev(tree, cur)) }, '◀'),
    h('button', { type: 'button', id: 'nav-next', 'aria-label': t('an.next'), title: t('an.next'), onclick: () => go(T.next(tree, cur)) }, '▶'),
    h('button', { type: 'button', id: 'nav-last', 'aria-label': t('an.last'), title: t('an.last'), onclick: () => go(T.last(tree, cur)) }, '⏭'),
    h('button', { type: 'button', id: 'flip', onclick: () => { flipped = !flipped; drawNow(); } }, t('play.flip')),
    h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'show-names', checked: showNames, onchange: (e) => {
      showNames = e.target.checked;
      saveChoice('names', showNames ? '1' : '0');
      drawNow();
    } }), ' ', t('play.names')));
  const status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' });
  const note = h('div', { class: 'hint', id: 'note', 'aria-live': 'polite' });
  const title = h('h1', { class: 'game-title' });

  const engineBox = h('input', { type: 'checkbox', id: 'engine-on', onchange: (e) => { engineOn = e.target.checked; restartEngine(); renderEngine(); } });
  const pvSelect = h('select', { id: 'multipv', onchange: (e) => { multipv = Number(e.target.value); restartEngine(); } },
    [1, 2, 3, 4, 5].map((n) => h('option', { value: n }, num(n))));
  const engineLines = h('ol', { class: 'engine-lines', id: 'engine-lines' });
  const engineSpeak = h('p', { class: 'sr-only', id: 'engine-live', 'aria-live': 'polite' });
  const engineInfo = h('p', { class: 'muted small-text', id: 'engine-info' });
  const engineSection = h('section', { class: 'engine', 'aria-labelledby': 'engine-h' },
    h('h2', { id: 'engine-h' }, t('an.engine')),
    h('p', { class: 'engine-controls' }, h('label', { class: 'toggle' }, engineBox, ' ', t('an.engine.on')), ' ',
      h('label', { for: 'multipv' }, t('an.engine.lines')), ' ', pvSelect),
    engineInfo, engineLines, engineSpeak);

  const moveList = h('div', { class: 'tree-moves', id: 'tree', role: 'group', 'aria-label': t('play.moves') });
  const treeActions = h('div', { class: 'tree-actions' },
    h('button', { type: 'button', id: 'promote', class: 'small', onclick: () => { if (T.promote(tree, cur)) { renderTree(); updateLink(); } } }, t('an.promote')),
    h('button', { type: 'button', id: 'delete', class: 'small', onclick: () => { if (cur) go(T.removeVariation(tree, cur)); } }, t('an.delete')));
  const comment = h('input', { type: 'text', id: 'comment', 'aria-label': t('an.comment'), placeholder: t('an.comment'), onchange: (e) => { if (cur) { T.setComment(tree, cur, e.target.value); renderTree(); } } });

  const exportText = h('textarea', { id: 'export-text', rows: 5, readonly: true, spellcheck: 'false', 'aria-label': t('an.export') });
  const link = h('a', { id: 'share-link', href: '#' }, t('an.link'));
  const exportSection = h('details', { class: 'export', id: 'export' },
    h('summary', {}, t('an.export')),
    h('p', {}, h('button', { type: 'button', id: 'export-line', class: 'small', onclick: () => exportPGN(true) }, t('an.export.line')), ' ',
      h('button', { type: 'button', id: 'export-tree', class: 'small', onclick: () => exportPGN(false) }, t('an.export.tree'))),
    exportText,
    h('p', {}, link, ' ', h('button', { type: 'button', class: 'small', id: 'copy-link', onclick: () => navigator.clipboard?.writeText(link.href).catch(() => {}) }, t('an.link.copy'))));

  const posField = h('textarea', { id: 'position-text', rows: 2, spellcheck: 'false', 'aria-label': t('an.position') });
  const recordField = h('textarea', { id: 'record-text', rows: 4, spellcheck: 'false', 'aria-label': t(game === 'chess' ? 'an.import.pgn' : 'an.import.record') });
  const loadSection = h('details', { class: 'load', id: 'load' },
    h('summary', {}, t('an.load')),
    h('p', {}, h('label', { for: 'position-text' }, t('an.position')), h('span', { class: 'muted' }, ' ', t('new.position.hint'))),
    posField,
    h('p', {}, h('button', { type: 'button', id: 'load-position', onclick: () => loadPosition(posField.value.trim()) }, t('an.position.load'))),
    h('p', {}, h('label', { for: 'record-text' }, t(game === 'chess' ? 'an.import.pgn' : 'an.import.record'))),
    recordField,
    h('p', {}, h('button', { type: 'button', id: 'load-record', onclick: () => loadRecord(recordField.value) }, t('an.import.load')), ' ',
      h('button', { type: 'button', id: 'review-record', onclick: () => reviewRecord(recordField.value) }, t('an.import.review'))));

  const editorHost = h('div', { class: 'editor', id: 'editor' });
  const editSection = h('details', { class: 'edit', id: 'edit-section', ontoggle: (e) => { if (e.target.open) openEditor(); else closeEditor(); } },
    h('summary', {}, t('an.edit')), editorHost);

  const reviewHost = h('section', { class: 'review', id: 'review', 'aria-labelledby': 'review-h' });
  const keysHelp = h('details', { class: 'keys', id: 'keys' }, h('summary', {}, t('an.keys')),
    h('dl', {}, ...[['← →', 'an.keys.step'], ['Home End', 'an.keys.ends'], ['↑ ↓', 'an.keys.variations'], ['Enter', 'an.keys.enter']]
      .flatMap(([k, s]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, t(s))])));

  const page = h('div', { class: 'play analysis', 'data-game': game },
    h('div', { class: 'board-col' }, h('div', { class: 'board-row' }, bar, boardHost), chooser, nav),
    h('aside', { class: 'panel' }, title, status, note, engineSection,
      h('h2', { class: 'moves-h' }, t('play.moves')), moveList, treeActions, comment,
      reviewHost, loadSection, editSection, exportSection, keysHelp,
      source ? h('p', {}, h('a', { class: 'button', id: 'back-to-game', href: `#/game/${source.id}` }, t('an.backtogame'))) : null));
  host.replaceChildren(page);

  // ---- the tree and its positions
  async function fetchPosition(id) {
    if (cache.has(id)) return cache.get(id);
    const p = await api.position({ game, position: tree.start, moves: T.movesTo(tree, id) });
    cache.set(id, p);
    return p;
  }

  async function newTree(start, moves = [], goTo = 'end') {
    const root = await api.position({ game, position: start, moves: [] });
    const fields = String(root.position || '').split(/\s+/);
    const t0 = T.createTree({ start: start || null, blackFirst: root.side_to_move === 'black', firstMove: game === 'chess' ? Number(fields[5]) || 1 : 1 });
    tree = t0;
    cache.clear();
    cache.set(0, root);
    posField.value = root.position || '';
    const end = T.addTree(tree, 0, moves);
    review = null;
    learn = null;
    let target = end;
    if (typeof goTo === 'number') {
      target = 0;
      for (let i = 0; i < goTo; i++) target = T.next(tree, target);
    }
    await go(target);
  }

  async function go(id) {
    if (!tree || !(id in tree.nodes)) return;
    const mine = ++seq;
    cur = id;
    sel = null;
    promo = null;
    renderTree();
    try {
      const p = await fetchPosition(id);
      if (mine !== seq || gone) return;
      P = p;
      if (!learn || learn.answered) message = null;
    } catch (err) {
      if (mine !== seq || gone) return;
      message = { text: t('error.generic', { message: err.message }), kind: 'error' };
    }
    render();
    page.dataset.shown = String(id); // the board shows node `id` (tests wait on it)
    restartEngine();
    updateLink();
  }

  function play(mv) {
    if (learn && !learn.answered && tryLearn(mv)) return;
    const id = T.addMove(tree, cur, mv.move, mv.display);
    go(id);
  }

  // ---- drawing
  const pieceName = (letter) => pieceNameOf(game, letter);
  const legal = () => (editing || !P ? [] : P.legal_moves || []);
  const candidates = () => (sel ? legal().filter((m) => m.from === sel.from && sel.path.every((c, i) => m.path[i] === c)) : []);

  function lastCells() {
    const n = tree && tree.nodes[cur];
    if (!n || !n.move) return [];
    const before = cache.get(n.parent);
    const mv = before && (before.legal_moves || []).find((m) => m.move === n.move);
    return mv ? [mv.from, ...mv.path] : [];
  }

  function marks() {
    const m = { last: lastCells(), selected: [], targets: [], captureTargets: [], movable: [], allowed: [], path: [], capturing: [], check: [] };
    if (editing) return m;
    if (!sel) return m; // no 'movable' marks: the analysis board is for looking
    m.selected = [sel.from];
    m.path = [...sel.path];
    const k = sel.path.length;
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
    if (editing || !P) return [];
    // Learning: once answered, the better move is shown on the board.
    if (learn && learn.answered && learn.result !== 'right') {
      const p = review.plies.find((x) => x.ply === learn.list[learn.k]);
      const mv = p && (P.legal_moves || []).find((m) => m.move === p.best);
      return mv ? [{ from: mv.from, to: mv.to, kind: 'best' }] : [];
    }
    if (!engineOn || !lines.length) return [];
    const out = [];
    lines.slice(0, multipv).forEach((ln, i) => {
      const mv = (P.legal_moves || []).find((m) => m.move === (ln.pv || [])[0]);
      if (mv) out.push({ from: mv.from, to: mv.to, kind: i === 0 ? 'best' : 'line' });
    });
    return out.reverse(); // the best drawn last, on top
  }


  function drawNow() {
    if (!P && !editing) return;
    const mk = marks();
    const hadFocus = boardHost.contains(document.activeElement);
    const pieces = editing ? editing.pieces : shownPieces();
    handle = drawBoard(boardHost, layout, pieces, {
      game, flipped, labels: showNames, marks: mk, interactive: true, arrows: arrows(),
      title: t('an.board', { game: t(`game.${game}`) }), label: (n, p) => cellLabel(game, layout, n, p, mk),
    });
    handle.svg.classList.add('my-turn');
    if (!focusCell || !handle.cellNode(focusCell)) focusCell = mk.selected[0] || mk.movable[0] || handle.names[0];
    const node = handle.cellNode(focusCell);
    node.setAttribute('tabindex', '0');
    if (hadFocus) node.focus({ preventScroll: true });
  }

  function shownPieces() {
    if (!sel || !sel.path.length) return P.pieces;
    const p = { ...P.pieces };
    const moving = p[sel.from];
    delete p[sel.from];
    p[sel.path[sel.path.length - 1]] = moving;
    return p;
  }

  function renderStatus() {
    title.textContent = t('an.title', { game: t(`game.${game}`) });
    if (editing) status.textContent = t('an.edit.status');
    else if (!P) status.textContent = '…';
    else if (P.status && P.status.result !== 'ongoing') {
      const r = P.status.result;
      status.textContent = (r === 'draw' ? t('result.draw') : t(r === 'white-wins' ? 'result.white' : 'result.black')) + ' — ' + t('reason.' + P.status.reason);
    } else status.textContent = t('an.tomove', { side: t('side.' + P.side_to_move), ply: num(T.plyOf(tree, cur)) });
    const items = [];
    if (message) items.push(h('p', { class: message.kind || '' }, message.text));
    if (learn) items.push(learnBox());
    note.replaceChildren(...items);
  }

  function renderTree() {
    if (!tree) return;
    const hadFocus = moveList.contains(document.activeElement);
    const byPly = review ? new Map(review.plies.map((p) => [p.ply, p])) : null;
    const stack = [moveList];
    const inner = [];
    let brk = false; // a variation or comment came between: a black move shows its number
    for (const r of T.rows(tree)) {
      if (r.end) { stack.pop(); brk = true; continue; }
      if (r.start) {
        const v = h('span', { class: 'variation', 'data-depth': r.depth });
        if (stack[stack.length - 1] === moveList) inner.push(v); else stack[stack.length - 1].append(v);
        stack.push(v);
      }
      const rv = byPly && T.isMain(tree, r.id) ? byPly.get(r.ply) : null;
      const numText = !r.black ? num(r.number) + '.' : r.start || brk || r.ply === 1 ? num(r.number) + '…' : '';
      brk = !!r.comment;
      const btn = h('button', { type: 'button', class: 'mv' + (r.id === cur ? ' current' : '') + (rv ? ` c-${rv.class}` : ''), 'data-node': r.id, 'data-ply': r.ply,
        'aria-current': r.id === cur ? 'step' : null, tabindex: r.id === cur || (!cur && r.ply === 1 && !r.depth) ? '0' : '-1',
        'aria-label': `${num(r.number)}${r.black ? '…' : '.'} ${r.text}` + (rv ? ', ' + t('class.' + rv.class) : '') + (r.depth ? ', ' + t('an.variation') : ''),
        onclick: () => go(r.id) },
        numText ? h('span', { class: 'num' }, numText) : null, r.text,
        rv && SYMBOL[rv.class] ? h('span', { class: `mark c-${rv.class}`, 'aria-hidden': 'true' }, SYMBOL[rv.class]) : null);
      const target = stack[stack.length - 1];
      const put = (x) => (target === moveList ? inner.push(x) : target.append(x));
      put(btn);
      if (r.comment) put(h('span', { class: 'comment' }, r.comment));
      if (rv && isError(rv.class) && rv.best_display && rv.best !== rv.move) {
        put(h('span', { class: 'better', 'data-ply': r.ply }, t('review.better', { move: rv.best_display })));
        brk = true;
      }
    }
    moveList.replaceChildren(...(inner.length ? inner : [h('span', { class: 'muted' }, t('an.nomoves'))]));
    const curBtn = moveList.querySelector('.mv.current');
    if (curBtn) {
      curBtn.scrollIntoView({ block: 'nearest' });
      if (hadFocus) curBtn.focus({ preventScroll: true });
    }
    comment.value = cur && tree.nodes[cur] ? tree.nodes[cur].comment : '';
    comment.disabled = !cur;
    document.getElementById('promote').disabled = !cur || T.isMain(tree, cur);
    document.getElementById('delete').disabled = !cur;
    if (review) renderGraph();
  }

  function renderChooser() {
    showPromotion(chooser, game, promo, P && P.side_to_move === 'white', {
      pick: (mv) => { promo = null; renderChooser(); play(mv); },
      cancel: () => { promo = null; sel = null; render(); },
    });
  }

  function render() {
    drawNow();
    renderStatus();
    renderChooser();
    renderEngine();
    renderTree();
    showOpeningName(page.querySelector('.panel'), P);
  }

  // ---- entering moves: click the piece, then each cell of the move's path
  function clickCell(cell) {
    focusCell = cell;
    if (editing) return editCell(cell);
    if (promo || !P) return;
    if (sel) {
      const k = sel.path.length;
      const nxt = candidates().filter((m) => m.path[k] === cell);
      if (nxt.length) {
        sel.path.push(cell);
        const done = nxt.filter((m) => m.path.length === sel.path.length);
        if (done.length === nxt.length) {
          if (done.length === 1) { const mv = done[0]; sel = null; return play(mv); }
          promo = done;
        }
        return render();
      }
      sel = k === 0 && cell !== sel.from && legal().some((m) => m.from === cell) ? { from: cell, path: [] } : null;
      return render();
    }
    if (legal().some((m) => m.from === cell)) sel = { from: cell, path: [] };
    render();
  }

  boardHost.addEventListener('click', (e) => {
    const g = e.target.closest && e.target.closest('[data-cell]');
    if (g) clickCell(g.dataset.cell);
  });
  boardKeys(boardHost, {
    handle: () => handle,
    activate: clickCell,
    cancel: () => { sel = null; promo = null; render(); },
    focused: (cell) => { focusCell = cell; },
    stop: true,
  });

  // Keys anywhere on the page but in fields and on the board: ← → Home End ↑ ↓.
  function onKey(e) {
    if (!tree || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (e.target.tagName || '').toLowerCase();
    if (['input', 'textarea', 'select'].includes(tag) || boardHost.contains(e.target) || editing) return;
    const to = { ArrowLeft: () => T.prev(tree, cur), ArrowRight: () => T.next(tree, cur), Home: () => 0, End: () => T.last(tree, cur),
      ArrowUp: () => T.sibling(tree, cur, -1), ArrowDown: () => T.sibling(tree, cur, 1) }[e.key];
    if (!to) return;
    e.preventDefault();
    go(to());
  }
  document.addEventListener('keydown', onKey);

  // ---- the engine: off until switched on; one stream at a time, restarted on every move
  function stopEngine() {
    if (abort) abort.abort();
    abort = null;
  }

  function restartEngine() {
    stopEngine();
    lines = [];
    linesDone = false;
    if (!engineOn || !P || editing || (P.status && P.status.result !== 'ongoing')) { renderEngine(); drawNow(); return; }
    const ctl = new AbortController();
    abort = ctl;
    const at = cur;
    renderEngine();
    // A short pause first, so that stepping through moves with the keys does not start
    // (and stop) an analysis for every position passed; a busy server (429, 503) is
    // asked again a little later.
    const run = (tries) => api.analyse({ game, position: tree.start, moves: T.movesTo(tree, at), multipv }, (ls, done) => {
      if (ctl.signal.aborted || at !== cur) return;
      lines = ls;
      linesDone = done;
      renderEngine();
      drawNow();
    }, ctl.signal).catch((err) => {
      if (ctl.signal.aborted) return;
      if ((err.status === 429 || err.status === 503) && tries < 8) return wait(600, ctl.signal).then(() => run(tries + 1), () => {});
      engineInfo.textContent = t('error.generic', { message: err.message });
    });
    wait(250, ctl.signal).then(() => run(0), () => {});
  }

  function wait(ms, signal) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => { clearTimeout(timer); reject(new Error('aborted')); });
    });
  }

  function scoreText(ln, stm) {
    const sign = stm === 'white' ? 1 : -1;
    if (ln.mate !== null && ln.mate !== undefined && ln.mate !== 0) {
      const winner = ln.mate > 0 ? stm : other(stm);
      return t(MATE_WORD[game] || 'engine.wins', { side: t('side.' + winner), n: num(Math.abs(ln.mate)) });
    }
    const s = Number(ln.score) * sign;
    if (game === 'chess') return num((s >= 0 ? '+' : '−') + Math.abs(s / 100).toFixed(2));
    return num((s >= 0 ? '+' : '−') + Math.abs(s));
  }

  function lineText(ln) {
    const ply0 = T.plyOf(tree, cur);
    return (ln.pv_display || ln.pv || []).slice(0, 12).map((d, i) => {
      const { number, black } = T.numbering(tree, ply0 + i + 1);
      return (!black ? num(number) + '. ' : i === 0 ? num(number) + '… ' : '') + d;
    }).join(' ');
  }

  function renderEngine() {
    engineBox.checked = engineOn;
    pvSelect.value = String(multipv);
    pvSelect.disabled = !engineOn;
    const stm = P ? P.side_to_move : 'white';
    if (!engineOn) {
      bar.hidden = true;
      engineInfo.textContent = t('an.engine.off');
      engineLines.replaceChildren();
      return;
    }
    if (P && P.status && P.status.result !== 'ongoing') {
      bar.hidden = true;
      engineInfo.textContent = t('an.engine.over');
      engineLines.replaceChildren();
      return;
    }
    engineInfo.textContent = !lines.length ? t('an.engine.thinking') : linesDone ? t('an.engine.done', { depth: num(lines[0].depth) }) : t('an.engine.running', { depth: num(lines[0].depth) });
    engineLines.replaceChildren(...lines.slice(0, multipv).map((ln) => h('li', { class: 'engine-line', 'data-multipv': ln.multipv },
      h('span', { class: 'score' }, scoreText(ln, stm)), ' ',
      h('span', { class: 'depth muted' }, t('an.engine.depth', { depth: num(ln.depth) })), ' ',
      h('span', { class: 'pv' }, lineText(ln)))));
    const best = lines[0];
    bar.hidden = false;
    if (best) {
      const w = stm === 'white' ? best.win : 1 - best.win;
      bar.firstChild.style.height = `${Math.round(w * 100)}%`;
      bar.setAttribute('aria-label', t('an.bar', { white: num(Math.round(w * 100)), black: num(100 - Math.round(w * 100)) }));
      bar.dataset.white = String(Math.round(w * 100));
      // Spoken at a polite rate: the best line at most every four seconds, and when done.
      const now = Date.now();
      if (linesDone || now - spoken > 4000) {
        spoken = now;
        engineSpeak.textContent = `${scoreText(best, stm)}, ${t('an.engine.depth', { depth: num(best.depth) })}: ${lineText(best)}`;
      }
    }
  }

  // ---- loading positions and records
  async function loadPosition(text) {
    message = null;
    try {
      await newTree(text || null, []);
      message = { text: t('an.position.ok'), kind: 'info' };
      renderStatus();
    } catch (err) {
      message = { text: t('an.position.bad', { message: err.message }), kind: 'error' };
      renderStatus();
    }
  }

  async function loadRecord(text) {
    message = null;
    try {
      const p = await api.position({ game, record: text });
      await newTree(p.start_position || null, p.tree);
      message = { text: t('an.import.ok', { n: num(p.moves.length) }), kind: 'info' };
    } catch (err) {
      message = { text: t('an.import.bad', { message: err.message }), kind: 'error' };
    }
    renderStatus();
  }

  async function reviewRecord(text) {
    try {
      const p = await api.position({ game, record: text });
      await newTree(p.start_position || null, p.tree, 0);
      const r = await api.importReview(game, text);
      runReview(() => api.getImportedReview(r.id), r);
    } catch (err) {
      message = { text: t('an.import.bad', { message: err.message }), kind: 'error' };
      renderStatus();
    }
  }

  // ---- the editor: place and remove pieces, set the side to move
  function openEditor() {
    if (!P) return;
    stopEngine();
    editing = { pieces: { ...P.pieces }, side: P.side_to_move, letter: PIECE_LETTERS[game][0], template: P.position };
    renderEditor();
    render();
  }

  function closeEditor() {
    if (!editing) return;
    editing = null;
    editorHost.replaceChildren();
    render();
    restartEngine();
  }

  function editCell(cell) {
    const p = editing.pieces[cell];
    const letter = editing.letter.replace('*', '');
    const captured = editing.letter.endsWith('*');
    if (!letter || (p && p.piece === letter && !!p.captured === captured)) delete editing.pieces[cell];
    else editing.pieces[cell] = { piece: letter, captured };
    drawNow();
    renderEditorText();
  }

  function renderEditorText() {
    const out = editorHost.querySelector('#editor-text');
    if (out) out.value = positionText(game, layout, editing.pieces, editing.side, editing.template);
  }

  function renderEditor() {
    // Agon's text marks a captured piece with '*': the palette offers those too.
    const letters = [...PIECE_LETTERS[game], ...(game === 'agon' ? PIECE_LETTERS[game].map((l) => l + '*') : []), ''];
    const palette = h('div', { class: 'palette', role: 'radiogroup', 'aria-label': t('an.edit.palette') }, letters.map((l) => {
      const side = l ? pieceSide(l[0], game) : '';
      const label = l ? `${t('side.' + side)} ${pieceName(l[0])}` + (l.endsWith('*') ? `, ${t('play.captured')}` : '') : t('an.edit.remove');
      return h('button', { type: 'button', role: 'radio', class: 'pal' + (l ? ` ${side}` : ' remove'), 'data-letter': l, 'aria-checked': editing.letter === l ? 'true' : 'false', 'aria-label': label, title: label,
        onclick: () => { editing.letter = l; renderEditor(); } },
        l ? (game === 'chess' ? GLYPH[l.toLowerCase()] : l) : '✕');
    }));
    const side = h('select', { id: 'editor-side', onchange: (e) => { editing.side = e.target.value; renderEditorText(); } },
      ['white', 'black'].map((s) => h('option', { value: s, selected: editing.side === s }, t('side.' + s))));
    editorHost.replaceChildren(
      h('p', { class: 'muted' }, t('an.edit.hint')),
      palette,
      h('p', {}, h('label', { for: 'editor-side' }, t('an.edit.side')), ' ', side, ' ',
        h('button', { type: 'button', class: 'small', id: 'editor-clear', onclick: () => { editing.pieces = {}; drawNow(); renderEditorText(); } }, t('an.edit.clear')), ' ',
        h('button', { type: 'button', class: 'small', id: 'editor-start', onclick: () => {
          editing.pieces = api.piecesOf(layout, cache.get(0) && !tree.start ? cache.get(0).board : [], []);
          if (tree.start) api.position({ game, position: null, moves: [] }).then((p) => { editing.pieces = p.pieces; editing.template = p.position; drawNow(); renderEditorText(); });
          drawNow(); renderEditorText();
        } }, t('an.edit.start'))),
      h('textarea', { id: 'editor-text', rows: 2, readonly: true, spellcheck: 'false', 'aria-label': t('an.position') }),
      h('p', {}, h('button', { type: 'button', class: 'primary', id: 'editor-done', onclick: async () => {
        const text = positionText(game, layout, editing.pieces, editing.side, editing.template);
        try {
          await api.position({ game, position: text, moves: [] });
        } catch (err) {
          message = { text: t('an.position.bad', { message: err.message }), kind: 'error' };
          return renderStatus();
        }
        editing = null;
        editSection.open = false;
        editorHost.replaceChildren();
        await loadPosition(text);
      } }, t('an.edit.done'))));
    renderEditorText();
    const on = editorHost.querySelector('.pal[aria-checked="true"]');
    if (on && document.activeElement && document.activeElement.classList && document.activeElement.classList.contains('pal')) on.focus();
  }

  // ---- export and the link
  function exportPGN(lineOnly) {
    const opts = { variant: game === 'chess' ? null : entry.title };
    if (lineOnly) opts.line = cur;
    exportText.value = T.toPGN(tree, opts);
    exportText.focus();
    exportText.select();
  }

  function updateLink() {
    const params = new URLSearchParams();
    if (tree.start) params.set('position', tree.start);
    const moves = T.movesTo(tree, cur);
    if (moves.length) params.set('moves', moves.join(','));
    link.href = `${location.origin}${location.pathname}#/analysis/${game}` + (params.toString() ? '?' + params : '');
  }

  // ---- the review
  function runReview(poll, first) {
    clearInterval(reviewTimer);
    review = null;
    reviewState = first;
    renderReview();
    const step = async () => {
      try {
        const r = await poll();
        if (gone) return;
        if (r.status === 'done') {
          clearInterval(reviewTimer);
          review = r;
          reviewState = null;
          renderReview();
          renderTree();
          return;
        }
        reviewState = r;
        renderReview();
      } catch (err) {
        clearInterval(reviewTimer);
        reviewState = { status: 'error', message: err.message };
        renderReview();
      }
    };
    if (first && first.status === 'done') { reviewState = null; review = first; renderReview(); renderTree(); return; }
    reviewTimer = setInterval(step, 700);
    step();
  }

  async function startGameReview() {
    try {
      const r = await api.startReview(source.id);
      runReview(() => api.getReview(source.id), r);
    } catch (err) {
      reviewState = { status: 'error', message: err.message };
      renderReview();
    }
  }

  const graphHost = h('div', { class: 'graph-host', id: 'graph' });
  function renderGraph() {
    if (!review) return;
    drawGraph(graphHost, review, tree.blackFirst, T.isMain(tree, cur) ? T.plyOf(tree, cur) : -1, (ply) => {
      let id = 0;
      for (let i = 0; i < ply; i++) id = T.next(tree, id);
      go(id);
    });
  }

  function renderReview() {
    const items = [h('h2', { id: 'review-h' }, t('review.heading'))];
    if (!review && !reviewState) {
      if (source) items.push(h('p', {}, h('button', { type: 'button', id: 'start-review', class: 'primary', onclick: startGameReview }, t('review.start'))));
      else items.push(h('p', { class: 'muted' }, t('review.import')));
    } else if (reviewState && reviewState.status === 'error') items.push(h('p', { class: 'error' }, t('error.generic', { message: reviewState.message })));
    else if (reviewState) {
      const done = reviewState.done || 0, total = reviewState.total || 0;
      items.push(h('p', { id: 'review-progress-text' }, t('review.running', { done: num(done), total: num(total) })),
        h('progress', { id: 'review-progress', max: total || 1, value: done, 'aria-label': t('review.heading') }));
    } else {
      items.push(graphHost, summary(review, tree.blackFirst));
      const sides = source ? [source.human_side] : ['white', 'black'];
      items.push(h('p', {}, ...sides.map((s) => h('button', { type: 'button', class: 'learn-button', id: `learn-${s}`, onclick: () => startLearn(s) },
        t(source ? 'learn.start' : 'learn.start.side', { side: t('side.' + s) })))));
    }
    reviewHost.replaceChildren(...items);
    if (review) renderGraph();
  }

  // ---- learn from your mistakes
  function nodeAtPly(ply) {
    let id = 0;
    for (let i = 0; i < ply; i++) id = T.next(tree, id);
    return id;
  }

  function startLearn(side) {
    const list = review.plies.filter((p) => (p.class === 'mistake' || p.class === 'blunder') && moverOf(p.ply, tree.blackFirst) === side && p.best && p.best !== p.move).map((p) => p.ply);
    learn = { side, list, k: 0, answered: false, result: null };
    if (!list.length) { message = { text: t('learn.none'), kind: 'info' }; learn = null; renderStatus(); return; }
    learnStep();
  }

  function learnStep() {
    learn.answered = false;
    learn.result = null;
    const ply = learn.list[learn.k];
    go(nodeAtPly(ply - 1));
  }

  function tryLearn(mv) {
    const p = review.plies.find((x) => x.ply === learn.list[learn.k]);
    if (mv.move === p.best || mv.display === p.best_display) {
      learn.answered = true;
      learn.result = 'right';
      message = null;
      const id = T.addMove(tree, cur, mv.move, mv.display);
      go(id);
      return true;
    }
    learn.result = 'wrong';
    sel = null;
    renderStatus();
    drawNow();
    return true;
  }

  function learnBox() {
    const p = review.plies.find((x) => x.ply === learn.list[learn.k]);
    const parts = [h('strong', {}, t('learn.heading', { k: num(learn.k + 1), n: num(learn.list.length) })), ' '];
    if (learn.result === 'right') parts.push(h('span', { id: 'learn-result', class: 'right' }, t('learn.right', { move: p.best_display })));
    else if (learn.answered) parts.push(h('span', { id: 'learn-result' }, t('learn.answer', { move: p.best_display })));
    else {
      parts.push(h('span', { id: 'learn-task' }, t('learn.task', { side: t('side.' + learn.side), move: p.display })));
      if (learn.result === 'wrong') parts.push(' ', h('span', { id: 'learn-result', class: 'wrong' }, t('learn.wrong')));
    }
    const btns = [];
    if (!learn.answered) btns.push(h('button', { type: 'button', class: 'small', id: 'learn-show', onclick: () => { learn.answered = true; renderStatus(); drawNow(); } }, t('learn.show')));
    if (learn.k + 1 < learn.list.length) btns.push(h('button', { type: 'button', class: 'small', id: 'learn-next', onclick: () => { learn.k++; learnStep(); } }, t('learn.next')));
    btns.push(h('button', { type: 'button', class: 'small', id: 'learn-stop', onclick: () => { learn = null; message = null; renderStatus(); } }, t('learn.stop')));
    return h('div', { class: 'learn', id: 'learn' }, h('p', {}, ...parts), h('p', { class: 'learn-buttons' }, ...btns));
  }

  // ---- start
  document.title = `${t('an.title', { game: t(`game.${game}`) })} — agora`;
  if (source) {
    const ply = q.has('ply') ? Number(q.get('ply')) : 'end';
    await newTree(source.start_position || null, source.moves.map((m) => ({ move: m.move, display: m.display })), opts.review ? 0 : ply);
  } else {
    const moves = (q.get('moves') || '').split(',').filter(Boolean);
    const start = q.get('position') || null;
    // Moves from a link get their display texts from the server, as played.
    let line = moves;
    if (moves.length) {
      const p = await api.position({ game, position: start, moves });
      line = p.moves.map((m) => ({ move: m.move, display: m.display }));
    }
    await newTree(start, line, q.has('ply') ? Number(q.get('ply')) : 'end');
  }
  renderReview();
  if (opts.review && source) {
    try {
      const r = await api.getReview(source.id);
      if (r.status === 'done') runReview(() => api.getReview(source.id), r);
      else startGameReview();
    } catch { startGameReview(); }
  }

  return () => {
    gone = true;
    stopEngine();
    clearInterval(reviewTimer);
    document.removeEventListener('keydown', onKey);
  };
}

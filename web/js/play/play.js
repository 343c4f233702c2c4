// The play page: one game against the computer.
//
// Everything the board offers comes from the state the server sends (src/server/API.md):
// its legal moves (with from, to, path, captured, flags, promotion), the pieces, the
// status and the claims; the board's geometry from the catalogue.  The page only
// filters those lists as the player clicks:
//   - a move is chosen by clicking its `from` cell, then each cell of its `path`;
//     when exactly one move remains whose path is complete, it is sent;
//   - moves sharing the whole path and differing in `promotion` open a chooser;
//   - when every legal move is a return (Agon), the return turn is explained.
import { errorText, t, num } from '../common/i18n.js';
import * as api from '../net/api.js';
import { drawBoard, boardKeys } from '../board/board.js';
import { h } from '../common/dom.js';
import { showOpeningName } from '../openings/opening-name.js';
import { cellLabel } from '../board/cells.js';
import { tellLast, notationLegend, moveTitle } from '../board/narrate.js';
import { animateMove, motionToggle } from '../board/animate.js';
import { namesToggle } from '../board/names.js';
import { soundOfMove, soundToggle } from '../board/sound.js';
import { peoplePanel } from './people-panel.js';
import { promotionBox, showPromotion } from '../board/promotion.js';
import { attachDrag } from '../board/board-drag.js';
import { cellsInText, piecesAfter } from '../board/moves.js';

// How each game words its moments; display choices, not rules.
const UI = {
  chess: { drawOffer: true, showCheck: true },
  agon: {},
  'egara-guti': { forcedCapture: true },
};

const other = (side) => (side === 'white' ? 'black' : 'white');

// What the player may do and what the board shows: the legal moves, the marks, the pieces.
function rules(ctx) {
  const { g, cfg } = ctx;
  const mine = () => g.S.human_side;
  const myTurn = () => g.S.status.result === 'ongoing' && g.S.side_to_move === g.S.human_side && !!api.tokenOf(g.S.id);
  const legal = () => (myTurn() && !g.back ? g.S.legal_moves || [] : []);
  const allReturns = () => legal().length > 0 && legal().every((m) => m.flags.includes('return'));
  const allCaptures = () => legal().length > 0 && legal().every((m) => m.flags.includes('capture'));
  const candidates = () => (g.sel ? legal().filter((m) => m.from === g.sel.from && g.sel.path.every((c, i) => m.path[i] === c)) : []);

  function lastCells() {
    if (g.back) return g.back.last;
    const last = g.S.moves[g.S.moves.length - 1];
    return last ? cellsInText(last.move, g.S.layout.cells.map((c) => c.name)) : [];
  }

  function checkCell() {
    if (!cfg.showCheck) return [];
    const last = g.S.moves[g.S.moves.length - 1];
    if (!last || !/[+#]$/.test(last.display)) return [];
    const king = g.S.side_to_move === 'white' ? 'K' : 'k';
    return Object.keys(g.S.pieces).filter((c) => g.S.pieces[c].piece === king);
  }

  function marks() {
    const m = { last: lastCells(), check: checkCell(), selected: [], targets: [], captureTargets: [], allowed: [], movable: [], capturing: [], path: [] };
    if (g.pending) return { ...m, last: [g.pending.from, ...g.pending.path], check: [] };
    if (!myTurn()) return m;
    if (!g.sel) {
      if (allReturns() || (cfg.forcedCapture && allCaptures())) m.movable = [...new Set(legal().map((x) => x.from))];
      return m;
    }
    m.selected = [g.sel.from];
    m.path = [...g.sel.path];
    const cands = candidates();
    const k = g.sel.path.length;
    for (const mv of cands) {
      const next = mv.path[k];
      if (!next) continue;
      if (mv.flags.includes('return')) m.allowed.push(next);
      else if (mv.flags.includes('capture')) m.captureTargets.push(next);
      else m.targets.push(next);
    }
    // Pieces already jumped in the chain being entered.
    if (k > 0 && cands[0]) m.capturing = cands[0].captured.slice(0, k);
    return m;
  }

  function shownPieces() {
    if (g.back) return g.back.pieces;
    if (g.pending) return piecesAfter(g.S.pieces, g.pending); // until the server answers
    if (!g.sel || !g.sel.path.length) return g.S.pieces;
    const p = { ...g.S.pieces };
    const moving = p[g.sel.from];
    delete p[g.sel.from];
    p[g.sel.path[g.sel.path.length - 1]] = moving;
    return p;
  }
  return { mine, myTurn, legal, allReturns, allCaptures, candidates, lastCells, checkCell, marks, shownPieces };
}

// The board: drawn, clicked, dragged, keyed; the promotion chooser.
function boardView(ctx) {
  const { g, boardHost, chooser } = ctx;
  function drawBoardNow() {
    const mk = ctx.marks();
    const hadFocus = boardHost.contains(document.activeElement);
    g.handle = drawBoard(boardHost, g.S.layout, ctx.shownPieces(), {
      game: g.S.game, flipped: g.flipped, names: true, marks: mk, interactive: true,
      title: t('play.board', { game: t(`game.${g.S.game}`) }),
      label: (name, piece) => cellLabel(g.S.game, g.S.layout, name, piece, mk),
    });
    g.handle.svg.classList.toggle('my-turn', ctx.myTurn() && !g.busy);
    if (!g.focusCell || !g.handle.cellNode(g.focusCell)) g.focusCell = mk.selected[0] || mk.movable[0] || g.handle.names[0];
    const node = g.handle.cellNode(g.focusCell);
    node.setAttribute('tabindex', '0');
    if (hadFocus) node.focus({ preventScroll: true });
  }

  function renderChooser() {
    showPromotion(chooser, g.S.game, g.promo, ctx.mine() === 'white', {
      pick: (mv) => { g.promo = null; renderChooser(); ctx.send(mv.move); },
      cancel: () => { g.promo = null; g.sel = null; ctx.render(); },
    });
  }

  // A click (or Enter) on a cell: select, extend the path, or send the move.
  function clickCell(cell) {
    if (g.back) { g.back = null; ctx.render(); return; } // the board comes back to the present
    if (!ctx.myTurn() || g.busy || g.promo) return;
    g.focusCell = cell;
    g.notice = null;
    if (g.sel) {
      const k = g.sel.path.length;
      const next = ctx.candidates().filter((m) => m.path[k] === cell);
      if (next.length) {
        g.sel.path.push(cell);
        const done = next.filter((m) => m.path.length === g.sel.path.length);
        if (done.length === next.length) {
          if (done.length === 1) return ctx.send(done[0].move);
          g.promo = done;
        }
        return ctx.render();
      }
      // Castling by king then rook: the legal move whose also_from is the cell clicked.
      const castle = k === 0 ? ctx.candidates().filter((m) => m.also_from === cell) : [];
      if (castle.length === 1) return ctx.send(castle[0].move);
      if (k === 0 && cell !== g.sel.from && ctx.legal().some((m) => m.from === cell)) g.sel = { from: cell, path: [] };
      else g.sel = null;
      return ctx.render();
    }
    if (ctx.legal().some((m) => m.from === cell)) g.sel = { from: cell, path: [] };
    ctx.render();
  }

  // Drag: press on a piece that can move, drop on a destination (board-drag.js).
  const detachDrag = attachDrag(boardHost, {
    svg: () => g.handle.svg,
    pick(cell) {
      const castles = g.sel && !g.sel.path.length && ctx.legal().some((m) => m.from === g.sel.from && m.also_from === cell);
      if (ctx.myTurn() && !g.busy && !g.promo && !castles && (!g.sel || !g.sel.path.length) && g.sel?.from !== cell && ctx.legal().some((m) => m.from === cell)) {
        g.sel = { from: cell, path: [] };
        g.focusCell = cell;
        ctx.render();
        return true;
      }
      return false;
    },
    selected: (cell) => !!g.sel && g.sel.from === cell && !g.sel.path.length,
    click: (cell) => clickCell(cell),
    render: () => ctx.render(),
  });

  boardKeys(boardHost, {
    handle: () => g.handle,
    activate: clickCell,
    cancel: () => { g.sel = null; g.promo = null; ctx.render(); },
    focused: (cell) => { g.focusCell = cell; },
  });
  return { drawBoardNow, renderChooser, clickCell, detachDrag };
}

// The status line, the result banner and the hints.
function statusView(ctx) {
  const { g, cfg, people, status, hint, banner, title } = ctx;
  function resultText() {
    const r = g.S.status.result;
    const reason = t('reason.' + g.S.status.reason);
    const head = r === 'draw' ? t('result.draw') : t(r === 'white-wins' ? 'result.white' : 'result.black');
    let you = t('result.drawn');
    if (r !== 'draw') you = g.S.status.winner === ctx.mine() ? t('result.won') : t(people ? 'people.lost' : 'result.lost');
    if (people && !g.S.you) return { you: head, head: '', reason }; // a spectator
    return { you, head, reason };
  }

  function renderStatus() {
    title.textContent = t(`game.${g.S.game}`) + ' · ' + (people ? people.title() : t('play.level', { level: g.S.level }));
    const over = g.S.status.result !== 'ongoing';
    status.classList.toggle('thinking', !over && !ctx.myTurn());
    if (over) status.textContent = t('play.over');
    else if (g.pending) {
      status.textContent = t('play.thinking');
      status.classList.add('thinking');
    } else if (ctx.myTurn()) {
      const last = g.S.moves[g.S.moves.length - 1];
      status.textContent = g.busy ? t('play.sending') : t('play.yourmove', { side: t('side.' + ctx.mine()) });
      if (!g.busy && last) status.append(h('span', { class: 'reply' }, tellLast(g.S)));
    }
    else if (!api.tokenOf(g.S.id)) status.textContent = t('play.watching');
    else status.textContent = t(people ? 'people.theirmove' : 'play.thinking');

    banner.hidden = !over;
    if (over) {
      const r = resultText();
      banner.className = 'banner ' + (g.S.status.result === 'draw' ? 'draw' : g.S.status.winner === ctx.mine() ? 'won' : 'lost');
      banner.replaceChildren(h('strong', {}, r.you), h('span', {}, r.head ? `${r.head} — ${r.reason}` : r.reason));
    }

    const lines = [];
    if (g.back) lines.push(h('p', { class: 'looking-back', id: 'looking-back' }, t('play.lookingback', { ply: num(g.back.ply), n: num(g.S.moves.length) }), ' ',
      h('button', { type: 'button', class: 'small', id: 'to-present', onclick: () => { g.back = null; ctx.render(); } }, t('play.present'))));
    if (g.notice) lines.push(h('p', { class: g.notice.kind || '' }, g.notice.text));
    if (ctx.myTurn() && !g.busy) {
      const ret = ctx.allReturns();
      if (ret) {
        const froms = [...new Set(ctx.legal().map((x) => x.from))];
        const queen = froms.some((c) => g.S.pieces[c] && g.S.pieces[c].piece.toLowerCase() === 'q');
        lines.push(h('p', { class: 'return-turn', id: 'return-hint' },
          h('strong', {}, t('agon.return.title')), ' ',
          t(queen ? 'agon.return.queen' : froms.length > 1 ? 'agon.return.guards' : 'agon.return.guard')));
      }
      if (g.sel && g.sel.path.length && ctx.candidates().some((m) => m.path.length > g.sel.path.length)) lines.push(h('p', { class: 'chain', id: 'chain-hint' }, h('strong', {}, t('egara.chain.title')), ' ', t('egara.chain.text')));
      else if (!ret && cfg.forcedCapture && ctx.allCaptures()) lines.push(h('p', { class: 'forced', id: 'forced-hint' }, t('egara.forced')));
      if (ctx.checkCell().length) lines.push(h('p', { class: 'check', id: 'check-hint' }, t('chess.check')));
      if ((g.S.claims || []).length) lines.push(h('p', { class: 'claim' }, t('chess.claimable', { claim: g.S.claims.map((c) => t('claim.' + c)).join(', ') })));
    } else if (!ctx.myTurn() && ctx.checkCell().length && g.S.status.result === 'ongoing') lines.push(h('p', { class: 'check', id: 'check-hint' }, t('chess.check')));
    hint.replaceChildren(...lines);
  }
  return { resultText, renderStatus };
}

// The buttons under the status: the switches, flip, draw, claims, take back, resign,
// new game, record, analysis, review, rules.
function controlsView(ctx) {
  const { g, cfg, people, controls } = ctx;
  function renderControls() {
    const over = g.S.status.result !== 'ongoing';
    const mineToken = !!api.tokenOf(g.S.id);
    const items = [];
    items.push(namesToggle(g.S.layout.shape), motionToggle(), soundToggle());
    items.push(h('button', { type: 'button', id: 'flip', onclick: () => { g.flipped = !g.flipped; ctx.drawBoardNow(); } }, t('play.flip')));
    if (!over && mineToken && !people) {
      if (cfg.drawOffer) items.push(h('button', { type: 'button', id: 'offer-draw', disabled: g.busy, onclick: () => ctx.act(() => api.offerDraw(g.S.id), 'draw') }, t('play.offerdraw')));
      for (const c of g.S.claims || [])
        if (ctx.myTurn()) items.push(h('button', { type: 'button', class: 'primary', id: `claim-${c}`, disabled: g.busy, onclick: () => ctx.act(() => api.claimDraw(g.S.id, c)) }, t('play.claim', { claim: t('claim.' + c) })));
      // Take back: the player's last move and the computer's reply (the server undoes them).
      const n = g.S.moves.length;
      const startSide = (n % 2 === 0) === (g.S.side_to_move === 'white') ? 'white' : 'black';
      const moved = n >= 2 || (n === 1 && startSide === ctx.mine());
      items.push(h('button', { type: 'button', id: 'takeback', disabled: g.busy || !ctx.myTurn() || !moved, onclick: () => ctx.act(() => api.takeBack(g.S.id)) }, t('play.takeback')));
      if (!g.confirmResign) items.push(h('button', { type: 'button', id: 'resign', disabled: g.busy, onclick: () => { g.confirmResign = true; renderControls(); } }, t('play.resign')));
      else items.push(h('span', { class: 'confirm' }, t('play.resign.sure'), ' ',
        h('button', { type: 'button', id: 'resign-yes', class: 'danger', onclick: () => { g.confirmResign = false; ctx.act(() => api.resign(g.S.id)); } }, t('play.resign.yes')), ' ',
        h('button', { type: 'button', id: 'resign-no', onclick: () => { g.confirmResign = false; renderControls(); } }, t('play.resign.no'))));
    }
    if (over && !people) {
      items.push(h('a', { class: 'button primary', id: 'new-game', href: `#/new/${g.S.game}?level=${g.S.level}&side=${g.S.human_side}` }, t('play.newgame')));
      if (mineToken) items.push(h('button', { type: 'button', id: 'rematch', onclick: ctx.rematch }, t('play.rematch')));
    }
    const ext = g.S.game === 'chess' ? 'pgn' : 'txt';
    items.push(h('a', { class: 'button', id: 'record', href: api.recordUrl(g.S.id), download: `agora-${g.S.game}-${g.S.id}.${ext}` }, t(g.S.game === 'chess' ? 'play.record.pgn' : 'play.record')));
    items.push(h('a', { class: 'button', id: 'analyse', href: `#/analysis/${g.S.game}?game=${g.S.id}` }, t('an.button')));
    if (over) items.push(h('a', { class: 'button primary', id: 'review-game', href: `#/review/${g.S.id}` }, t('review.button')));
    items.push(h('a', { class: 'button', href: `#/rules/${g.S.game}` }, t('home.rules')));
    controls.replaceChildren(...items);
  }
  return { renderControls };
}

// The move list, and looking back through the game.
function movesView(ctx) {
  const { g, moveList } = ctx;
  function renderMoves() {
    const items = [];
    const n = g.S.moves.length;
    const firstBlack = (n % 2 === 0) === (g.S.side_to_move === 'black');
    // The move sent is listed at once (the server may answer only with the reply).
    const sent = g.pending ? [{ ply: n + 1, move: g.pending.move, display: g.pending.display || g.pending.move, pending: true }] : [];
    const plies = firstBlack ? [null, ...g.S.moves, ...sent] : [...g.S.moves, ...sent];
    for (let i = 0; i < plies.length; i += 2) {
      const cellOf = (m) => {
        if (!m) return h('span', { class: 'ply' }, '…');
        if (m.pending) return h('span', { class: 'ply pending', 'data-ply': m.ply }, m.display);
        const shown = g.back ? g.back.ply === m.ply : m === g.S.moves[n - 1];
        return h('button', { type: 'button', class: 'ply' + (m === g.S.moves[n - 1] ? ' last' : '') + (shown ? ' shown' : ''), 'data-ply': m.ply,
          'aria-current': shown ? 'true' : null, title: moveTitle(g.S.game, m), 'aria-label': t('play.lookat', { ply: num(m.ply), move: m.display }), onclick: () => lookBack(m.ply) }, m.display);
      };
      items.push(h('li', {}, h('span', { class: 'num' }, num(i / 2 + 1) + '.'), cellOf(plies[i], i), plies[i + 1] !== undefined ? cellOf(plies[i + 1], i + 1) : ''));
    }
    moveList.replaceChildren(...items);
    if (!g.back) moveList.scrollTop = moveList.scrollHeight;
    else moveList.querySelector('.ply.shown')?.scrollIntoView({ block: 'nearest' });
  }

  // Looking back: the position after the game's first `ply` moves, from the server
  // (POST /api/positions with the game's start and those moves); the present returns
  // with the next move, a click on the board, or the button.
  async function lookBack(ply) {
    if (ply >= g.S.moves.length) { g.back = null; ctx.render(); return; }
    try {
      const p = await api.position({ game: g.S.game, position: g.S.start_position, moves: g.S.moves.slice(0, ply).map((m) => m.move) });
      const m = g.S.moves[ply - 1];
      g.back = { ply, pieces: p.pieces, last: m ? cellsInText(m.move, g.S.layout.cells.map((c) => c.name)) : [] };
      g.sel = null;
      ctx.render();
      moveList.querySelector('.ply.shown')?.focus();
    } catch (err) {
      g.notice = { text: t('error.generic', { message: errorText(err) }), kind: 'error' };
      ctx.render();
    }
  }
  moveList.addEventListener('keydown', (e) => {
    const k = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (!k && e.key !== 'End' && e.key !== 'Home') return;
    e.preventDefault();
    const at = g.back ? g.back.ply : g.S.moves.length;
    lookBack(e.key === 'End' ? g.S.moves.length : e.key === 'Home' ? 0 : Math.max(0, Math.min(g.S.moves.length, at + k)));
  });
  return { renderMoves, lookBack };
}

// Drawing it all, the server's states applied, the player's actions sent.
function actions(ctx) {
  const { g, people, host } = ctx;
  function render() {
    // One piece alone can move (a queen's return, a single capturer): pick it up.
    if (ctx.myTurn() && !g.busy && !g.sel) {
      const froms = new Set(ctx.legal().map((m) => m.from));
      if (froms.size === 1) g.sel = { from: [...froms][0], path: [] };
    }
    ctx.drawBoardNow();
    if (people) people.update(g.S);
    ctx.renderStatus();
    ctx.renderControls();
    ctx.renderMoves();
    ctx.renderChooser();
    showOpeningName(host.querySelector('.panel'), g.S);
  }

  function apply(state) {
    if (state && state.id === g.S.id && state.moves.length > g.S.moves.length) g.pending = null;
    // Not an older state arriving late (fewer moves only after a takeback).
    const takenBack = state && (state.takebacks || 0) > (g.S.takebacks || 0);
    const before = g.S.moves.length, wasOver = g.S.status.result !== 'ongoing';
    if (state && state.id === g.S.id && (state.moves.length >= g.S.moves.length || takenBack)) {
      const changed = takenBack || state.moves.length !== g.S.moves.length || state.status.result !== g.S.status.result;
      g.S = state;
      if (changed) { g.sel = null; g.promo = null; g.back = null; }
    }
    render();
    // A new move: the computer's slides in; each move and the end have their sound.
    if (g.S.moves.length > before && !takenBack) {
      if (g.S.last_move && g.S.last_move.side !== g.S.human_side) animateMove(g.handle, g.S.last_move);
      soundOfMove(g.S.last_move, !wasOver && g.S.status.result !== 'ongoing');
    } else if (!wasOver && g.S.status.result !== 'ongoing') soundOfMove(null, true);
    if (g.S.status.result !== 'ongoing' && g.es) { g.es.close(); g.es = null; }
  }

  async function act(fn, kind) {
    g.busy = true;
    g.notice = null;
    render();
    try {
      const st = await fn();
      g.busy = false;
      if (kind === 'draw' && st.status.result === 'ongoing') g.notice = { text: t('play.draw.declined'), kind: 'info' };
      apply(st);
    } catch (err) {
      g.busy = false;
      g.pending = null;
      g.notice = { text: t('error.generic', { message: errorText(err) }), kind: 'error' };
      try { g.S = await api.getGame(g.S.id); } catch { /* keep what we have */ }
      render();
    }
  }

  function send(text) {
    g.pending = ctx.legal().find((m) => m.move === text) || null;
    g.sel = null;
    act(() => api.playMove(g.S.id, text, g.S.moves.length + 1));
  }

  async function rematch() {
    const st = await api.createGame({ game: g.S.game, level: g.S.level, side: other(g.S.human_side) });
    location.hash = `#/game/${st.id}`;
  }
  return { render, apply, act, send, rematch };
}

// The server's events and a slow poll.
function events(ctx) {
  const { g, people } = ctx;
  // The computer's replies (and any other change) arrive as server-sent events.
  function listen() {
    if (g.S.status.result !== 'ongoing') return;
    g.es = api.gameEvents(g.S.id, g.S.seat);
    if (!g.es) return;
    if (people) g.es.addEventListener('update', (e) => { try { people.onUpdate(JSON.parse(e.data)); } catch { /* not JSON */ } });
    // A `move` event names one move: fetch the state it leads to, which carries the
    // legal moves.  `end` follows the last move of a finished game.
    g.es.addEventListener('move', () => api.getGame(g.S.id).then(ctx.apply, () => {}));
    // `takeback`: moves were taken back (API.md "Events"); the state says where the game is.
    g.es.addEventListener('takeback', () => api.getGame(g.S.id).then(ctx.apply, () => {}));
    g.es.addEventListener('end', () => {
      if (g.es) { g.es.close(); g.es = null; }
      api.getGame(g.S.id).then(ctx.apply, () => {});
    });
    // After a reconnect (a server restart, a sleeping laptop) fetch what was missed.
    let opened = false;
    g.es.onopen = () => {
      if (opened) api.getGame(g.S.id).then(ctx.apply, () => {});
      opened = true;
    };
  }

  // A slow poll while the computer is to move, in case events cannot get through.
  const poll = setInterval(() => {
    if (g.S.status.result === 'ongoing' && !ctx.myTurn() && !g.busy) api.getGame(g.S.id).then(ctx.apply, () => {});
  }, 5000);
  return { listen, poll };
}

export async function showGame(host, id) {
  const S = await api.getGame(id);
  // The page's state, shared by its parts below.
  const g = {
    S,
    sel: null,            // {from, path: []} while the player builds a move
    busy: false,          // a request is on its way
    notice: null,         // a one-off message (draw declined, an error)
    promo: null,          // moves waiting for the promotion chooser
    confirmResign: false,
    pending: null,        // the move sent, shown on the board until the server answers
    flipped: S.human_side === 'black',
    focusCell: null,      // the cell that has keyboard focus (roving tabindex)
    handle: null,
    es: null,
    back: null,           // {ply, pieces, last} while the player looks back through the game
  };

  const cfg = UI[S.game] || {};
  const boardHost = h('div', { class: 'board-host', id: 'board' });
  const status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' });
  const hint = h('div', { class: 'hint', id: 'hint', 'aria-live': 'polite' });
  const banner = h('div', { class: 'banner', id: 'banner', hidden: true });
  const controls = h('div', { class: 'controls' });
  const moveList = h('ol', { class: 'moves', id: 'moves', 'aria-label': t('play.moves') });
  const chooser = promotionBox();
  const title = h('h1', { class: 'game-title' });

  host.replaceChildren(h('div', { class: 'play', 'data-game': S.game },
    h('div', { class: 'board-col' }, boardHost, chooser),
    h('aside', { class: 'panel' }, title, status, banner, hint, controls,
      h('h2', { class: 'moves-h' }, t('play.moves')), moveList, notationLegend(S.game))));
  // The parts call each other through `ctx`.
  const ctx = { g, cfg, host, boardHost, status, hint, banner, controls, moveList, chooser, title, people: null };
  // Between two people: names, clocks, viewers and their actions (people-panel.js).
  ctx.people = S.people ? peoplePanel(S, { act: (fn) => ctx.act(fn), refresh: () => api.getGame(g.S.id).then(ctx.apply, () => {}) }) : null;
  if (ctx.people) controls.before(ctx.people.el);
  for (const part of [rules, boardView, statusView, controlsView, movesView, actions, events]) Object.assign(ctx, part(ctx));

  document.title = `${t(`game.${S.game}`)} — agora`;
  ctx.render();
  ctx.listen();
  return () => {
    clearInterval(ctx.poll);
    if (g.es) g.es.close();
    if (ctx.people) ctx.people.close();
    ctx.detachDrag();
  };
}

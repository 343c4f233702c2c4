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
import { t, num } from '../common/i18n.js';
import * as api from '../net/api.js';
import { drawBoard, boardKeys } from '../board/board.js';
import { h } from '../common/dom.js';
import { showOpeningName } from '../openings/opening-name.js';
import { cellLabel } from '../board/cells.js';
import { tellLast, notationLegend, moveTitle } from '../board/narrate.js';
import { animateMove, motionToggle } from '../board/animate.js';
import { soundOfMove, soundToggle } from '../board/sound.js';
import { peoplePanel } from './people-panel.js';
import { promotionBox, showPromotion } from '../board/promotion.js';
import { attachDrag } from '../board/board-drag.js';
import { choice, saveChoice } from '../common/storage.js';

// How each game words its moments; display choices, not rules.
const UI = {
  chess: { drawOffer: true, showCheck: true },
  agon: {},
  'egara-guti': { forcedCapture: true },
};

const other = (side) => (side === 'white' ? 'black' : 'white');

/** Cell names found in a move text, in order ("b7xb2xf2" -> b7 b2 f2): the longest
 *  name of the board that matches at each place; other characters are separators. */
export function cellsInText(text, names) {
  const out = [];
  const sorted = [...names].sort((a, b) => b.length - a.length);
  for (let i = 0; i < text.length;) {
    const hit = sorted.find((n) => text.startsWith(n, i));
    if (hit) { out.push(hit); i += hit.length; } else i++;
  }
  return out;
}

export async function showGame(host, id) {
  let S = await api.getGame(id);
  let sel = null;        // {from, path: []} while the player builds a move
  let busy = false;      // a request is on its way
  let notice = null;     // a one-off message (draw declined, an error)
  let promo = null;      // moves waiting for the promotion chooser
  let confirmResign = false;
  let pending = null;    // the move sent, shown on the board until the server answers
  let flipped = S.human_side === 'black';
  let names = choice('names') === '1';
  let focusCell = null;  // the cell that has keyboard focus (roving tabindex)
  let handle = null;
  let drag = null;
  let es = null;
  let back = null;       // {ply, pieces, last} while the player looks back through the game

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
  // Between two people: names, clocks, viewers and their actions (people-panel.js).
  const people = S.people ? peoplePanel(S, { act: (fn) => act(fn), refresh: () => api.getGame(S.id).then(apply, () => {}) }) : null;
  if (people) controls.before(people.el);

  const mine = () => S.human_side;
  const myTurn = () => S.status.result === 'ongoing' && S.side_to_move === S.human_side && !!api.tokenOf(S.id);
  const legal = () => (myTurn() && !back ? S.legal_moves || [] : []);
  const allReturns = () => legal().length > 0 && legal().every((m) => m.flags.includes('return'));
  const allCaptures = () => legal().length > 0 && legal().every((m) => m.flags.includes('capture'));
  const candidates = () => (sel ? legal().filter((m) => m.from === sel.from && sel.path.every((c, i) => m.path[i] === c)) : []);


  function lastCells() {
    if (back) return back.last;
    const last = S.moves[S.moves.length - 1];
    return last ? cellsInText(last.move, S.layout.cells.map((c) => c.name)) : [];
  }

  function checkCell() {
    if (!cfg.showCheck) return [];
    const last = S.moves[S.moves.length - 1];
    if (!last || !/[+#]$/.test(last.display)) return [];
    const king = S.side_to_move === 'white' ? 'K' : 'k';
    return Object.keys(S.pieces).filter((c) => S.pieces[c].piece === king);
  }

  function marks() {
    const m = { last: lastCells(), check: checkCell(), selected: [], targets: [], captureTargets: [], allowed: [], movable: [], capturing: [], path: [] };
    if (pending) return { ...m, last: [pending.from, ...pending.path], check: [] };
    if (!myTurn()) return m;
    if (!sel) {
      if (allReturns() || (cfg.forcedCapture && allCaptures())) m.movable = [...new Set(legal().map((x) => x.from))];
      return m;
    }
    m.selected = [sel.from];
    m.path = [...sel.path];
    const cands = candidates();
    const k = sel.path.length;
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
    if (back) return back.pieces;
    if (pending) return previewPieces(pending);
    if (!sel || !sel.path.length) return S.pieces;
    const p = { ...S.pieces };
    const moving = p[sel.from];
    delete p[sel.from];
    p[sel.path[sel.path.length - 1]] = moving;
    return p;
  }

  // The board as the sent move leaves it, drawn from the move's own description (from,
  // to, captured cells, the castling rook, the promotion letter) while the server
  // answers; captured pieces are shown crossed out rather than guessed away.
  function previewPieces(mv) {
    const p = { ...S.pieces };
    const moving = p[mv.from];
    if (!moving) return p;
    delete p[mv.from];
    let letter = moving.piece;
    if (mv.promotion) letter = letter === letter.toUpperCase() ? mv.promotion.toUpperCase() : mv.promotion.toLowerCase();
    p[mv.to] = { piece: letter, captured: false };
    if (mv.also_from && p[mv.also_from]) {
      p[mv.also_to] = p[mv.also_from];
      delete p[mv.also_from];
    }
    for (const c of mv.captured || []) if (p[c] && c !== mv.to) p[c] = { ...p[c], captured: true };
    return p;
  }


  function drawBoardNow() {
    const mk = marks();
    const hadFocus = boardHost.contains(document.activeElement);
    handle = drawBoard(boardHost, S.layout, shownPieces(), {
      game: S.game, flipped, labels: names, marks: mk, interactive: true,
      title: t('play.board', { game: t(`game.${S.game}`) }),
      label: (name, piece) => cellLabel(S.game, S.layout, name, piece, mk),
    });
    handle.svg.classList.toggle('my-turn', myTurn() && !busy);
    if (!focusCell || !handle.cellNode(focusCell)) focusCell = mk.selected[0] || mk.movable[0] || handle.names[0];
    const node = handle.cellNode(focusCell);
    node.setAttribute('tabindex', '0');
    if (hadFocus) node.focus({ preventScroll: true });
  }

  function resultText() {
    const r = S.status.result;
    const reason = t('reason.' + S.status.reason);
    const head = r === 'draw' ? t('result.draw') : t(r === 'white-wins' ? 'result.white' : 'result.black');
    let you = t('result.drawn');
    if (r !== 'draw') you = S.status.winner === mine() ? t('result.won') : t(people ? 'people.lost' : 'result.lost');
    if (people && !S.you) return { you: head, head: '', reason }; // a spectator
    return { you, head, reason };
  }

  function renderStatus() {
    title.textContent = t(`game.${S.game}`) + ' · ' + (people ? people.title() : t('play.level', { level: S.level }));
    const over = S.status.result !== 'ongoing';
    status.classList.toggle('thinking', !over && !myTurn());
    if (over) status.textContent = t('play.over');
    else if (pending) {
      status.textContent = t('play.thinking');
      status.classList.add('thinking');
    } else if (myTurn()) {
      const last = S.moves[S.moves.length - 1];
      status.textContent = busy ? t('play.sending') : t('play.yourmove', { side: t('side.' + mine()) });
      if (!busy && last) status.append(h('span', { class: 'reply' }, tellLast(S)));
    }
    else if (!api.tokenOf(S.id)) status.textContent = t('play.watching');
    else status.textContent = t(people ? 'people.theirmove' : 'play.thinking');

    banner.hidden = !over;
    if (over) {
      const r = resultText();
      banner.className = 'banner ' + (S.status.result === 'draw' ? 'draw' : S.status.winner === mine() ? 'won' : 'lost');
      banner.replaceChildren(h('strong', {}, r.you), h('span', {}, r.head ? `${r.head} — ${r.reason}` : r.reason));
    }

    const lines = [];
    if (back) lines.push(h('p', { class: 'looking-back', id: 'looking-back' }, t('play.lookingback', { ply: num(back.ply), n: num(S.moves.length) }), ' ',
      h('button', { type: 'button', class: 'small', id: 'to-present', onclick: () => { back = null; render(); } }, t('play.present'))));
    if (notice) lines.push(h('p', { class: notice.kind || '' }, notice.text));
    if (myTurn() && !busy) {
      const ret = allReturns();
      if (ret) {
        const froms = [...new Set(legal().map((x) => x.from))];
        const queen = froms.some((c) => S.pieces[c] && S.pieces[c].piece.toLowerCase() === 'q');
        lines.push(h('p', { class: 'return-turn', id: 'return-hint' },
          h('strong', {}, t('agon.return.title')), ' ',
          t(queen ? 'agon.return.queen' : froms.length > 1 ? 'agon.return.guards' : 'agon.return.guard')));
      }
      if (sel && sel.path.length && candidates().some((m) => m.path.length > sel.path.length)) lines.push(h('p', { class: 'chain', id: 'chain-hint' }, h('strong', {}, t('egara.chain.title')), ' ', t('egara.chain.text')));
      else if (!ret && cfg.forcedCapture && allCaptures()) lines.push(h('p', { class: 'forced', id: 'forced-hint' }, t('egara.forced')));
      if (checkCell().length) lines.push(h('p', { class: 'check', id: 'check-hint' }, t('chess.check')));
      if ((S.claims || []).length) lines.push(h('p', { class: 'claim' }, t('chess.claimable', { claim: S.claims.map((c) => t('claim.' + c)).join(', ') })));
    } else if (!myTurn() && checkCell().length && S.status.result === 'ongoing') lines.push(h('p', { class: 'check', id: 'check-hint' }, t('chess.check')));
    hint.replaceChildren(...lines);
  }

  function renderControls() {
    const over = S.status.result !== 'ongoing';
    const mineToken = !!api.tokenOf(S.id);
    const items = [];
    const namesBox = h('input', { type: 'checkbox', id: 'show-names', checked: names, onchange: (e) => {
      names = e.target.checked;
      saveChoice('names', names ? '1' : '0');
      drawBoardNow();
    } });
    items.push(h('label', { class: 'toggle' }, namesBox, ' ', t('play.names')), motionToggle(), soundToggle());
    items.push(h('button', { type: 'button', id: 'flip', onclick: () => { flipped = !flipped; drawBoardNow(); } }, t('play.flip')));
    if (!over && mineToken && !people) {
      if (cfg.drawOffer) items.push(h('button', { type: 'button', id: 'offer-draw', disabled: busy, onclick: () => act(() => api.offerDraw(S.id), 'draw') }, t('play.offerdraw')));
      for (const c of S.claims || [])
        if (myTurn()) items.push(h('button', { type: 'button', class: 'primary', id: `claim-${c}`, disabled: busy, onclick: () => act(() => api.claimDraw(S.id, c)) }, t('play.claim', { claim: t('claim.' + c) })));
      // Take back: the player's last move and the computer's reply (the server undoes them).
      const n = S.moves.length;
      const startSide = (n % 2 === 0) === (S.side_to_move === 'white') ? 'white' : 'black';
      const moved = n >= 2 || (n === 1 && startSide === mine());
      items.push(h('button', { type: 'button', id: 'takeback', disabled: busy || !myTurn() || !moved, onclick: () => act(() => api.takeBack(S.id)) }, t('play.takeback')));
      if (!confirmResign) items.push(h('button', { type: 'button', id: 'resign', disabled: busy, onclick: () => { confirmResign = true; renderControls(); } }, t('play.resign')));
      else items.push(h('span', { class: 'confirm' }, t('play.resign.sure'), ' ',
        h('button', { type: 'button', id: 'resign-yes', class: 'danger', onclick: () => { confirmResign = false; act(() => api.resign(S.id)); } }, t('play.resign.yes')), ' ',
        h('button', { type: 'button', id: 'resign-no', onclick: () => { confirmResign = false; renderControls(); } }, t('play.resign.no'))));
    }
    if (over && !people) {
      items.push(h('a', { class: 'button primary', id: 'new-game', href: `#/new/${S.game}?level=${S.level}&side=${S.human_side}` }, t('play.newgame')));
      if (mineToken) items.push(h('button', { type: 'button', id: 'rematch', onclick: rematch }, t('play.rematch')));
    }
    const ext = S.game === 'chess' ? 'pgn' : 'txt';
    items.push(h('a', { class: 'button', id: 'record', href: api.recordUrl(S.id), download: `agora-${S.game}-${S.id}.${ext}` }, t(S.game === 'chess' ? 'play.record.pgn' : 'play.record')));
    items.push(h('a', { class: 'button', id: 'analyse', href: `#/analysis/${S.game}?game=${S.id}` }, t('an.button')));
    if (over) items.push(h('a', { class: 'button primary', id: 'review-game', href: `#/review/${S.id}` }, t('review.button')));
    items.push(h('a', { class: 'button', href: `#/rules/${S.game}` }, t('home.rules')));
    controls.replaceChildren(...items);
  }

  function renderMoves() {
    const items = [];
    const n = S.moves.length;
    const firstBlack = (n % 2 === 0) === (S.side_to_move === 'black');
    // The move sent is listed at once (the server may answer only with the reply).
    const sent = pending ? [{ ply: n + 1, move: pending.move, display: pending.display || pending.move, pending: true }] : [];
    const plies = firstBlack ? [null, ...S.moves, ...sent] : [...S.moves, ...sent];
    for (let i = 0; i < plies.length; i += 2) {
      const cellOf = (m) => {
        if (!m) return h('span', { class: 'ply' }, '…');
        if (m.pending) return h('span', { class: 'ply pending', 'data-ply': m.ply }, m.display);
        const shown = back ? back.ply === m.ply : m === S.moves[n - 1];
        return h('button', { type: 'button', class: 'ply' + (m === S.moves[n - 1] ? ' last' : '') + (shown ? ' shown' : ''), 'data-ply': m.ply,
          'aria-current': shown ? 'true' : null, title: moveTitle(S.game, m), 'aria-label': t('play.lookat', { ply: num(m.ply), move: m.display }), onclick: () => lookBack(m.ply) }, m.display);
      };
      items.push(h('li', {}, h('span', { class: 'num' }, num(i / 2 + 1) + '.'), cellOf(plies[i], i), plies[i + 1] !== undefined ? cellOf(plies[i + 1], i + 1) : ''));
    }
    moveList.replaceChildren(...items);
    if (!back) moveList.scrollTop = moveList.scrollHeight;
    else moveList.querySelector('.ply.shown')?.scrollIntoView({ block: 'nearest' });
  }

  // Looking back: the position after the game's first `ply` moves, from the server
  // (POST /api/positions with the game's start and those moves); the present returns
  // with the next move, a click on the board, or the button.
  async function lookBack(ply) {
    if (ply >= S.moves.length) { back = null; render(); return; }
    try {
      const p = await api.position({ game: S.game, position: S.start_position, moves: S.moves.slice(0, ply).map((m) => m.move) });
      const m = S.moves[ply - 1];
      back = { ply, pieces: p.pieces, last: m ? cellsInText(m.move, S.layout.cells.map((c) => c.name)) : [] };
      sel = null;
      render();
      moveList.querySelector('.ply.shown')?.focus();
    } catch (err) {
      notice = { text: t('error.generic', { message: err.message }), kind: 'error' };
      render();
    }
  }
  moveList.addEventListener('keydown', (e) => {
    const k = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (!k && e.key !== 'End' && e.key !== 'Home') return;
    e.preventDefault();
    const at = back ? back.ply : S.moves.length;
    lookBack(e.key === 'End' ? S.moves.length : e.key === 'Home' ? 0 : Math.max(0, Math.min(S.moves.length, at + k)));
  });

  function renderChooser() {
    showPromotion(chooser, S.game, promo, mine() === 'white', {
      pick: (mv) => { promo = null; renderChooser(); send(mv.move); },
      cancel: () => { promo = null; sel = null; render(); },
    });
  }

  function render() {
    // One piece alone can move (a queen's return, a single capturer): pick it up.
    if (myTurn() && !busy && !sel) {
      const froms = new Set(legal().map((m) => m.from));
      if (froms.size === 1) sel = { from: [...froms][0], path: [] };
    }
    drawBoardNow();
    if (people) people.update(S);
    renderStatus();
    renderControls();
    renderMoves();
    renderChooser();
    showOpeningName(host.querySelector('.panel'), S);
  }

  function apply(state) {
    if (state && state.id === S.id && state.moves.length > S.moves.length) pending = null;
    // Not an older state arriving late (fewer moves only after a takeback).
    const takenBack = state && (state.takebacks || 0) > (S.takebacks || 0);
    const before = S.moves.length, wasOver = S.status.result !== 'ongoing';
    if (state && state.id === S.id && (state.moves.length >= S.moves.length || takenBack)) {
      const changed = takenBack || state.moves.length !== S.moves.length || state.status.result !== S.status.result;
      S = state;
      if (changed) { sel = null; promo = null; back = null; }
    }
    render();
    // A new move: the computer's slides in; each move and the end have their sound.
    if (S.moves.length > before && !takenBack) {
      if (S.last_move && S.last_move.side !== S.human_side) animateMove(handle, S.last_move);
      soundOfMove(S.last_move, !wasOver && S.status.result !== 'ongoing');
    } else if (!wasOver && S.status.result !== 'ongoing') soundOfMove(null, true);
    if (S.status.result !== 'ongoing' && es) { es.close(); es = null; }
  }

  async function act(fn, kind) {
    busy = true;
    notice = null;
    render();
    try {
      const st = await fn();
      busy = false;
      if (kind === 'draw' && st.status.result === 'ongoing') notice = { text: t('play.draw.declined'), kind: 'info' };
      apply(st);
    } catch (err) {
      busy = false;
      pending = null;
      notice = { text: t('error.generic', { message: err.message }), kind: 'error' };
      try { S = await api.getGame(S.id); } catch { /* keep what we have */ }
      render();
    }
  }

  function send(text) {
    pending = legal().find((m) => m.move === text) || null;
    sel = null;
    act(() => api.playMove(S.id, text));
  }

  async function rematch() {
    const st = await api.createGame({ game: S.game, level: S.level, side: other(S.human_side) });
    location.hash = `#/game/${st.id}`;
  }

  // A click (or Enter) on a cell: select, extend the path, or send the move.
  function clickCell(cell) {
    if (back) { back = null; render(); return; } // the board comes back to the present
    if (!myTurn() || busy || promo) return;
    focusCell = cell;
    notice = null;
    if (sel) {
      const k = sel.path.length;
      const next = candidates().filter((m) => m.path[k] === cell);
      if (next.length) {
        sel.path.push(cell);
        const done = next.filter((m) => m.path.length === sel.path.length);
        if (done.length === next.length) {
          if (done.length === 1) return send(done[0].move);
          promo = done;
        }
        return render();
      }
      // Castling by king then rook: the legal move whose also_from is the cell clicked.
      const castle = k === 0 ? candidates().filter((m) => m.also_from === cell) : [];
      if (castle.length === 1) return send(castle[0].move);
      if (k === 0 && cell !== sel.from && legal().some((m) => m.from === cell)) sel = { from: cell, path: [] };
      else sel = null;
      return render();
    }
    if (legal().some((m) => m.from === cell)) sel = { from: cell, path: [] };
    render();
  }

  // Drag: press on a piece that can move, drop on a destination (board-drag.js).
  const detachDrag = attachDrag(boardHost, {
    svg: () => handle.svg,
    pick(cell) {
      const castles = sel && !sel.path.length && legal().some((m) => m.from === sel.from && m.also_from === cell);
      if (myTurn() && !busy && !promo && !castles && (!sel || !sel.path.length) && sel?.from !== cell && legal().some((m) => m.from === cell)) {
        sel = { from: cell, path: [] };
        focusCell = cell;
        render();
        return true;
      }
      return false;
    },
    selected: (cell) => !!sel && sel.from === cell && !sel.path.length,
    click: (cell) => clickCell(cell),
    render: () => render(),
  });

  boardKeys(boardHost, {
    handle: () => handle,
    activate: clickCell,
    cancel: () => { sel = null; promo = null; render(); },
    focused: (cell) => { focusCell = cell; },
  });

  // The computer's replies (and any other change) arrive as server-sent events.
  function listen() {
    if (S.status.result !== 'ongoing') return;
    es = api.gameEvents(S.id, S.seat);
    if (!es) return;
    if (people) es.addEventListener('update', (e) => { try { people.onUpdate(JSON.parse(e.data)); } catch { /* not JSON */ } });
    // A `move` event names one move: fetch the state it leads to, which carries the
    // legal moves.  `end` follows the last move of a finished game.
    es.addEventListener('move', () => api.getGame(S.id).then(apply, () => {}));
    // `takeback`: moves were taken back (API.md "Events"); the state says where the game is.
    es.addEventListener('takeback', () => api.getGame(S.id).then(apply, () => {}));
    es.addEventListener('end', () => {
      if (es) { es.close(); es = null; }
      api.getGame(S.id).then(apply, () => {});
    });
    // After a reconnect (a server restart, a sleeping laptop) fetch what was missed.
    let opened = false;
    es.onopen = () => {
      if (opened) api.getGame(S.id).then(apply, () => {});
      opened = true;
    };
  }

  // A slow poll while the computer is to move, in case events cannot get through.
  const poll = setInterval(() => {
    if (S.status.result === 'ongoing' && !myTurn() && !busy) api.getGame(S.id).then(apply, () => {});
  }, 5000);

  document.title = `${t(`game.${S.game}`)} — agora`;
  render();
  listen();
  return () => {
    clearInterval(poll);
    if (es) es.close();
    if (people) people.close();
    detachDrag();
  };
}

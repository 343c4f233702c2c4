// The puzzle pages (API.md "Puzzles"):
//   #/puzzles                      the games and their puzzles
//   #/puzzles/GAME[?theme=T][&track=easy]   solve: one puzzle after another
//
// The board shows the position from the solver's side; the player finds a move among
// the legal moves the server sent with the position (as on the play page: click or
// Enter the piece, then each cell of its path; arrows move the keyboard focus).  A
// right move is answered by the computer's reply (the solution's next move) and the
// next position the server sent; a wrong one shows the winning move.  The attempt is
// judged by the server, which answers both new ratings.
import { t, num } from './i18n.js';
import { drawBoard, boardKeys } from './board.js';
import { h } from './dom.js';
import { cellLabel } from './cells.js';
import * as api from './api.js';
import { cellsInText } from './play.js';
import { promotionBox, showPromotion } from './promotion.js';
import { attachDrag } from './board-drag.js';

const TOKEN = 'agora.puzzle-token';
const REPLY_MS = 450; // the computer's reply follows the player's move after a moment

async function call(method, path, body) {
  const headers = {};
  const token = localStorage.getItem(TOKEN);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new api.ApiError(res.status, (data && data.error) || `HTTP ${res.status}`);
  if (data && data.token) localStorage.setItem(TOKEN, data.token);
  return data;
}

const signed = (n) => (n > 0 ? '+' : n < 0 ? '\u2212' : '\u00b1') + num(Math.abs(n));

/** The list of games with puzzles: #/puzzles. */
export async function showPuzzleHome(host) {
  document.title = `${t('pz.title')} — agora`;
  const list = await call('GET', '/api/puzzles');
  const cards = list.games.filter((g) => g.count > 0).map((g) => h('article', { class: 'card', 'data-game': g.game },
    h('h2', {}, t(`game.${g.game}`)),
    h('p', { class: 'muted' }, t('pz.count', { n: g.count })),
    h('p', { class: 'actions' },
      h('a', { class: 'button primary', href: `#/puzzles/${g.game}` }, t('pz.start', { game: t(`game.${g.game}`) })),
      g.easy > 0 ? h('a', { class: 'button', href: `#/puzzles/${g.game}?track=easy` }, t(g.game === 'chess' ? 'pz.easy.chess' : 'pz.easy')) : '')));
  host.replaceChildren(h('div', { class: 'puzzles-home' },
    h('h1', {}, t('pz.title')), h('p', {}, t('pz.intro')),
    h('h2', { class: 'visually-hidden' }, t('pz.games')),
    h('div', { class: 'cards' }, cards.length ? cards : h('p', {}, t('pz.none')))));
}

/** Solving the puzzles of one game: #/puzzles/GAME. */
export async function showPuzzles(host, game, query) {
  const list = await call('GET', '/api/puzzles');
  const entry = list.games.find((g) => g.game === game);
  if (!entry) throw new Error(t('pz.none'));
  let theme = query.get('theme') || '';
  let easy = query.get('track') === 'easy';
  const layout = await api.layoutOf(game);
  const names = layout.cells.map((c) => c.name);

  let P = null;          // the puzzle (its steps, solution)
  let step = 0;          // the solver's move being looked for
  let pos = null;        // the position on the board: a step of P, or a preview
  let sel = null;        // {from, path} while a move is entered
  let promo = null;      // moves differing only in the promotion, for the chooser
  let tried = [];        // the solver's moves sent so far
  let state = 'solving'; // 'solving' | 'reply' | 'solved' | 'failed'
  let result = null;     // the server's judgement of the attempt
  let message = null;    // {text, kind}
  let hintCell = null;
  let focusCell = null;
  let handle = null;
  let player = null;     // {rating, deviation, change, streak}
  let timer = null;

  const boardHost = h('div', { class: 'board-host', id: 'puzzle-board' });
  const chooser = promotionBox();
  const status = h('p', { class: 'status', id: 'puzzle-status', role: 'status', 'aria-live': 'polite' });
  const info = h('div', { class: 'puzzle-info', id: 'puzzle-info', 'aria-live': 'polite' });
  const rating = h('p', { class: 'rating', id: 'player-rating' });
  const controls = h('div', { class: 'controls' });
  const themeSel = h('select', { id: 'puzzle-theme' },
    h('option', { value: '' }, t('pz.theme.all')),
    entry.themes.filter((x) => x.count > 0).map((x) => h('option', { value: x.name, selected: x.name === theme }, t(`pz.theme.${x.name}`))));
  const easyBox = h('input', { type: 'checkbox', id: 'puzzle-easy', checked: easy });
  const filters = h('form', { class: 'puzzle-filters', onsubmit: (e) => e.preventDefault() },
    h('label', { for: 'puzzle-theme' }, t('pz.theme')), ' ', themeSel, ' ',
    entry.easy > 0 ? h('label', { class: 'toggle' }, easyBox, ' ', t(game === 'chess' ? 'pz.easy.chess' : 'pz.easy')) : '');
  const title = h('h1', {}, t('pz.title'), ' · ', t(`game.${game}`));
  host.replaceChildren(h('div', { class: 'play puzzle', 'data-game': game },
    h('div', { class: 'board-col' }, boardHost, chooser),
    h('aside', { class: 'panel' }, title, filters, status, info, rating, controls)));

  const solver = () => P.solver;
  const legal = () => (state === 'solving' && pos ? pos.legal_moves || [] : []);
  const candidates = () => (sel ? legal().filter((m) => m.from === sel.from && sel.path.every((c, i) => m.path[i] === c)) : []);
  const solutionMove = (k) => P.solution[2 * k];

  function piecesOf(p) {
    return api.piecesOf(layout, p.board, p.captured_pieces);
  }

  // The board after move `mv` (its description), before the server's next position.
  function preview(pieces, mv) {
    const p = { ...pieces };
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

  let shown = null; // {pieces, last: [cells]} the picture on the board

  function marks() {
    const m = { last: shown.last || [], check: [], selected: [], targets: [], captureTargets: [], allowed: [], movable: [], capturing: [], path: [] };
    if (hintCell) m.movable = [hintCell];
    if (!sel) return m;
    m.selected = [sel.from];
    m.path = [...sel.path];
    const k = sel.path.length;
    for (const mv of candidates()) {
      const next = mv.path[k];
      if (!next) continue;
      if (mv.flags.includes('capture')) m.captureTargets.push(next);
      else m.targets.push(next);
    }
    return m;
  }

  function drawNow() {
    const mk = marks();
    const hadFocus = boardHost.contains(document.activeElement);
    let pieces = shown.pieces;
    if (sel && sel.path.length) {
      pieces = { ...pieces };
      const moving = pieces[sel.from];
      delete pieces[sel.from];
      pieces[sel.path[sel.path.length - 1]] = moving;
    }
    handle = drawBoard(boardHost, layout, pieces, {
      game, flipped: P && solver() === 'black', marks: mk, interactive: true,
      title: t('pz.board', { game: t(`game.${game}`) }),
      label: (name, piece) => cellLabel(game, layout, name, piece, mk),
    });
    handle.svg.classList.toggle('my-turn', state === 'solving');
    if (!focusCell || !handle.cellNode(focusCell)) focusCell = mk.selected[0] || names[0];
    const node = handle.cellNode(focusCell);
    node.setAttribute('tabindex', '0');
    if (hadFocus) node.focus({ preventScroll: true });
  }

  function themeLines() {
    return h('div', { class: 'themes', id: 'puzzle-themes' }, h('h2', {}, t('pz.themes')),
      h('ul', {}, P.themes.map((x) => h('li', { 'data-theme': x }, h('strong', {}, t(`pz.theme.${x}`)), ' — ', t(`pz.theme.${x}.text`)))));
  }

  function renderInfo() {
    const side = t('side.' + solver());
    if (state === 'solving') status.textContent = step === 0 ? t('pz.find', { side }) : t('pz.again');
    else if (state === 'reply') status.textContent = t('pz.again');
    else if (state === 'solved') status.textContent = t('pz.solved');
    else status.textContent = message && message.kind === 'gaveup' ? t('pz.gaveup') : message ? message.text : '';
    status.className = 'status ' + (state === 'solved' ? 'won' : state === 'failed' ? 'lost' : '');
    const lines = [];
    if (message && state !== 'failed') lines.push(h('p', { class: message.kind || '' }, message.text));
    if (hintCell && state === 'solving') lines.push(h('p', { class: 'hint', id: 'hint-text' }, t('pz.hint.text', { cell: hintCell })));
    if (state === 'solved' || state === 'failed') {
      lines.push(h('p', { class: 'solution', id: 'solution-text' }, t('pz.solution.text', { moves: P.solution_display.join(' ') })));
      if (result && !result.counted) lines.push(h('p', { class: 'muted', id: 'not-counted' }, t(!result.why || result.why === 'attempted' ? 'pz.notcounted' : 'pz.notcounted.other')));
      if (result) lines.push(h('p', { class: 'muted', id: 'puzzle-rating' }, t('pz.puzzle.rating', { rating: result.puzzle.rating })));
    }
    lines.push(themeLines());
    info.replaceChildren(...lines);
    if (player) {
      rating.replaceChildren(
        h('span', { id: 'rating-value', 'data-rating': player.rating, 'data-change': player.change },
          player.change ? t('pz.rating.change', { rating: player.rating, change: signed(player.change) }) : t('pz.rating', { rating: player.rating })),
        ' · ', h('span', { id: 'streak' }, t('pz.streak', { n: player.streak })));
    }
  }

  function renderControls() {
    const over = state === 'solved' || state === 'failed';
    controls.replaceChildren(
      h('button', { type: 'button', id: 'puzzle-hint', disabled: state !== 'solving' || !!hintCell, onclick: () => { hintCell = cellsOf(solutionMove(step))[0]; render(); } }, t('pz.hint')),
      h('button', { type: 'button', id: 'puzzle-solution', disabled: over || state !== 'solving', onclick: giveUp }, t('pz.solution')),
      h('button', { type: 'button', id: 'puzzle-next', class: over ? 'primary' : '', onclick: next }, t('pz.next')));
  }

  function render() {
    // A single piece to move (a forced capture): pick it up.
    if (state === 'solving' && !sel) {
      const froms = new Set(legal().map((m) => m.from));
      if (froms.size === 1) sel = { from: [...froms][0], path: [] };
    }
    drawNow();
    renderInfo();
    renderControls();
    const box = host.querySelector('.puzzle');
    if (box && P) {
      box.dataset.puzzle = P.id;
      box.dataset.step = String(step);
      box.dataset.state = state;
    }
  }

  // The cells a move of the position on the board goes through (its legal move's own
  // from and path; a move text read by cell names otherwise).
  function cellsOf(text) {
    const mv = (pos.legal_moves || []).find((m) => m.move === text);
    return mv ? [mv.from, ...mv.path] : cellsInText(text, names);
  }

  async function judge() {
    try {
      result = await call('POST', `/api/puzzles/${encodeURIComponent(P.id)}/attempts`, { moves: tried });
      player = { ...result.player };
      // The server's verdict on the moves sent stands.
      if (result.solved && state === 'failed') { state = 'solved'; message = null; }
      else if (!result.solved && state === 'solved') { state = 'failed'; message = { text: t('pz.wrong', { move: P.solution_display.join(' ') }), kind: 'error' }; }
    } catch (err) {
      message = { text: t('error.generic', { message: err.message }), kind: 'error' };
    }
    render();
  }

  function showStep(k) {
    pos = P.steps[k];
    const lastMove = pos.moves[pos.moves.length - 1];
    shown = { pieces: piecesOf(pos), last: lastMove ? cellsInText(lastMove.move, names) : [] };
  }

  function played(mv) {
    sel = null;
    hintCell = null;
    tried.push(mv.move);
    const right = mv.move === solutionMove(step);
    shown = { pieces: preview(shown.pieces, mv), last: [mv.from, ...mv.path] };
    if (!right) {
      state = 'failed';
      const want = (pos.legal_moves || []).find((m) => m.move === solutionMove(step));
      // The right path with another piece than the solution's promotion.
      const piece = want && want.promotion && mv.promotion && want.path.join() === mv.path.join();
      message = { text: t(piece ? 'pz.wrong.piece' : 'pz.wrong', { move: P.solution_display[2 * step] }), kind: 'error' };
      if (want) shown = { pieces: preview(piecesOf(pos), want), last: [want.from, ...want.path] };
      render();
      return judge();
    }
    if (step + 1 >= P.solver_moves) {
      state = 'solved';
      message = null;
      render();
      return judge();
    }
    state = 'reply';
    message = null;
    render();
    timer = setTimeout(() => {
      timer = null;
      step += 1;
      showStep(step);
      state = 'solving';
      message = { text: t('pz.replied', { move: P.solution_display[2 * step - 1] }), kind: 'info' };
      render();
    }, REPLY_MS);
  }

  function giveUp() {
    if (state !== 'solving') return;
    state = 'failed';
    message = { kind: 'gaveup', text: t('pz.gaveup') };
    const want = (pos.legal_moves || []).find((m) => m.move === solutionMove(step));
    if (want) shown = { pieces: preview(piecesOf(pos), want), last: [want.from, ...want.path] };
    sel = null;
    render();
    judge();
  }

  function renderChooser() {
    showPromotion(chooser, game, promo, solver() === 'white', {
      pick: (mv) => { promo = null; renderChooser(); played(mv); },
      cancel: () => { promo = null; sel = null; renderChooser(); render(); },
    });
  }

  function clickCell(cell) {
    if (state !== 'solving' || promo) return;
    focusCell = cell;
    if (sel) {
      const k = sel.path.length;
      const nextMoves = candidates().filter((m) => m.path[k] === cell);
      if (nextMoves.length) {
        sel.path.push(cell);
        const done = nextMoves.filter((m) => m.path.length === sel.path.length);
        if (done.length === nextMoves.length) {
          if (done.length === 1) return played(done[0]);
          // Moves differing only in the promotion: the chooser asks which piece.
          promo = done;
          render();
          return renderChooser();
        }
        return render();
      }
      const castle = k === 0 ? candidates().filter((m) => m.also_from === cell) : [];
      if (castle.length === 1) return played(castle[0]);
      sel = k === 0 && cell !== sel.from && legal().some((m) => m.from === cell) ? { from: cell, path: [] } : null;
      return render();
    }
    if (legal().some((m) => m.from === cell)) sel = { from: cell, path: [] };
    render();
  }

  // Click, or drag a piece and drop it (board-drag.js): a drop is a click on its cell.
  const detachDrag = attachDrag(boardHost, {
    svg: () => handle && handle.svg,
    pick(cell) {
      if (state !== 'solving' || promo || (sel && (sel.path.length || sel.from === cell))) return false;
      if (sel && candidates().some((m) => m.also_from === cell)) return false; // castling by the rook
      if (!legal().some((m) => m.from === cell)) return false;
      sel = { from: cell, path: [] };
      focusCell = cell;
      render();
      return true;
    },
    selected: (cell) => !!sel && sel.from === cell && !sel.path.length,
    click: (cell) => clickCell(cell),
    render: () => render(),
  });
  boardKeys(boardHost, {
    handle: () => handle,
    activate: clickCell,
    cancel: () => { sel = null; promo = null; renderChooser(); render(); },
    focused: (cell) => { focusCell = cell; },
  });

  async function next() {
    if (timer) { clearTimeout(timer); timer = null; }
    const q = new URLSearchParams({ game });
    if (theme) q.set('theme', theme);
    if (easy) q.set('track', 'easy');
    try {
      const data = await call('GET', `/api/puzzles/next?${q}`);
      P = data.puzzle;
      player = { ...data.player, change: 0, streak: data.player.streak };
    } catch (err) {
      P = null;
      status.textContent = err.status === 404 ? t('pz.none') : t('error.generic', { message: err.message });
      info.replaceChildren();
      controls.replaceChildren();
      boardHost.replaceChildren();
      return;
    }
    step = 0;
    tried = [];
    sel = null;
    promo = null;
    renderChooser();
    hintCell = null;
    result = null;
    message = null;
    state = 'solving';
    focusCell = null;
    showStep(0);
    document.title = `${t('pz.title')} · ${t(`game.${game}`)} — agora`;
    render();
  }

  function refilter() {
    theme = themeSel.value;
    easy = easyBox.checked;
    const q = new URLSearchParams();
    if (theme) q.set('theme', theme);
    if (easy) q.set('track', 'easy');
    history.replaceState(null, '', `#/puzzles/${game}${q.toString() ? '?' + q : ''}`);
    next();
  }
  themeSel.addEventListener('change', refilter);
  easyBox.addEventListener('change', refilter);

  await next();
  return () => {
    if (timer) clearTimeout(timer);
    detachDrag();
  };
}

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
import { errorText, t, num } from '../common/i18n.js';
import { drawBoard, boardKeys } from '../board/board.js';
import { h } from '../common/dom.js';
import { cellLabel } from '../board/cells.js';
import * as api from '../net/api.js';
import { listPuzzles, nextPuzzle, attemptPuzzle } from '../net/puzzles-api.js';
import { cellsInText, piecesAfter } from '../board/moves.js';
import { promotionBox, showPromotion } from '../board/promotion.js';
import { attachDrag } from '../board/board-drag.js';
import { namesToggle } from '../board/names.js';

const REPLY_MS = 450; // the computer's reply follows the player's move after a moment

const signed = (n) => (n > 0 ? '+' : n < 0 ? '\u2212' : '\u00b1') + num(Math.abs(n));

/** The list of games with puzzles: #/puzzles. */
export async function showPuzzleHome(host) {
  document.title = `${t('pz.title')} — agora`;
  const list = await listPuzzles();
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

// What the solver may play and what the board marks.
function rules(ctx) {
  const { z, layout, names } = ctx;
  const solver = () => z.P.solver;
  const legal = () => (z.state === 'solving' && z.pos ? z.pos.legal_moves || [] : []);
  const candidates = () => (z.sel ? legal().filter((m) => m.from === z.sel.from && z.sel.path.every((c, i) => m.path[i] === c)) : []);
  const solutionMove = (k) => z.P.solution[2 * k];
  // The solution's move, or at the last step one of the moves that win at once as well.
  const accepts = (k, move) => move === solutionMove(k) ||
    (k === z.P.solver_moves - 1 && (z.P.alternatives || []).includes(move));

  function piecesOf(p) {
    return api.piecesOf(layout, p.board, p.captured_pieces);
  }

  function marks() {
    const m = { last: z.shown.last || [], check: [], selected: [], targets: [], captureTargets: [], allowed: [], movable: [], capturing: [], path: [] };
    if (z.hintCell) m.movable = [z.hintCell];
    if (!z.sel) return m;
    m.selected = [z.sel.from];
    m.path = [...z.sel.path];
    const k = z.sel.path.length;
    for (const mv of candidates()) {
      const next = mv.path[k];
      if (!next) continue;
      if (mv.flags.includes('capture')) m.captureTargets.push(next);
      else m.targets.push(next);
    }
    return m;
  }

  // The cells a move of the position on the board goes through (its legal move's own
  // from and path; a move text read by cell names otherwise).
  function cellsOf(text) {
    const mv = (z.pos.legal_moves || []).find((m) => m.move === text);
    return mv ? [mv.from, ...mv.path] : cellsInText(text, names);
  }
  return { solver, legal, candidates, solutionMove, accepts, piecesOf, marks, cellsOf };
}

// The board: drawn, clicked, dragged, keyed; the promotion chooser.
function boardView(ctx) {
  const { z, game, layout, names, boardHost, chooser } = ctx;
  function drawNow() {
    const mk = ctx.marks();
    const hadFocus = boardHost.contains(document.activeElement);
    let pieces = z.shown.pieces;
    if (z.sel && z.sel.path.length) {
      pieces = { ...pieces };
      const moving = pieces[z.sel.from];
      delete pieces[z.sel.from];
      pieces[z.sel.path[z.sel.path.length - 1]] = moving;
    }
    z.handle = drawBoard(boardHost, layout, pieces, {
      game, flipped: z.P && ctx.solver() === 'black', names: true, marks: mk, interactive: true,
      title: t('pz.board', { game: t(`game.${game}`) }),
      label: (name, piece) => cellLabel(game, layout, name, piece, mk),
    });
    z.handle.svg.classList.toggle('my-turn', z.state === 'solving');
    if (!z.focusCell || !z.handle.cellNode(z.focusCell)) z.focusCell = mk.selected[0] || names[0];
    const node = z.handle.cellNode(z.focusCell);
    node.setAttribute('tabindex', '0');
    if (hadFocus) node.focus({ preventScroll: true });
  }

  function renderChooser() {
    showPromotion(chooser, game, z.promo, ctx.solver() === 'white', {
      pick: (mv) => { z.promo = null; renderChooser(); ctx.played(mv); },
      cancel: () => { z.promo = null; z.sel = null; renderChooser(); ctx.render(); },
    });
  }

  function clickCell(cell) {
    if (z.state !== 'solving' || z.promo) return;
    z.focusCell = cell;
    if (z.sel) {
      const k = z.sel.path.length;
      const nextMoves = ctx.candidates().filter((m) => m.path[k] === cell);
      if (nextMoves.length) {
        z.sel.path.push(cell);
        const done = nextMoves.filter((m) => m.path.length === z.sel.path.length);
        if (done.length === nextMoves.length) {
          if (done.length === 1) return ctx.played(done[0]);
          // Moves differing only in the promotion: the chooser asks which piece.
          z.promo = done;
          ctx.render();
          return renderChooser();
        }
        return ctx.render();
      }
      const castle = k === 0 ? ctx.candidates().filter((m) => m.also_from === cell) : [];
      if (castle.length === 1) return ctx.played(castle[0]);
      z.sel = k === 0 && cell !== z.sel.from && ctx.legal().some((m) => m.from === cell) ? { from: cell, path: [] } : null;
      return ctx.render();
    }
    if (ctx.legal().some((m) => m.from === cell)) z.sel = { from: cell, path: [] };
    ctx.render();
  }

  // Click, or drag a piece and drop it (board-drag.js): a drop is a click on its cell.
  const detachDrag = attachDrag(boardHost, {
    svg: () => z.handle && z.handle.svg,
    pick(cell) {
      if (z.state !== 'solving' || z.promo || (z.sel && (z.sel.path.length || z.sel.from === cell))) return false;
      if (z.sel && ctx.candidates().some((m) => m.also_from === cell)) return false; // castling by the rook
      if (!ctx.legal().some((m) => m.from === cell)) return false;
      z.sel = { from: cell, path: [] };
      z.focusCell = cell;
      ctx.render();
      return true;
    },
    selected: (cell) => !!z.sel && z.sel.from === cell && !z.sel.path.length,
    click: (cell) => clickCell(cell),
    render: () => ctx.render(),
  });
  boardKeys(boardHost, {
    handle: () => z.handle,
    activate: clickCell,
    cancel: () => { z.sel = null; z.promo = null; renderChooser(); ctx.render(); },
    focused: (cell) => { z.focusCell = cell; },
  });
  return { drawNow, renderChooser, clickCell, detachDrag };
}

// The status, the hint and the solution, the themes, the rating, the buttons.
function infoView(ctx) {
  const { z, host, status, info, rating, controls } = ctx;
  function themeLines() {
    return h('div', { class: 'themes', id: 'puzzle-themes' }, h('h2', {}, t('pz.themes')),
      h('ul', {}, z.P.themes.map((x) => h('li', { 'data-theme': x }, h('strong', {}, t(`pz.theme.${x}`)), ' — ', t(`pz.theme.${x}.text`)))));
  }

  function renderInfo() {
    const side = t('side.' + ctx.solver());
    if (z.state === 'solving') status.textContent = z.step === 0 ? t('pz.find', { side }) : t('pz.again');
    else if (z.state === 'reply') status.textContent = t('pz.again');
    else if (z.state === 'solved') status.textContent = t('pz.solved');
    else status.textContent = z.message && z.message.kind === 'gaveup' ? t('pz.gaveup') : z.message ? z.message.text : '';
    status.className = 'status ' + (z.state === 'solved' ? 'won' : z.state === 'failed' ? 'lost' : '');
    const lines = [];
    if (z.message && z.state !== 'failed') lines.push(h('p', { class: z.message.kind || '' }, z.message.text));
    if (z.hintCell && z.state === 'solving') lines.push(h('p', { class: 'hint', id: 'hint-text' }, t('pz.hint.text', { cell: z.hintCell })));
    if (z.state === 'solved' || z.state === 'failed') {
      lines.push(h('p', { class: 'solution', id: 'solution-text' }, t('pz.solution.text', { moves: z.P.solution_display.join(' ') })));
      if (z.result && !z.result.counted) lines.push(h('p', { class: 'muted', id: 'not-counted' }, t(!z.result.why || z.result.why === 'attempted' ? 'pz.notcounted' : 'pz.notcounted.other')));
      if (z.result) lines.push(h('p', { class: 'muted', id: 'puzzle-rating' }, t('pz.puzzle.rating', { rating: z.result.puzzle.rating })));
    }
    lines.push(themeLines());
    info.replaceChildren(...lines);
    if (z.player) {
      rating.replaceChildren(
        h('span', { id: 'rating-value', 'data-rating': z.player.rating, 'data-change': z.player.change },
          z.player.change ? t('pz.rating.change', { rating: z.player.rating, change: signed(z.player.change) }) : t('pz.rating', { rating: z.player.rating })),
        ' · ', h('span', { id: 'streak' }, t('pz.streak', { n: z.player.streak })));
    }
  }

  function renderControls() {
    const over = z.state === 'solved' || z.state === 'failed';
    controls.replaceChildren(
      h('button', { type: 'button', id: 'puzzle-hint', disabled: z.state !== 'solving' || !!z.hintCell, onclick: () => { z.hintCell = ctx.cellsOf(ctx.solutionMove(z.step))[0]; render(); } }, t('pz.hint')),
      h('button', { type: 'button', id: 'puzzle-solution', disabled: over || z.state !== 'solving', onclick: ctx.giveUp }, t('pz.solution')),
      h('button', { type: 'button', id: 'puzzle-next', class: over ? 'primary' : '', onclick: ctx.next }, t('pz.next')));
  }

  function render() {
    // A single piece to move (a forced capture): pick it up.
    if (z.state === 'solving' && !z.sel) {
      const froms = new Set(ctx.legal().map((m) => m.from));
      if (froms.size === 1) z.sel = { from: [...froms][0], path: [] };
    }
    ctx.drawNow();
    renderInfo();
    renderControls();
    const box = host.querySelector('.puzzle');
    if (box && z.P) {
      box.dataset.puzzle = z.P.id;
      box.dataset.step = String(z.step);
      box.dataset.state = z.state;
    }
  }
  return { themeLines, renderInfo, renderControls, render };
}

// A move played, the computer's reply, giving up, the server's judgement.
function solving(ctx) {
  const { z, names } = ctx;
  async function judge() {
    try {
      z.result = await attemptPuzzle(z.P.id, z.tried);
      z.player = { ...z.result.player };
      // The server's verdict on the moves sent stands.
      if (z.result.solved && z.state === 'failed') { z.state = 'solved'; z.message = null; }
      else if (!z.result.solved && z.state === 'solved') { z.state = 'failed'; z.message = { text: t('pz.wrong', { move: z.P.solution_display.join(' ') }), kind: 'error' }; }
    } catch (err) {
      z.message = { text: t('error.generic', { message: errorText(err) }), kind: 'error' };
    }
    ctx.render();
  }

  function showStep(k) {
    z.pos = z.P.steps[k];
    const lastMove = z.pos.moves[z.pos.moves.length - 1];
    z.shown = { pieces: ctx.piecesOf(z.pos), last: lastMove ? cellsInText(lastMove.move, names) : [] };
  }

  function played(mv) {
    z.sel = null;
    z.hintCell = null;
    z.tried.push(mv.move);
    const right = ctx.accepts(z.step, mv.move);
    z.shown = { pieces: piecesAfter(z.shown.pieces, mv), last: [mv.from, ...mv.path] };
    if (!right) {
      z.state = 'failed';
      const want = (z.pos.legal_moves || []).find((m) => m.move === ctx.solutionMove(z.step));
      // The right path with another piece than the solution's promotion.
      const piece = want && want.promotion && mv.promotion && want.path.join() === mv.path.join();
      z.message = { text: t(piece ? 'pz.wrong.piece' : 'pz.wrong', { move: z.P.solution_display[2 * z.step] }), kind: 'error' };
      if (want) z.shown = { pieces: piecesAfter(ctx.piecesOf(z.pos), want), last: [want.from, ...want.path] };
      ctx.render();
      return judge();
    }
    if (z.step + 1 >= z.P.solver_moves) {
      z.state = 'solved';
      z.message = null;
      ctx.render();
      return judge();
    }
    z.state = 'reply';
    z.message = null;
    ctx.render();
    z.timer = setTimeout(() => {
      z.timer = null;
      z.step += 1;
      showStep(z.step);
      z.state = 'solving';
      z.message = { text: t('pz.replied', { move: z.P.solution_display[2 * z.step - 1] }), kind: 'info' };
      ctx.render();
    }, REPLY_MS);
  }

  function giveUp() {
    if (z.state !== 'solving') return;
    z.state = 'failed';
    z.message = { kind: 'gaveup', text: t('pz.gaveup') };
    const want = (z.pos.legal_moves || []).find((m) => m.move === ctx.solutionMove(z.step));
    if (want) z.shown = { pieces: piecesAfter(ctx.piecesOf(z.pos), want), last: [want.from, ...want.path] };
    z.sel = null;
    ctx.render();
    judge();
  }
  return { judge, showStep, played, giveUp };
}

// The next puzzle, and the filters that choose it.
function loading(ctx) {
  const { z, game, boardHost, status, info, controls, themeSel, easyBox } = ctx;
  async function next() {
    if (z.timer) { clearTimeout(z.timer); z.timer = null; }
    const q = new URLSearchParams({ game });
    if (z.theme) q.set('theme', z.theme);
    if (z.easy) q.set('track', 'easy');
    try {
      const data = await nextPuzzle(q);
      z.P = data.puzzle;
      z.player = { ...data.player, change: 0, streak: data.player.streak };
    } catch (err) {
      z.P = null;
      status.textContent = err.status === 404 ? t('pz.none') : t('error.generic', { message: errorText(err) });
      info.replaceChildren();
      controls.replaceChildren();
      boardHost.replaceChildren();
      return;
    }
    z.step = 0;
    z.tried = [];
    z.sel = null;
    z.promo = null;
    ctx.renderChooser();
    z.hintCell = null;
    z.result = null;
    z.message = null;
    z.state = 'solving';
    z.focusCell = null;
    ctx.showStep(0);
    document.title = `${t('pz.title')} · ${t(`game.${game}`)} — agora`;
    ctx.render();
  }

  function refilter() {
    z.theme = themeSel.value;
    z.easy = easyBox.checked;
    const q = new URLSearchParams();
    if (z.theme) q.set('theme', z.theme);
    if (z.easy) q.set('track', 'easy');
    history.replaceState(null, '', `#/puzzles/${game}${q.toString() ? '?' + q : ''}`);
    next();
  }
  themeSel.addEventListener('change', refilter);
  easyBox.addEventListener('change', refilter);
  return { next, refilter };
}

/** Solving the puzzles of one game: #/puzzles/GAME. */
export async function showPuzzles(host, game, query) {
  const list = await listPuzzles();
  const entry = list.games.find((g) => g.game === game);
  if (!entry) throw new Error(t('pz.none'));
  const layout = await api.layoutOf(game);
  const names = layout.cells.map((c) => c.name);
  // The page's state, shared by its parts above.
  const z = {
    theme: query.get('theme') || '',
    easy: query.get('track') === 'easy',
    P: null,          // the puzzle (its steps, solution)
    step: 0,          // the solver's move being looked for
    pos: null,        // the position on the board: a step of P, or a preview
    sel: null,        // {from, path} while a move is entered
    promo: null,      // moves differing only in the promotion, for the chooser
    tried: [],        // the solver's moves sent so far
    state: 'solving', // 'solving' | 'reply' | 'solved' | 'failed'
    result: null,     // the server's judgement of the attempt
    message: null,    // {text, kind}
    hintCell: null,
    focusCell: null,
    handle: null,
    player: null,     // {rating, deviation, change, streak}
    timer: null,
    shown: null,      // {pieces, last: [cells]} the picture on the board
  };

  const boardHost = h('div', { class: 'board-host', id: 'puzzle-board' });
  const chooser = promotionBox();
  const status = h('p', { class: 'status', id: 'puzzle-status', role: 'status', 'aria-live': 'polite' });
  const info = h('div', { class: 'puzzle-info', id: 'puzzle-info', 'aria-live': 'polite' });
  const rating = h('p', { class: 'rating', id: 'player-rating' });
  const controls = h('div', { class: 'controls' });
  const themeSel = h('select', { id: 'puzzle-theme' },
    h('option', { value: '' }, t('pz.theme.all')),
    entry.themes.filter((x) => x.count > 0).map((x) => h('option', { value: x.name, selected: x.name === z.theme }, t(`pz.theme.${x.name}`))));
  const easyBox = h('input', { type: 'checkbox', id: 'puzzle-easy', checked: z.easy });
  const filters = h('form', { class: 'puzzle-filters', onsubmit: (e) => e.preventDefault() },
    h('label', { for: 'puzzle-theme' }, t('pz.theme')), ' ', themeSel, ' ',
    entry.easy > 0 ? h('label', { class: 'toggle' }, easyBox, ' ', t(game === 'chess' ? 'pz.easy.chess' : 'pz.easy')) : '');
  const title = h('h1', {}, t('pz.title'), ' · ', t(`game.${game}`));
  host.replaceChildren(h('div', { class: 'play puzzle', 'data-game': game },
    h('div', { class: 'board-col' }, boardHost, chooser),
    h('aside', { class: 'panel' }, title, filters, h('p', {}, namesToggle(layout.shape)), status, info, rating, controls)));

  // The parts call each other through `ctx`.
  const ctx = { z, game, layout, names, entry, host, boardHost, chooser, status, info, rating, controls, themeSel, easyBox };
  for (const part of [rules, boardView, infoView, solving, loading]) Object.assign(ctx, part(ctx));

  await ctx.next();
  return () => {
    if (z.timer) clearTimeout(z.timer);
    ctx.detachDrag();
  };
}

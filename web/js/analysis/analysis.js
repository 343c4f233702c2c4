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
// The page's logic is the controller (controller.js, no DOM); this file puts the page
// together from its views (board-, engine-, tree-, review-, editor-view.js) and the
// load and export sections, and tells each view when to draw.
import { t, num } from '../common/i18n.js';
import * as api from '../net/api.js';
import { h } from '../common/dom.js';
import { showOpeningName } from '../openings/opening-name.js';
import { createAnalysis } from './controller.js';
import { boardView } from './board-view.js';
import { engineView } from './engine-view.js';
import { treeView } from './tree-view.js';
import { reviewView } from './review-view.js';
import { editorView } from './editor-view.js';

function hashParams() {
  return new URLSearchParams(location.hash.split('?')[1] || '');
}

/** Loading a position or a record (and reviewing it). */
function loadSection(ctl, game) {
  const posField = h('textarea', { id: 'position-text', rows: 2, spellcheck: 'false', 'aria-label': t('an.position') });
  const recordField = h('textarea', { id: 'record-text', rows: 4, spellcheck: 'false', 'aria-label': t(game === 'chess' ? 'an.import.pgn' : 'an.import.record') });
  const section = h('details', { class: 'load', id: 'load' },
    h('summary', {}, t('an.load')),
    h('p', {}, h('label', { for: 'position-text' }, t('an.position')), h('span', { class: 'muted' }, ' ', t('new.position.hint'))),
    posField,
    h('p', {}, h('button', { type: 'button', id: 'load-position', onclick: () => ctl.loadPosition(posField.value.trim()) }, t('an.position.load'))),
    h('p', {}, h('label', { for: 'record-text' }, t(game === 'chess' ? 'an.import.pgn' : 'an.import.record'))),
    recordField,
    h('p', {}, h('button', { type: 'button', id: 'load-record', onclick: () => ctl.loadRecord(recordField.value) }, t('an.import.load')), ' ',
      h('button', { type: 'button', id: 'review-record', onclick: () => ctl.reviewRecord(recordField.value) }, t('an.import.review'))));
  return { section, showPosition: (text) => { posField.value = text; } };
}

/** The export of the tree or the line, and the link to what is shown. */
function exportSection(ctl, game) {
  const exportText = h('textarea', { id: 'export-text', rows: 5, readonly: true, spellcheck: 'false', 'aria-label': t('an.export') });
  const link = h('a', { id: 'share-link', href: '#' }, t('an.link'));
  const exportPGN = (lineOnly) => {
    exportText.value = ctl.exportPGN(lineOnly);
    exportText.focus();
    exportText.select();
  };
  const section = h('details', { class: 'export', id: 'export' },
    h('summary', {}, t('an.export')),
    h('p', {}, h('button', { type: 'button', id: 'export-line', class: 'small', onclick: () => exportPGN(true) }, t('an.export.line')), ' ',
      h('button', { type: 'button', id: 'export-tree', class: 'small', onclick: () => exportPGN(false) }, t('an.export.tree'))),
    exportText,
    h('p', {}, link, ' ', h('button', { type: 'button', class: 'small', id: 'copy-link', onclick: () => navigator.clipboard?.writeText(link.href).catch(() => {}) }, t('an.link.copy'))));
  const updateLink = () => {
    const query = ctl.linkQuery();
    link.href = `${location.origin}${location.pathname}#/analysis/${game}` + (query ? '?' + query : '');
  };
  return { section, updateLink };
}

const keysHelp = () => h('details', { class: 'keys', id: 'keys' }, h('summary', {}, t('an.keys')),
  h('dl', {}, ...[['← →', 'an.keys.step'], ['Home End', 'an.keys.ends'], ['↑ ↓', 'an.keys.variations'], ['Enter', 'an.keys.enter']]
    .flatMap(([k, v]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, t(v))])));

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

  const view = {};
  const ctl = createAnalysis({ game, entry, source, api, view });
  const { s } = ctl;
  const board = boardView(ctl);
  const engine = engineView(ctl);
  const moves = treeView(ctl);
  const review = reviewView(ctl);
  const editor = editorView(ctl);
  const load = loadSection(ctl, game);
  const exported = exportSection(ctl, game);
  const status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' });
  const note = h('div', { class: 'hint', id: 'note', 'aria-live': 'polite' });
  const title = h('h1', { class: 'game-title' });

  const page = h('div', { class: 'play analysis', 'data-game': game },
    h('div', { class: 'board-col' }, h('div', { class: 'board-row' }, engine.bar, board.boardHost), board.chooser, board.nav),
    h('aside', { class: 'panel' }, title, status, note, engine.section,
      h('h2', { class: 'moves-h' }, t('play.moves')), moves.moveList, moves.actions, moves.comment,
      review.host, load.section, editor.section, exported.section, keysHelp(),
      source ? h('p', {}, h('a', { class: 'button', id: 'back-to-game', href: `#/game/${source.id}` }, t('an.backtogame'))) : null));
  host.replaceChildren(page);

  function renderStatus() {
    const { P } = s;
    title.textContent = t('an.title', { game: t(`game.${game}`) });
    if (s.editing) status.textContent = t('an.edit.status');
    else if (!P) status.textContent = '…';
    else if (P.status && P.status.result !== 'ongoing') {
      const r = P.status.result;
      status.textContent = (r === 'draw' ? t('result.draw') : t(r === 'white-wins' ? 'result.white' : 'result.black')) + ' — ' + t('reason.' + P.status.reason);
    } else status.textContent = t('an.tomove', { side: t('side.' + P.side_to_move), ply: num(ctl.plyShown()) });
    const items = [];
    if (s.message) items.push(h('p', { class: s.message.kind || '' }, t(s.message.key, s.message.vars)));
    if (s.learn) items.push(review.learnBox());
    note.replaceChildren(...items);
  }

  function renderTree() {
    moves.render();
    if (s.tree && s.review) review.graph();
  }

  Object.assign(view, {
    all: () => {
      board.draw();
      renderStatus();
      board.renderChooser();
      engine.render();
      renderTree();
      showOpeningName(page.querySelector('.panel'), s.P);
    },
    board: board.draw,
    tree: renderTree,
    status: renderStatus,
    chooser: board.renderChooser,
    engine: engine.render,
    engineError: engine.error,
    review: review.render,
    editor: editor.render,
    editorText: editor.renderText,
    editorClosed: editor.closed,
    link: exported.updateLink,
    positionText: load.showPosition,
    shown: (id) => { page.dataset.shown = String(id); }, // the board shows node `id` (tests wait on it)
  });

  // Keys anywhere on the page but in fields and on the board: ← → Home End ↑ ↓.
  function onKey(e) {
    if (!s.tree || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (e.target.tagName || '').toLowerCase();
    if (['input', 'textarea', 'select'].includes(tag) || board.boardHost.contains(e.target) || s.editing) return;
    const to = ctl.keyTarget(e.key);
    if (!to) return;
    e.preventDefault();
    ctl.go(to.id);
  }
  document.addEventListener('keydown', onKey);

  document.title = `${t('an.title', { game: t(`game.${game}`) })} — agora`;
  await ctl.start({
    position: q.get('position') || null,
    moves: (q.get('moves') || '').split(',').filter(Boolean),
    ply: q.has('ply') ? Number(q.get('ply')) : 'end',
    review: !!opts.review,
  });

  return () => {
    ctl.dispose();
    document.removeEventListener('keydown', onKey);
  };
}

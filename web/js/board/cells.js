// What a screen reader hears of a board's cells and pieces, shared by the game page and
// the analysis board: the piece's side and name in the reader's language, and a cell's
// label (its name, what stands there, its kind, and what the player may do there).

import { t } from '../common/i18n.js';
import { pieceSide } from './board.js';

// The i18n catalogue's piece-name group of each game (piece.GROUP.LETTER).
const PIECE_NAMES = { chess: 'chess', agon: 'agon', 'egara-guti': 'egara' };

export function pieceName(game, letter) {
  return t(`piece.${PIECE_NAMES[game] || game}.${letter.toLowerCase()}`);
}

/** A cell's label: `piece` as the board gives it ({piece, captured} or null), `mk`
 *  the board's marks (selected, targets, allowed, captureTargets, movable, last). */
export function cellLabel(game, layout, name, piece, mk) {
  const parts = [name];
  if (piece && piece.piece) {
    parts.push(t('side.' + pieceSide(piece.piece, game)) + ' ' + pieceName(game, piece.piece));
    if (piece.captured) parts.push(t('play.captured'));
  } else parts.push(t('play.empty'));
  const cell = layout.cells.find((c) => c.name === name);
  if (cell && cell.flags.includes('throne')) parts.push(t('play.throne'));
  if (mk.selected.includes(name)) parts.push(t('play.selected'));
  if (mk.targets.includes(name) || mk.allowed.includes(name)) parts.push(t('play.destination'));
  if (mk.captureTargets.includes(name)) parts.push(t('play.destination.capture'));
  if (mk.movable.includes(name)) parts.push(t('play.movable'));
  if (mk.last.includes(name)) parts.push(t('play.lastmove'));
  return parts.join(', ');
}

// Moves told in words and notation explained.  What happened comes from the server's
// description of the last move (the state's `last_move`: from, to, path, captured
// cells, the letters taken, flags, promotion, the side), never from the rules; the
// legend and the titles read the notation's signs only.
import { t } from '../common/i18n.js';
import { h } from '../common/dom.js';
import { pieceName } from './cells.js';

/** One or more sentences on move `m` (a `last_move`) of `game`, for the player of
 *  side `human`: who played it, what it took, a return and where, a chain and how
 *  many pieces, a promotion, check. */
export function narrate(game, m, human, who = 'computer') {
  const mine = who !== 'spectator' && m.side === human;
  const out = [mine ? t('narrate.you', { move: m.display }) : playedBy(who, m)];
  const flags = m.flags || [];
  const taken = m.taken || [];
  const whose = mine ? 'their' : 'your';
  if (flags.includes('return')) {
    out.push(t(mine ? 'narrate.return.you' : 'narrate.return', { piece: pieceName(game, m.piece || m.taken?.[0] || ''), cell: m.to }));
  } else if (flags.includes('chain') && taken.length > 1) {
    out.push(t(`narrate.chain.${whose}`, { jumps: m.path.length, n: taken.length, cells: m.captured.join(', ') }));
  } else if (taken.length === 1) {
    out.push(t(`narrate.took.${whose}`, { piece: pieceName(game, taken[0]), cell: m.captured[0] }));
  } else if (taken.length > 1) {
    out.push(t(`narrate.tookmany.${whose}`, { n: taken.length, cells: m.captured.join(', ') }));
  }
  if (m.promotion) out.push(t('narrate.promotion', { piece: pieceName(game, m.promotion) }));
  if (flags.includes('check')) out.push(t(mine ? 'narrate.check.you' : 'narrate.check'));
  return out.join(' ');
}

/** Who moved against the reader: the computer, the opponent (a game between people),
 *  or, to a spectator, White or Black by name. */
function playedBy(who, m) {
  if (who === 'opponent') return t('narrate.opponent', { move: m.display });
  if (who === 'spectator') return t('narrate.sideplayed', { side: t(`side.${m.side}`), move: m.display });
  return t('play.theyplayed', { move: m.display });
}

/** Who the reader of state `S` is facing: see playedBy. */
export function readerOf(S) {
  if (!S.people) return 'computer';
  return S.you ? 'opponent' : 'spectator';
}

/** What the status line says of the last move of state `S` (the other side's). */
export function tellLast(S) {
  const m = S.last_move;
  const last = S.moves[S.moves.length - 1];
  const who = readerOf(S);
  if (m && last && m.ply === S.moves.length) return narrate(S.game, m, S.human_side, who);
  return last ? playedBy(who, { display: last.display, side: last.side || '' }) : '';
}

// The signs of each game's notation, in the order the legend lists them.
const SIGNS = {
  chess: ['K Q R B N', 'e4', 'x', '+', '#', '=Q', 'O-O', 'O-O-O'],
  agon: ['-', '@'],
  'egara-guti': ['-', 'x', 'xx'],
};
const GROUP = { chess: 'chess', agon: 'agon', 'egara-guti': 'egara' };

/** The move list's legend: a disclosure with the game's signs and what they mean. */
export function notationLegend(game) {
  const g = GROUP[game] || game;
  const signs = SIGNS[game] || [];
  return h('details', { class: 'notation', id: 'notation' },
    h('summary', {}, t('notation.title')),
    h('p', {}, t(`notation.${g}.intro`)),
    h('dl', {}, signs.flatMap((s, i) => [h('dt', {}, s), h('dd', {}, t(`notation.${g}.${i + 1}`))])));
}

/** A title for one move of the list: its text read sign by sign. */
export function moveTitle(game, m) {
  const text = m.display || m.move;
  if (game === 'chess') {
    if (/^O-O-O/.test(text)) return t('title.castle.long') + checkWords(text);
    if (/^O-O/.test(text)) return t('title.castle') + checkWords(text);
    const sq = text.match(/([a-h][1-8])(?!.*[a-h][1-8])/);
    const letter = /^[KQRBN]/.test(text) ? text[0] : 'P';
    const promo = text.match(/=([QRBN])/);
    let s = t(text.includes('x') ? 'title.takes' : 'title.moves', { piece: pieceName('chess', letter), cell: sq ? sq[1] : '' });
    if (promo) s += ', ' + t('title.promotes', { piece: pieceName('chess', promo[1]) });
    return s + checkWords(text);
  }
  if (text.includes('@')) {
    const [from, to] = text.split('@');
    return t('title.return', { from, to });
  }
  if (text.includes('x')) {
    const cells = text.split('x');
    return t(cells.length > 2 ? 'title.chain' : 'title.jump', { from: cells[0], to: cells[cells.length - 1], n: cells.length - 1 });
  }
  const [from, to] = text.split('-');
  return t('title.step', { from, to: to || '' });
}

function checkWords(text) {
  if (text.endsWith('#')) return ', ' + t('title.mate');
  if (text.endsWith('+')) return ', ' + t('title.check');
  return '';
}


// The lessons' referee, without a page: a stage (data, web/lessons/GAME.json) is
// played against the server's rules alone.  Every legal move, every position and every
// result comes from POST /api/positions (src/server/API.md); this module only compares
// what the server answers with the stage's goal.  The lesson page (learn.js) and the
// walk test (tests/learn/walk.mjs) both drive it, so the test plays what people play.
//
// A stage: {"id", "position", "side": "white"|"black", "before": [move texts played
// first, e.g. the opponent's pawn advance], "goal": {...}, "replies": [move texts the
// opponent prefers, first legal one wins; otherwise its first legal move], "par": N
// (moves for three stars), "max": N (moves before the stage is failed), "solution":
// [the learner's intended moves], "wrong": [a learner move that must not solve it],
// "text": i18n key}.
// Goal kinds (all read from the server's answers):
//   reach    {"cells": [...]}   stars: a learner's piece lands on every cell (a move's path)
//   capture  {"cells": [...]}   the learner's moves take the pieces on these cells
//   flag     {"flag": "castle"} a learner's move carries this flag (castle, en-passant,
//                               promotion, return, chain, capture)
//   display  {"pattern": "\\+$"} a learner's move's display text matches (check: SAN's +)
//   win      {"reason": "checkmate"}  the game ends won by the learner (for that reason)
// A stage fails when the game ends otherwise (a stalemate, a lost formation) or when
// `max` moves are used.

/** Stars for a solved stage: three within par, two within par + 2, else one. */
export function starsFor(stage, used) {
  if (used <= stage.par) return 3;
  if (used <= stage.par + 2) return 2;
  return 1;
}

/** A fresh run of a stage: nothing collected, no move made. */
export function newRun(stage) {
  return { moves: [...(stage.before || [])], used: 0, collected: [], captured: [], outcome: 'playing' };
}

/** The goal's cells still to do (stars not yet collected, pieces not yet taken). */
export function remaining(stage, run) {
  const g = stage.goal;
  if (g.kind === 'reach') return g.cells.filter((c) => !run.collected.includes(c));
  if (g.kind === 'capture') return g.cells.filter((c) => !run.captured.includes(c));
  return [];
}

function met(stage, run, legal, after) {
  const g = stage.goal;
  const st = after.status || {};
  switch (g.kind) {
    case 'reach':
    case 'capture':
      return remaining(stage, run).length === 0;
    case 'flag':
      return (legal.flags || []).includes(g.flag);
    case 'display': {
      const last = after.moves[after.moves.length - 1];
      return new RegExp(g.pattern).test(last ? last.display : '');
    }
    case 'win':
      return st.over && st.winner === stage.side && (!g.reason || st.reason === g.reason);
    default:
      throw new Error(`unknown goal kind '${g.kind}'`);
  }
}

/** The position a run stands at (POST /api/positions through `ask`). */
export function current(stage, run, ask) {
  return ask({ game: stage.game, position: stage.position, moves: run.moves });
}

/** The opponent's reply in a position: the first of the stage's preferred moves that is
 *  legal, else the first legal move. */
export function replyIn(stage, state) {
  const legal = state.legal_moves || [];
  for (const m of stage.replies || []) if (legal.some((l) => l.move === m)) return m;
  return legal.length ? legal[0].move : null;
}

/**
 * Plays the learner's move `text` (one of state.legal_moves) and, unless that ends the
 * stage, the opponent's reply.  Returns {run, state, reply, after} where run.outcome is
 * 'solved', 'failed' or 'playing', `after` the position right after the learner's move
 * and `state` the one the learner faces next.
 */
export async function play(stage, run, state, text, ask) {
  const legal = (state.legal_moves || []).find((l) => l.move === text);
  if (!legal) throw new Error(`'${text}' is not a legal move here`);
  const next = { ...run, moves: [...run.moves, text], used: run.used + 1 };
  next.collected = [...run.collected, ...(legal.path || [legal.to]).filter((c) => stage.goal.cells?.includes(c) && !run.collected.includes(c))];
  next.captured = [...run.captured, ...(legal.captured || []).filter((c) => !run.captured.includes(c))];
  const after = await current(stage, next, ask);
  if (met(stage, next, legal, after)) return { run: { ...next, outcome: 'solved', stars: starsFor(stage, next.used) }, state: after, after, reply: null };
  if (after.status.over) return { run: { ...next, outcome: 'failed', why: after.status.reason }, state: after, after, reply: null };
  const reply = replyIn(stage, after);
  const withReply = { ...next, moves: [...next.moves, reply] };
  const faced = await current(stage, withReply, ask);
  // The opponent's reply may end the game too: a win goal reached on its ply (the
  // 40-ply ending counts after the reply) is the learner's; anything else a failure.
  if (faced.status.over) {
    const won = stage.goal.kind === 'win' && met(stage, withReply, legal, faced);
    return { run: { ...withReply, outcome: won ? 'solved' : 'failed', why: faced.status.reason, stars: won ? starsFor(stage, next.used) : undefined }, state: faced, after, reply };
  }
  if (next.used >= stage.max) return { run: { ...withReply, outcome: 'failed', why: 'moves' }, state: faced, after, reply };
  return { run: withReply, state: faced, after, reply };
}

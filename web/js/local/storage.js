// Everything the browser keeps of a visitor, in localStorage; no other module names a
// key.  The keys:
//   agora.identity   the visitor: {people: {token, name} (the player's one token and
//                    name, API.md "One identity"), games: {ID: {token, game, created}}
//                    (their games; since issue 28 each under the player's token),
//                    puzzles: TOKEN (the puzzle token of before, until merged)}
//   agora.levels     {GAME: LEVEL}, the level last chosen per game
//   agora.clubs      {ID: {name}}, the clubs the visitor belongs to
//   agora.openings   the opening repertoire and its cards {lines, cards}
//   agora.learn      the lessons' stars {GAME/LESSON/STAGE: STARS}
//   agora.coords     the coordinates trainer's best scores {GAME:SIDE: SCORE}
//   agora.lang       the language chosen (en, bn, as, fi)
//   agora.theme      light or dark (absent: the system's)
//   agora.sound      on or off
//   agora.motion     on or off (animated moves)
//   agora.names      1 or 0 (cell names on the boards)
// Before issue 24 the three tokens were three keys (agora.games, agora.visitor,
// agora.puzzle-token) and the levels one key a game (agora.level.GAME): migrate()
// moves them here on the first load, keeping what is newer, so no visitor loses a game,
// a rating, stars or a repertoire.  Tests pass their own storage to migrate().

const IDENTITY = 'agora.identity';
const LEVELS = 'agora.levels';
const OLD_GAMES = 'agora.games';
const OLD_VISITOR = 'agora.visitor';
const OLD_PUZZLE_TOKEN = 'agora.puzzle-token';
const OLD_LEVEL = 'agora.level.';

const store = () => globalThis.localStorage;

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function readJson(key, s = store()) {
  const v = parse(s.getItem(key));
  return isObject(v) ? v : null;
}
const writeJson = (key, value, s = store()) => s.setItem(key, JSON.stringify(value));

/** Moves the keys of before issue 24 into today's; what today's keys hold wins. */
export function migrate(s = store()) {
  if (!s) return;
  const old = [];
  const id = readJson(IDENTITY, s) || {};
  let idChanged = false;
  const games = s.getItem(OLD_GAMES);
  if (games !== null) {
    const g = parse(games);
    if (isObject(g)) id.games = { ...g, ...(isObject(id.games) ? id.games : {}) };
    old.push(OLD_GAMES);
    idChanged = true;
  }
  const visitor = s.getItem(OLD_VISITOR);
  if (visitor !== null) {
    const v = parse(visitor);
    if (isObject(v) && !(isObject(id.people) && id.people.token)) id.people = { token: v.token, name: v.name };
    old.push(OLD_VISITOR);
    idChanged = true;
  }
  const puzzles = s.getItem(OLD_PUZZLE_TOKEN);
  if (puzzles !== null) {
    if (!id.puzzles && puzzles) id.puzzles = puzzles;
    old.push(OLD_PUZZLE_TOKEN);
    idChanged = true;
  }
  const levelKeys = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k && k.startsWith(OLD_LEVEL)) levelKeys.push(k);
  }
  if (levelKeys.length) {
    const levels = readJson(LEVELS, s) || {};
    for (const k of levelKeys) {
      const game = k.slice(OLD_LEVEL.length);
      const v = Number(s.getItem(k));
      if (!(game in levels) && Number.isInteger(v)) levels[game] = v;
    }
    writeJson(LEVELS, levels, s);
    old.push(...levelKeys);
  }
  if (idChanged) writeJson(IDENTITY, id, s);
  // Only once what they held is written under today's keys.
  for (const k of old) s.removeItem(k);
}

try {
  migrate();
} catch { /* no storage here (a private window may refuse it): nothing to move */ }

// ---- the visitor's tokens

function identity() {
  return readJson(IDENTITY) || {};
}
function changeIdentity(change) {
  const id = identity();
  change(id);
  writeJson(IDENTITY, id);
}

/** The visitor's games: {ID: {token, game, created}}, in the order they were kept. */
export function gameTokens() {
  const g = identity().games;
  return isObject(g) ? g : {};
}
export function saveGameTokens(games) {
  changeIdentity((id) => { id.games = games; });
}

/** The visitor between people: {token, name} ({} before their first challenge). */
export function visitor() {
  const v = identity().people;
  return isObject(v) ? v : {};
}
export function saveVisitor(v) {
  changeIdentity((id) => { id.people = { token: v.token, name: v.name }; });
}

/** The player's one token (API.md "One identity"): games, puzzles, people, clubs,
 *  progress and notifications; null before the server gave one. */
export function playerToken() {
  return visitor().token || null;
}
/** Keeps the player's token (the name stays). */
export function savePlayerToken(token) {
  changeIdentity((id) => { id.people = { ...(isObject(id.people) ? id.people : {}), token }; });
}

/** The tokens of before one identity: each game's own token and the puzzle solver's,
 *  those that are not the player's (to merge into it once). */
export function oldTokens() {
  const mine = playerToken();
  const all = new Set(Object.values(gameTokens()).map((g) => g && g.token).filter(Boolean));
  const p = identity().puzzles;
  if (p) all.add(p);
  all.delete(mine);
  return [...all].filter((tok) => /^[0-9a-f]{32}$/.test(tok));
}
/** The old tokens merged into the player's: their games answer to the player's token,
 *  and the puzzle token is gone. */
export function forgetOldTokens(tokens) {
  const old = new Set(tokens);
  changeIdentity((id) => {
    const mine = isObject(id.people) ? id.people.token : null;
    for (const g of Object.values(isObject(id.games) ? id.games : {})) if (g && old.has(g.token)) g.token = mine;
    if (old.has(id.puzzles)) delete id.puzzles;
  });
}

// ---- what the visitor has done and chosen

/** The level last chosen for `game` (a number, not checked), or null. */
export function level(game) {
  const v = (readJson(LEVELS) || {})[game];
  return v === undefined ? null : v;
}
export function saveLevel(game, value) {
  const levels = readJson(LEVELS) || {};
  levels[game] = value;
  writeJson(LEVELS, levels);
}

export const clubs = () => readJson('agora.clubs') || {};
export const saveClubs = (all) => writeJson('agora.clubs', all);

/** The repertoire as stored (not checked), or null. */
export const repertoire = () => parse(store().getItem('agora.openings'));
export const saveRepertoire = (r) => writeJson('agora.openings', r);

export const stars = () => readJson('agora.learn') || {};
export const saveStars = (all) => writeJson('agora.learn', all);

export const coordsBests = () => readJson('agora.coords') || {};
export const saveCoordsBests = (all) => writeJson('agora.coords', all);

// Choices kept as text: lang, theme, sound, motion, names.
const CHOICES = { lang: 'agora.lang', theme: 'agora.theme', sound: 'agora.sound', motion: 'agora.motion', names: 'agora.names' };

/** A choice's text, or null when none was made. */
export const choice = (name) => store().getItem(CHOICES[name]);
/** Keeps a choice; null forgets it. */
export function saveChoice(name, value) {
  if (value === null) store().removeItem(CHOICES[name]);
  else store().setItem(CHOICES[name], String(value));
}

// The parts of the string catalogue besides web/i18n/{lang}.json: each part is a folder
// web/i18n/PART/ with one {lang}.json per language, loaded with the main catalogue and
// merged into it (a key may live in one file only).  One part a line.
export const PARTS = [
  'learn',
  'play',
  'people',
  'people2',
  'puzzles',
  'pages2',
  'drill2',
  'errors',
  'players',
  'tourney',
  'notices',
  'clubs2',
  'devices',
];

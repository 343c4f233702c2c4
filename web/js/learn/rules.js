// The rules pages: text per game and language (web/rules/GAME/LANG.json, written for
// players) with board diagrams drawn by the same renderer as the play page, on the
// board the server's catalogue describes (GET /api/catalog): the diagrams hold only
// pieces and marks by cell name (web/rules/GAME/diagrams.json, shared by every language):
//   {"start": {"pieces": "Qf1 Gk1 g* ...", "marks": {"last": ["e4"], ...}}}
// "pieces" lists a piece letter and its cell, a trailing * marks a captured piece.
import { t, language } from '../common/i18n.js';
import { drawBoard } from '../board/board.js';
import { h } from '../common/dom.js';
import { layoutOf, gameNames } from '../net/api.js';
import { staticJson } from '../net/http.js';

const cache = {};
async function json(url) {
  if (!cache[url]) cache[url] = staticJson(url);
  return cache[url];
}

export const loadDiagrams = (game) => json(`rules/${game}/diagrams.json`);

export function diagramPieces(diagram) {
  const out = {};
  for (const word of (diagram.pieces || '').split(/\s+/).filter(Boolean)) {
    const captured = word.endsWith('*');
    out[captured ? word.slice(1, -1) : word.slice(1)] = { piece: word[0], captured };
  }
  return out;
}

function paragraphs(lines) {
  const out = [];
  let list = null;
  for (const line of lines) {
    if (line.startsWith('- ')) {
      if (!list) out.push((list = h('ul', {})));
      list.append(h('li', {}, line.slice(2)));
    } else {
      list = null;
      out.push(h('p', {}, line));
    }
  }
  return out;
}

export async function showRules(host, game) {
  let text;
  try {
    text = await json(`rules/${game}/${language()}.json`);
  } catch {
    text = await json(`rules/${game}/en.json`);
  }
  const [board, diagrams, games] = await Promise.all([layoutOf(game), loadDiagrams(game), gameNames()]);
  document.title = `${text.title} — agora`;
  const toc = h('nav', { class: 'other-rules', 'aria-label': t('rules.others') },
    games.filter((g) => g !== game).map((g) => h('a', { href: `#/rules/${g}` }, t('rules.of', { game: t(`game.${g}`) }))));
  const article = h('article', { class: 'rules', 'data-game': game, lang: text.lang || language() },
    h('h1', {}, text.title),
    h('p', { class: 'lead' }, text.intro),
    h('p', {}, h('a', { class: 'button primary', href: `#/new/${game}` }, t('rules.play', { game: t(`game.${game}`) })), ' ', h('a', { class: 'button learn-link', href: `#/learn/${game}` }, t('learn.rules.link'))));
  for (const sec of text.sections) {
    const section = h('section', {}, h('h2', {}, sec.heading), paragraphs(sec.text || []));
    if (sec.diagram && diagrams[sec.diagram]) {
      const d = diagrams[sec.diagram];
      const pic = h('div', { class: 'diagram-board' });
      const fig = h('figure', { class: 'diagram', 'data-diagram': sec.diagram }, pic, h('figcaption', {}, sec.caption || ''));
      drawBoard(pic, board, diagramPieces(d), { game, marks: d.marks || {}, labels: !!d.labels, title: sec.caption || sec.heading });
      section.append(fig);
    }
    article.append(section);
  }
  article.append(toc);
  host.replaceChildren(article);
}

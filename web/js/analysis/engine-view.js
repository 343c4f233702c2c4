// The analysis board's engine: the switch, the number of lines, the lines with their
// scores (spoken politely to screen readers) and the win-chance bar beside the board.
// Draws the controller's state (controller.js); the page calls render() and error().
import { t, num } from '../common/i18n.js';
import { h } from '../common/dom.js';
import * as T from './tree.js';

const MATE_WORD = { chess: 'engine.mate' }; // the others: "wins in N"
const SPEAK_MS = 4000; // the best line is spoken at most this often, and when done
const other = (side) => (side === 'white' ? 'black' : 'white');

export function engineView(ctl) {
  const { s } = ctl;
  const game = s.game;
  let spoken = 0; // when the engine lines were last announced

  const bar = h('div', { class: 'eval-bar', id: 'eval-bar', hidden: true, role: 'img', 'aria-label': '' }, h('div', { class: 'eval-white' }));
  const engineBox = h('input', { type: 'checkbox', id: 'engine-on', onchange: (e) => ctl.setEngine(e.target.checked) });
  const pvSelect = h('select', { id: 'multipv', onchange: (e) => ctl.setMultipv(Number(e.target.value)) },
    [1, 2, 3, 4, 5].map((n) => h('option', { value: n }, num(n))));
  const engineLines = h('ol', { class: 'engine-lines', id: 'engine-lines' });
  const engineSpeak = h('p', { class: 'sr-only', id: 'engine-live', 'aria-live': 'polite' });
  const engineInfo = h('p', { class: 'muted small-text', id: 'engine-info' });
  // Who judged: the game's external engine (Stockfish for chess) or agora's own, and
  // why agora's own when the external one failed.
  const engineName = h('p', { class: 'muted small-text', id: 'engine-name' });
  const section = h('section', { class: 'engine', 'aria-labelledby': 'engine-h' },
    h('h2', { id: 'engine-h' }, t('an.engine')),
    h('p', { class: 'engine-controls' }, h('label', { class: 'toggle' }, engineBox, ' ', t('an.engine.on')), ' ',
      h('label', { for: 'multipv' }, t('an.engine.lines')), ' ', pvSelect),
    engineInfo, engineName, engineLines, engineSpeak);

  function scoreText(ln, stm) {
    const sign = stm === 'white' ? 1 : -1;
    if (ln.mate !== null && ln.mate !== undefined && ln.mate !== 0) {
      const winner = ln.mate > 0 ? stm : other(stm);
      return t(MATE_WORD[game] || 'engine.wins', { side: t('side.' + winner), n: num(Math.abs(ln.mate)) });
    }
    const v = Number(ln.score) * sign;
    if (game === 'chess') return num((v >= 0 ? '+' : '−') + Math.abs(v / 100).toFixed(2));
    return num((v >= 0 ? '+' : '−') + Math.abs(v));
  }

  function lineText(ln) {
    const ply0 = T.plyOf(s.tree, s.cur);
    return (ln.pv_display || ln.pv || []).slice(0, 12).map((d, i) => {
      const { number, black } = T.numbering(s.tree, ply0 + i + 1);
      return (!black ? num(number) + '. ' : i === 0 ? num(number) + '… ' : '') + d;
    }).join(' ');
  }

  function render() {
    const { P, lines, linesDone } = s;
    engineBox.checked = s.engineOn;
    pvSelect.value = String(s.multipv);
    pvSelect.disabled = !s.engineOn;
    const stm = P ? P.side_to_move : 'white';
    engineName.textContent = !s.engineOn || !s.engineBy ? ''
      : s.engineBy.error ? t('an.engine.fallback', { engine: s.engineBy.engine, error: s.engineBy.error })
        : t('an.engine.by', { engine: s.engineBy.engine });
    if (!s.engineOn) {
      bar.hidden = true;
      engineInfo.textContent = t('an.engine.off');
      engineLines.replaceChildren();
      return;
    }
    if (P && P.status && P.status.result !== 'ongoing') {
      bar.hidden = true;
      engineInfo.textContent = t('an.engine.over');
      engineLines.replaceChildren();
      return;
    }
    engineInfo.textContent = !lines.length ? t('an.engine.thinking') : linesDone ? t('an.engine.done', { depth: num(lines[0].depth) }) : t('an.engine.running', { depth: num(lines[0].depth) });
    engineLines.replaceChildren(...lines.slice(0, s.multipv).map((ln) => h('li', { class: 'engine-line', 'data-multipv': ln.multipv },
      h('span', { class: 'score' }, scoreText(ln, stm)), ' ',
      h('span', { class: 'depth muted' }, t('an.engine.depth', { depth: num(ln.depth) })), ' ',
      h('span', { class: 'pv' }, lineText(ln)))));
    const best = lines[0];
    bar.hidden = false;
    if (best) {
      const w = stm === 'white' ? best.win : 1 - best.win;
      bar.firstChild.style.height = `${Math.round(w * 100)}%`;
      bar.setAttribute('aria-label', t('an.bar', { white: num(Math.round(w * 100)), black: num(100 - Math.round(w * 100)) }));
      bar.dataset.white = String(Math.round(w * 100));
      const now = Date.now();
      if (linesDone || now - spoken > SPEAK_MS) {
        spoken = now;
        engineSpeak.textContent = `${scoreText(best, stm)}, ${t('an.engine.depth', { depth: num(best.depth) })}: ${lineText(best)}`;
      }
    }
  }

  const error = (message) => { engineInfo.textContent = t('error.generic', { message }); };
  return { bar, section, render, error };
}

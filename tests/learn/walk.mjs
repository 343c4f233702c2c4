// The lesson walk (issue 18): every stage of web/lessons/GAME.json is played through
// the real server's POST /api/positions by the lessons' own referee (web/js/learn/lesson-core.js):
// solved by its intended moves (no earlier), not solved by its wrong move, its illegal
// moves not offered; every demonstration's moves are legal; every text has its key.
// Starts `./agora serve` on a free loopback port (tests/e2e/browser.mjs) unless
// AGORA_URL names a running one.  Prints one line per check and "N passed, N failed".
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from '../../web/js/learn/lesson-core.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
if (!process.env.AGORA_URL) process.env.AGORA_SERVE = '1';
const { startServer } = await import('../e2e/browser.mjs');
const srv = await startServer();
const en = JSON.parse(readFileSync(join(root, 'web/i18n/learn/en.json'), 'utf8'));
let passed = 0, failed = 0;
const check = (name, ok, detail = '') => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'FAIL'} ${name}${ok || !detail ? '' : ': ' + detail}`);
};

async function ask(body) {
  const res = await fetch(srv.url + '/api/positions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${res.status} ${data.error}`);
  return data;
}

// Plays `moves` as the learner from a fresh run; the outcome after each move.
async function walk(stage, moves) {
  let run = core.newRun(stage);
  let state = await core.current(stage, run, ask);
  const outcomes = [];
  for (const m of moves) {
    if (run.outcome !== 'playing') break;
    ({ run, state } = await core.play(stage, run, state, m, ask));
    outcomes.push(run.outcome);
  }
  return { run, state, outcomes };
}

try {
  for (const game of ['chess', 'agon', 'egara-guti']) {
    const data = JSON.parse(readFileSync(join(root, `web/lessons/${game}.json`), 'utf8'));
    check(`${game}: the file names its game`, data.game === game);
    const demoIds = new Set(data.demos.map((d) => d.id));
    for (const lesson of data.lessons) {
      check(`${game}/${lesson.id}: title`, `learn.${game}.${lesson.id}` in en, `no key learn.${game}.${lesson.id}`);
      if (lesson.demo) check(`${game}/${lesson.id}: its demonstration exists`, demoIds.has(lesson.demo));
      for (const raw of lesson.stages) {
        const stage = { ...raw, game };
        const name = `${game}/${lesson.id}/${stage.id}`;
        check(`${name}: text`, `learn.${game}.${lesson.id}.${stage.id}` in en, 'no text key');
        try {
          const start = await core.current(stage, core.newRun(stage), ask);
          check(`${name}: the learner is to move at the start`, start.side_to_move === stage.side && !start.status.over, `${start.side_to_move} ${start.status.reason}`);
          for (const m of stage.illegal || []) check(`${name}: ${m} is not offered`, !start.legal_moves.some((l) => l.move === m));
          const good = await walk(stage, stage.solution);
          const early = good.outcomes.slice(0, -1).every((o) => o === 'playing');
          check(`${name}: solved by ${stage.solution.join(' ')}`, good.run.outcome === 'solved' && early && good.outcomes.length === stage.solution.length,
            `${good.outcomes.join(',')} ${good.run.why || ''}`);
          check(`${name}: three stars by the solution`, good.run.stars === 3 && stage.solution.length <= stage.par, `stars ${good.run.stars}`);
          if (stage.wrong && stage.wrong.length) {
            const bad = await walk(stage, stage.wrong);
            check(`${name}: not solved by ${stage.wrong.join(' ')}`, bad.run.outcome !== 'solved', bad.run.outcome);
          }
        } catch (err) {
          check(`${name}: plays through the API`, false, err.message);
        }
      }
    }
    for (const demo of data.demos) {
      const name = `${game} demonstration ${demo.id}`;
      check(`${name}: title and captions`, [`demo.${game}.${demo.id}`, ...demo.moves.map((_, i) => `demo.${game}.${demo.id}.${i + 1}`)].every((k) => k in en), 'a caption key is missing');
      try {
        const end = await ask({ game, position: demo.position, moves: demo.moves });
        check(`${name}: every move legal`, end.moves.length === demo.moves.length);
      } catch (err) {
        check(`${name}: every move legal`, false, err.message);
      }
    }
  }
} finally {
  srv.stop();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

// The move tree of the analysis board: pure data, no DOM, no rules.  Each node is one
// move (its move text for the server and its display text for people, as the server
// gave them); the first child of a node is the main line, the others are variations.
//
//   tree = {start, blackFirst, firstMove, nodes: {id: {id, parent, move, display,
//           comment, children: [id, ...]}}, next}
// The root (id 0) is the start position and has no move.

export function createTree({ start = null, blackFirst = false, firstMove = 1 } = {}) {
  return { start, blackFirst, firstMove, nodes: { 0: { id: 0, parent: null, move: null, display: null, comment: '', children: [] } }, next: 1 };
}

export const node = (tree, id) => tree.nodes[id];

/** Plays `move` after node `at`: the existing child with that move, or a new one (the
 *  main line when `at` had none, else a new variation).  Returns the child's id. */
export function addMove(tree, at, move, display = move) {
  const parent = tree.nodes[at];
  if (!parent) throw new Error(`no node ${at}`);
  for (const c of parent.children) if (tree.nodes[c].move === move) return c;
  const id = tree.next++;
  tree.nodes[id] = { id, parent: at, move, display, comment: '', children: [] };
  parent.children.push(id);
  return id;
}

/** Adds a line of moves ([{move, display}] or texts) after `at`; returns the last id. */
export function addLine(tree, at, moves) {
  let id = at;
  for (const m of moves) id = typeof m === 'string' ? addMove(tree, id, m) : addMove(tree, id, m.move, m.display ?? m.move);
  return id;
}

/** Adds a record's tree after `at`: a line of nodes ({move, display, comment,
 *  variations: [line, ...]}, as POST /api/positions answers for a record; texts and
 *  {move, display} do too), each node's variations being the lines played in its
 *  place.  Comments and variations are restored; returns the line's last id. */
export function addTree(tree, at, line) {
  let id = at;
  for (const m of line || []) {
    const before = id;
    id = typeof m === 'string' ? addMove(tree, before, m) : addMove(tree, before, m.move, m.display ?? m.move);
    if (typeof m === 'string') continue;
    if (m.comment) setComment(tree, id, m.comment);
    for (const v of m.variations || []) addTree(tree, before, v);
  }
  return id;
}

/** The nodes from the first move to `id` (the root excluded). */
export function path(tree, id) {
  const out = [];
  for (let n = tree.nodes[id]; n && n.parent !== null; n = tree.nodes[n.parent]) out.unshift(n);
  return out;
}

export const movesTo = (tree, id) => path(tree, id).map((n) => n.move);
export const plyOf = (tree, id) => path(tree, id).length;

export function prev(tree, id) {
  const n = tree.nodes[id];
  return n && n.parent !== null ? n.parent : id;
}

export function next(tree, id) {
  const n = tree.nodes[id];
  return n && n.children.length ? n.children[0] : id;
}

export const first = () => 0;

/** The end of the line through `id` (following main children). */
export function last(tree, id) {
  let n = tree.nodes[id];
  while (n.children.length) n = tree.nodes[n.children[0]];
  return n.id;
}

/** The alternative to `id` at the same ply: the sibling before (dir -1) or after
 *  (dir +1) it; `id` itself when there is none. */
export function sibling(tree, id, dir) {
  const n = tree.nodes[id];
  if (!n || n.parent === null) return id;
  const sibs = tree.nodes[n.parent].children;
  const k = sibs.indexOf(id) + dir;
  return k >= 0 && k < sibs.length ? sibs[k] : id;
}

/** Is `id` on the main line (every step a first child)? */
export function isMain(tree, id) {
  for (let n = tree.nodes[id]; n.parent !== null; n = tree.nodes[n.parent]) if (tree.nodes[n.parent].children[0] !== n.id) return false;
  return true;
}

/** Promotes the variation holding `id` one step: at the nearest branch point where its
 *  line is not the first choice, it moves one place up (to the main line when it was
 *  the first variation).  Returns true when something changed. */
export function promote(tree, id) {
  for (let n = tree.nodes[id]; n && n.parent !== null; n = tree.nodes[n.parent]) {
    const sibs = tree.nodes[n.parent].children;
    const k = sibs.indexOf(n.id);
    if (k > 0) {
      [sibs[k - 1], sibs[k]] = [sibs[k], sibs[k - 1]];
      return true;
    }
  }
  return false;
}

/** Deletes the variation that starts at the nearest branch point above `id` (or at `id`
 *  itself when it is a variation's first move): the whole subtree goes.  Returns the
 *  node to show next (the branch point). */
export function removeVariation(tree, id) {
  let n = tree.nodes[id];
  while (n && n.parent !== null && tree.nodes[n.parent].children[0] === n.id && tree.nodes[n.parent].children.length === 1) n = tree.nodes[n.parent];
  return removeNode(tree, n ? n.id : id);
}

/** Deletes node `id` and everything after it; returns its parent's id. */
export function removeNode(tree, id) {
  const n = tree.nodes[id];
  if (!n || n.parent === null) return 0;
  const parent = tree.nodes[n.parent];
  parent.children = parent.children.filter((c) => c !== id);
  const drop = [id];
  while (drop.length) {
    const k = drop.pop();
    drop.push(...tree.nodes[k].children);
    delete tree.nodes[k];
  }
  return parent.id;
}

export function setComment(tree, id, text) {
  tree.nodes[id].comment = String(text || '').replace(/[{}]/g, '');
}

/** The move number and side of the ply `ply` (1-based) of the tree. */
export function numbering(tree, ply) {
  const k = ply - 1 + (tree.blackFirst ? 1 : 0);
  return { number: tree.firstMove + Math.floor(k / 2), black: k % 2 === 1 };
}

/** The rows of the move list, in reading order: {id, ply, depth, number, black,
 *  text, start} (`start`: the first move of a variation, `depth`: how deep it is).  */
export function rows(tree) {
  const out = [];
  const walk = (id, ply, depth) => {
    // The main continuation comes first, then each variation (with its own line), then
    // the main line goes on.
    let cur = id;
    while (tree.nodes[cur].children.length) {
      const [main, ...vars] = tree.nodes[cur].children;
      out.push(row(main, ply + 1, depth, false));
      for (const v of vars) {
        out.push(row(v, ply + 1, depth + 1, true));
        walk(v, ply + 1, depth + 1);
        out.push({ end: true, depth: depth + 1 });
      }
      cur = main;
      ply++;
    }
  };
  const row = (id, ply, depth, start) => ({ id, ply, depth, start, ...numbering(tree, ply), text: tree.nodes[id].display, comment: tree.nodes[id].comment });
  walk(0, 0, 0);
  return out;
}

function movetext(tree, ids, variations) {
  const parts = [];
  const emit = (id, ply, forceNumber) => {
    const n = tree.nodes[id];
    const { number, black } = numbering(tree, ply);
    if (!black) parts.push(`${number}.`);
    else if (forceNumber) parts.push(`${number}...`);
    parts.push(n.display);
    if (n.comment) parts.push(`{${n.comment}}`);
  };
  const line = (id, ply, forceNumber) => {
    // `id` is played at `ply`; then its continuation, with variations in parentheses.
    emit(id, ply, forceNumber);
    let cur = id;
    let p = ply;
    let after = false;
    while (tree.nodes[cur].children.length) {
      const [main, ...vars] = tree.nodes[cur].children;
      emit(main, p + 1, after);
      after = false;
      for (const v of vars) {
        parts.push('(');
        line(v, p + 1, true);
        parts.push(')');
        after = true;
      }
      cur = main;
      p++;
    }
  };
  if (!variations) {
    ids.forEach((id, i) => emit(id, i + 1, i === 0));
    return parts;
  }
  const root = tree.nodes[0];
  if (!root.children.length) return parts;
  const [main, ...vars] = root.children;
  // The first move, its alternatives, then the rest of the main line.
  emit(main, 1, true);
  for (const v of vars) {
    parts.push('(');
    line(v, 1, true);
    parts.push(')');
  }
  let cur = main;
  let p = 1;
  let after = vars.length > 0;
  while (tree.nodes[cur].children.length) {
    const [m, ...vs] = tree.nodes[cur].children;
    emit(m, p + 1, after);
    after = false;
    for (const v of vs) {
      parts.push('(');
      line(v, p + 1, true);
      parts.push(')');
      after = true;
    }
    cur = m;
    p++;
  }
  return parts;
}

function wrap(words, width = 79) {
  const lines = [];
  let cur = '';
  for (const w of words) {
    const glue = cur === '' || cur.endsWith('(') || w === ')' ? '' : ' ';
    if (cur && (cur + glue + w).length > width) {
      lines.push(cur);
      cur = w;
    } else cur += glue + w;
  }
  if (cur) lines.push(cur);
  return lines.join('\n');
}

/**
 * A record in PGN's shape: tags, then the movetext in display texts (SAN for chess).
 *   options: {tags: {name: value} (after the seven-tag roster), variant (not chess:
 *   the Variant tag), line: id (only the line to that node; else the whole tree with
 *   variations and comments), result ("*")}
 */
export function toPGN(tree, options = {}) {
  const result = options.result || '*';
  const tags = [['Event', 'agora analysis'], ['Site', '?'], ['Date', '????.??.??'], ['Round', '-'], ['White', '?'], ['Black', '?'], ['Result', result]];
  if (options.variant) tags.push(['Variant', options.variant]);
  if (tree.start) tags.push(['SetUp', '1'], ['FEN', tree.start]);
  for (const [k, v] of Object.entries(options.tags || {})) tags.push([k, v]);
  const head = tags.map(([k, v]) => `[${k} "${String(v).replace(/["\\]/g, '\\$&')}"]`).join('\n');
  const words = options.line !== undefined ? movetext(tree, path(tree, options.line).map((n) => n.id), false) : movetext(tree, [], true);
  words.push(result);
  return `${head}\n\n${wrap(words)}\n`;
}

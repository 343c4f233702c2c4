// Accessibility checks shared by the browser tests: the WCAG AA contrast of every
// visible text (contrastFailures, run in the page), and keyboard access (every visible
// control named and reachable with Tab: keyboardFailures, run from node).  checkPage
// does both for one page in one theme.
// In the page: every visible text's contrast with what is painted behind it (the
// backgrounds of its ancestors composed), WCAG 2's ratio; the failures below AA (4.5,
// or 3 for large text).  Disabled controls are exempt (WCAG's inactive components).
export function contrastFailures() {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const lum = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, bottom) => ({ r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a), b: top.b * top.a + bottom.b * (1 - top.a), a: 1 });
  const behind = (el) => {
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    for (const e of chain) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) bg = over(c, bg);
    }
    return bg;
  };
  const fails = [];
  let checked = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode());) {
    if (!n.textContent.trim()) continue;
    let el = n.parentElement;
    if (el.closest('svg, .skip, [disabled]')) continue;
    if (el.closest('select')) el = el.closest('select');
    const box = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (!box.width || !box.height || cs.visibility === 'hidden' || !el.checkVisibility?.()) continue;
    // A glyph drawn with an outline (a piece's) is seen by its fill or its outline,
    // whichever stands out more.
    const bg = behind(el);
    const ratioOf = (c) => {
      const [a, b] = [lum(over(c, bg)), lum(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    };
    const stroke = parseFloat(cs.webkitTextStrokeWidth) > 0 ? parse(cs.webkitTextStrokeColor) : null;
    const fg = parse(cs.color);
    const ratio = Math.max(ratioOf(fg), stroke && stroke.a > 0 ? ratioOf(stroke) : 0);
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    checked++;
    if (ratio < need) fails.push(`"${n.textContent.trim().slice(0, 30)}" ${cs.color} on rgb(${bg.r | 0}, ${bg.g | 0}, ${bg.b | 0}) ${ratio.toFixed(2)} < ${need}`);
  }
  return { checked, fails: [...new Set(fails)] };
}

// In the page: every visible control (links, buttons, fields, summaries, anything with
// a tabindex or a widget role) must have a name (its text, a label, aria-label(ledby),
// title or an image's alt) and be a tab stop, or belong to a roving group (a board,
// a grid, a toolbar) one of whose members is a tab stop.  The answer lists the stops
// (as window.__kbWhat tells them) and the failures.
function auditControls() {
  const text = (el) => (el.textContent || '').trim() || [...el.querySelectorAll('img[alt]')].map((i) => i.alt).join('').trim();
  window.__kbWhat = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.dataset?.cell ? `[data-cell=${el.dataset.cell}]` : ''} "${text(el).slice(0, 25)}"`;
  const what = window.__kbWhat;
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], [role=button], [role=link], [role=checkbox], [role=tab], [role=slider], [role=option]';
  const fails = [];
  const stops = [];
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true }) && !el.closest('[inert], [aria-hidden="true"]');
  };
  const named = (el) => {
    if ((el.getAttribute('aria-label') || '').trim()) return true;
    const by = el.getAttribute('aria-labelledby');
    if (by && by.split(/\s+/).some((id) => (document.getElementById(id)?.textContent || '').trim())) return true;
    if (el.labels && [...el.labels].some((l) => l.textContent.trim())) return true;
    if ((el.getAttribute('title') || '').trim()) return true;
    if (el.tagName === 'INPUT' && /^(submit|button|reset)$/.test(el.type) && el.value) return true;
    if (el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.tagName === 'INPUT') return false;
    return !!text(el);
  };
  for (const el of document.querySelectorAll(sel)) {
    if (el.disabled || !shown(el)) continue;
    // tabindex=-1 on a landmark or a heading: a target for focus(), not a control.
    if (el.tabIndex < 0 && !el.matches('a[href], button, input, select, textarea, summary, [role]')) continue;
    if (!named(el)) fails.push('unnamed ' + what(el));
    if (el.tabIndex >= 0) {
      stops.push(what(el));
      continue;
    }
    const group = el.closest('svg, [role=grid], [role=group], [role=listbox], [role=radiogroup], [role=toolbar], [role=tablist], [role=menu]');
    if (!group || !group.querySelector('[tabindex="0"]')) fails.push('not a tab stop ' + what(el));
  }
  return { fails, stops };
}

/** Keyboard access of the page shown: the audit above, then Tab pressed through the
 *  page from its top until every tab stop has had the focus.  The failures' texts. */
export async function keyboardFailures(page) {
  const { fails, stops } = await page.evaluate(auditControls);
  await page.evaluate(() => { document.activeElement?.blur?.(); window.scrollTo(0, 0); });
  // Stops are told apart by what they are (tag, id, cell, text): a board redrawn
  // while Tab walks (an engine's arrows) has new nodes for the same cells.
  const reached = new Set();
  const missing = () => stops.filter((x) => !reached.has(x)).length;
  for (let i = 0; i < stops.length + 8 && missing(); i++) {
    await page.keyboard.press('Tab');
    const k = await page.evaluate(() => (document.activeElement && document.activeElement !== document.body ? window.__kbWhat(document.activeElement) : null));
    if (k) reached.add(k);
  }
  for (const x of new Set(stops)) if (!reached.has(x)) fails.push('not reached with Tab: ' + x);
  return { fails, stops: stops.length };
}

/** Opens `url` in theme `theme` ('light' or 'dark' chosen with the switch, or
 *  'system-dark': none chosen, the system asking for dark), waits for `sel` (and `ready`, a
 *  function of the page, if given) and measures: { checked, fails } (the contrast's and,
 *  with keys, the keyboard's failures prefixed with where they are). */
export async function checkPage(page, opts) {
  return measure(page, opts).catch((e) => { throw new Error(`${opts.theme} ${opts.label || opts.url}: ${e.message}`); });
}

async function measure(page, { url, sel, theme, keys = false, ready, label = url }) {
  const system = theme === 'system-dark';
  await page.emulateMedia({ colorScheme: system ? 'dark' : 'light' });
  await page.evaluate((x) => (x ? localStorage.setItem('agora.theme', x) : localStorage.removeItem('agora.theme')), system ? null : theme);
  if (url) {
    await page.goto(url);
    await page.reload();
  }
  await page.evaluate((x) => { if (x) document.documentElement.dataset.theme = x; else delete document.documentElement.dataset.theme; }, system ? null : theme);
  await page.waitForSelector(sel);
  if (ready) await ready(page);
  const c = await page.evaluate(contrastFailures);
  const fails = c.fails.map((f) => `${theme} ${label}: ${f}`);
  if (keys) fails.push(...(await keyboardFailures(page)).fails.map((f) => `${label}: ${f}`));
  return { checked: c.checked, fails };
}

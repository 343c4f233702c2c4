// The browser's one HTTP client (src/server/API.md): every page reaches the server
// through it.  A request sends its body as JSON and the visitor's token as a bearer
// token; an answer is read as JSON (null when empty or not JSON); an answer other than
// 2xx throws ApiError with the server's `error` text, its `code` (API.md "Error codes":
// the pages show the catalogue's text for it, i18n.js errorText) and the status.  Event streams:
// the server's GET streams through EventSource (openEvents), POST /api/analysis's
// stream read with fetch (postEvents).  Static files (catalogues, lessons, rules) are
// read with staticJson.  Which token a request carries is the caller's: the visitor's
// tokens live in web/js/local/storage.js.

export class ApiError extends Error {
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function init(method, body, token, accept) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  if (accept) headers.Accept = accept;
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

async function readJson(res) {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

// A request safe to send twice (opts.retry: a move with its ply, API.md "Guarantees")
// goes once more, after this pause, when the first try got no answer (a network error)
// or a 503: the first may have been made all the same, and the server answers the
// second as it would have answered the first.
const RETRY_MS = 400;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchOnceMore(path, options, retry) {
  let res;
  try {
    res = await fetch(path, options);
  } catch (err) {
    if (!retry) throw err;
    await pause(RETRY_MS);
    return fetch(path, options);
  }
  if (!retry || res.status !== 503) return res;
  await pause(RETRY_MS);
  return fetch(path, options);
}

/** `method` `path` with `opts.body` (JSON) and `opts.token`: the answer's JSON.
 *  `opts.retry`: the request may be sent twice (see fetchOnceMore). */
export async function request(method, path, { body, token, retry = false } = {}) {
  const res = await fetchOnceMore(path, init(method, body, token), retry);
  const data = await readJson(res);
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`, (data && data.code) || null);
  return data;
}

export const get = (path, opts) => request('GET', path, opts);
export const post = (path, body, opts = {}) => request('POST', path, { ...opts, body });

/** GET `path` as text (a game's record). */
export async function getText(path) {
  const res = await fetch(path);
  if (!res.ok) throw new ApiError(res.status, `HTTP ${res.status}`);
  return res.text();
}

/** A static JSON file of web/ (`label`: what an error names, the URL by default). */
export async function staticJson(url, label = url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${label}: ${res.status}`);
  return res.json();
}

/** The server's event stream at `url` (an EventSource), or null where the browser has none. */
export function openEvents(url) {
  return typeof EventSource === 'undefined' ? null : new EventSource(url);
}

/** POST `path` with `body`, its answer read as server-sent events: onEvent(event, data)
 *  for every event with data (event 'message' when unnamed).  Abort with `signal`. */
export async function postEvents(path, body, onEvent, signal) {
  await readEvents(await fetch(path, { ...init('POST', body, null, 'text/event-stream'), signal }), onEvent);
}

/** GET `path` with the bearer `token` (a stream EventSource cannot send: a player's
 *  notifications), read as server-sent events as postEvents reads them; returns when the
 *  stream ends.  Abort with `signal`. */
export async function getEvents(path, token, onEvent, signal) {
  await readEvents(await fetch(path, { ...init('GET', undefined, token, 'text/event-stream'), signal }), onEvent);
}

async function readEvents(res, onEvent) {
  if (!res.ok) {
    const data = await readJson(res);
    throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`, (data && data.code) || null);
  }
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let k;
    while ((k = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, k);
      buf = buf.slice(k + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) onEvent(event, data.join('\n'));
    }
  }
}

// Talking to the server: the documented HTTP routes and the WebSocket protocol
// (docs/PROTOCOL.md), and the seats this browser holds (localStorage).

import { errorText, lang } from "./i18n.js";

const SEATS_KEY = "gameweave.seats";

/** The seats this browser holds: {match_id: {seat, token, opponent, created}}. */
export function loadSeats() {
  try {
    const obj = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
    return obj && typeof obj === "object" ? obj : {};
  } catch {
    return {};
  }
}

/** Seats this page saved in the last KEEP_MS (match_id -> {entry, at}).  Every tab writes
 * the whole list as it read it, and a tab sees another's write a moment late: two tabs
 * saving at the same moment (both paired by one pass of the queue) would each write a
 * list without the other's new seat, and the second seat would overwrite the first.  A
 * tab told of a write (the `storage` event) that lost a seat it saved lately puts it
 * back. */
const savedHere = new Map();
const KEEP_MS = 10000;

function keepSaved(ev) {
  if (ev.key !== SEATS_KEY || !savedHere.size) return;
  const all = loadSeats();
  let lost = false;
  for (const [id, s] of savedHere) {
    if (Date.now() - s.at > KEEP_MS) savedHere.delete(id);
    else if (!all[id]) { all[id] = s.entry; lost = true; }
  }
  if (lost) {
    try { localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch { /* full or refused */ }
  }
}
window.addEventListener("storage", keepSaved);

export function saveSeat(matchId, entry) {
  const all = loadSeats();
  all[matchId] = { ...(all[matchId] || {}), ...entry, created: (all[matchId] || {}).created || Date.now() };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  savedHere.set(matchId, { entry: all[matchId], at: Date.now() });
}

export function seatFor(matchId) {
  return loadSeats()[matchId] || null;
}

export function forgetSeat(matchId) {
  savedHere.delete(matchId);
  const all = loadSeats();
  delete all[matchId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** An HTTP error with the server's error body: {code, message (English, for logs),
 * params} (bare or under "error").  `.message` is the catalog's words for the code in the
 * page's language (error.<code>), `.english` the server's own text. */
export class ApiError extends Error {
  constructor(status, code, english, params = {}) {
    super(errorText({ code, params }, "page.error.http"));
    this.status = status;
    this.code = code;
    this.params = params || {};
    this.english = english;
  }
}

/** JSON request; throws ApiError (its message in the page's language) on any failure. */
export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached.");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data && (data.error || (data.code ? data : null))) || {};
    const code = err.code || (res.status === 422 ? "malformed" : res.status === 404 ? "not_found" : "server_error");
    throw new ApiError(res.status, code, err.message || String(res.status), err.params || {});
  }
  return data;
}

/** Resolves true when the server knows no match `matchId` (invite-status answers
 * `unknown_match` for one it does not know, always with 200, so nothing is logged as
 * refused); false when it does, or when the question fails. */
export function matchUnknown(matchId) {
  return api("POST", `/api/matches/${encodeURIComponent(matchId)}/invite-status`, { body: { invite: "" } })
    .then((st) => st.code === "unknown_match", () => false);
}

/** The heartbeat's period (presence: the server calls a seat offline after 12 s). */
export const HEARTBEAT_MS = 5000;

/** The heartbeat period in ms: HEARTBEAT_MS, or localStorage gameweave.heartbeat_ms (tests
 * with a short presence timeout set it lower). */
function heartbeatMs() {
  const v = Number(localStorage.getItem("gameweave.heartbeat_ms"));
  return v > 0 ? v : HEARTBEAT_MS;
}

/**
 * One table's live connection: sends hello, then actions; reconnects by itself after a
 * lost connection (backoff 0.5 s doubling to 5 s).
 *
 * Callbacks: onState(frame), onError(frame), onPhrase(frame) (optional),
 * onStatus("connecting"|"open"|"lost"|"replaced"|"closed").  A seat says hello with its
 * token; a spectator (`seat` null) with the match's watch key.  A heartbeat goes every
 * 5 s (presence, PROTOCOL: online = socket open and a frame within 12 s).
 */
export class TableSocket {
  constructor(matchId, seat, token, callbacks, { watch = null } = {}) {
    this.matchId = matchId;
    this.seat = seat;
    this.token = token;
    this.watch = watch;
    this.cb = callbacks;
    this.ws = null;
    this.closed = false;
    this.delay = 500;
    this.timer = null;
    this.pingTimer = null;
    this.everOpen = false;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.matchId)}`;
  }

  connect() {
    if (this.closed) return;
    this.cb.onStatus(this.everOpen ? "lost" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      const hello = this.watch ? { type: "hello", watch: this.watch } : { type: "hello", seat: this.seat, token: this.token };
      ws.send(JSON.stringify(hello));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "heartbeat" }), heartbeatMs());
    };
    ws.onmessage = (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (frame.type === "state") {
        this.everOpen = true;
        this.cb.onStatus("open");
        this.cb.onState(frame);
      } else if (frame.type === "phrase") {
        if (this.cb.onPhrase) this.cb.onPhrase(frame);
      } else if (frame.type === "error") {
        this.cb.onError(frame);
        if (frame.code === "bad_token" || frame.code === "unknown_match" || frame.code === "bad_watch_key") {
          this.close();
        }
      }
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (ev.code === 4000) {
        // Replaced by a newer connection for this seat (another tab or window).
        this.cb.onStatus("replaced");
        return;
      }
      if (ev.code === 4401 || ev.code === 4404) {
        this.closed = true;
        this.cb.onStatus("closed");
        return;
      }
      this.retry();
    };
    ws.onerror = () => {};
  }

  retry() {
    if (this.closed) return;
    this.cb.onStatus("lost");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  /** Send a frame; returns false when the connection is down. */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Connect again after being replaced by another window ("use this window"). */
  reclaim() {
    this.closed = false;
    this.delay = 500;
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
    this.cb.onStatus("closed");
  }
}

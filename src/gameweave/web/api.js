// Talking to the server: the documented HTTP routes and the WebSocket protocol
// (docs/PROTOCOL.md), and the seats this browser holds (localStorage).

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

export function saveSeat(matchId, entry) {
  const all = loadSeats();
  all[matchId] = { ...(all[matchId] || {}), ...entry, created: (all[matchId] || {}).created || Date.now() };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

export function seatFor(matchId) {
  return loadSeats()[matchId] || null;
}

export function forgetSeat(matchId) {
  const all = loadSeats();
  delete all[matchId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** An HTTP error with the server's {"error": {"code", "message"}} body. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** JSON request; throws ApiError with a readable message on any failure. */
export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached. Is `gameweave serve` still running?");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data && data.error) || {};
    let msg = err.message;
    if (!msg && data && data.detail) msg = typeof data.detail === "string" ? data.detail : "The request was not accepted.";
    throw new ApiError(res.status, err.code || String(res.status), msg || `The server answered ${res.status}.`);
  }
  return data;
}

/**
 * One table's live connection: sends hello, then actions; reconnects by itself after a
 * lost connection (backoff 0.5 s doubling to 5 s).
 *
 * Callbacks: onState(frame), onError(frame),
 * onStatus("connecting"|"open"|"lost"|"replaced"|"closed").
 */
export class TableSocket {
  constructor(matchId, seat, token, callbacks) {
    this.matchId = matchId;
    this.seat = seat;
    this.token = token;
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
      ws.send(JSON.stringify({ type: "hello", seat: this.seat, token: this.token }));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
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
      } else if (frame.type === "error") {
        this.cb.onError(frame);
        if (frame.code === "bad_token" || frame.code === "unknown_match") {
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

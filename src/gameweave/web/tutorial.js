// The guided first deal (issue 19): its entry (data-testid=tutorial-start, in the lobby's
// banner for first-time visitors and in the help), and the guide over the table
// (data-testid=tutorial).  The deal is a real match against the server's scripted guide
// (POST /api/tutorial); at each point of it the page asks the server what the guide says
// (GET /api/matches/{id}/tutorial?at=N: never a point not reached yet, so nothing of the
// stock or the guide's hand reaches the page, R21).  At each step the step's move is the
// only enabled control, or a data-testid=tutorial-next button goes on.

import { api, saveSeat } from "./api.js";
import { cardRow, short, shortList } from "./cards.js";
import { t } from "./i18n.js";
import { clearToast, h, toast } from "./ui.js";

/** localStorage: "done" once the guided deal was won, "dismissed" once its banner was. */
const TUTORIAL_KEY = "gameweave.tutorial";
/** The bot name of the guide (match.opponent.bot of a guided deal). */
export const TUTORIAL_BOT = "tutorial";

/** "done", "dismissed" or null (a first-time visitor). */
export function tutorialMark() {
  try {
    return localStorage.getItem(TUTORIAL_KEY);
  } catch {
    return null;
  }
}

function mark(value) {
  try {
    localStorage.setItem(TUTORIAL_KEY, value);
  } catch {
    // private mode: nothing is remembered
  }
}

/** Go to `path` inside the app (app.js routes on popstate). */
function navigate(path) {
  history.pushState({}, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** Deal a guided deal (seat 1 is this browser's, under `name`) and open its table. */
export async function startTutorial(name = null) {
  const res = await api("POST", "/api/tutorial", { body: { name: name || null } });
  saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: "bot" });
  navigate(res.table_url || `/table/${res.match_id}`);
}

/** The entry to the guided deal: a button (data-testid=tutorial-start); `before()` runs
 * first (e.g. closing the help), `name()` gives seat 1's name. */
export function tutorialStart({ before = null, name = () => null } = {}) {
  let busy = false;
  const btn = h("button", { type: "button", class: "btn primary", "data-testid": "tutorial-start" }, t("tutorial.start"));
  btn.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    btn.disabled = true;
    toast(t("tutorial.starting"));
    try {
      if (before) before();
      await startTutorial(name());
      clearToast();  // dealt: the "dealing" note would cover the table on a phone
    } catch (err) {
      toast(t("tutorial.failed", { why: err.message }), "error");
      btn.disabled = false;
    } finally {
      busy = false;
    }
  });
  return btn;
}

/** The lobby's banner for first-time visitors (until dismissed or the deal is won), or null. */
export function tutorialBanner({ name } = {}) {
  if (tutorialMark()) return null;
  const box = h("section", { class: "panel tutorial-banner", "data-testid": "tutorial-banner", "aria-label": t("tutorial.title") });
  const dismiss = h("button", { type: "button", class: "btn small passive", "data-testid": "tutorial-dismiss" }, t("tutorial.dismiss"));
  dismiss.addEventListener("click", () => {
    mark("dismissed");
    box.remove();
  });
  box.append(h("p", {}, t("tutorial.banner")), h("div", { class: "tutorial-buttons" }, tutorialStart({ name }), dismiss));
  return box;
}

/** True for a frame of a guided deal. */
export function isTutorialFrame(f) {
  const o = f && f.match && f.match.opponent;
  return !!(o && o.kind === "bot" && o.bot === TUTORIAL_BOT);
}

/** A step's text with its cards in short names ("K♥", "K♣ K♦"). */
function stepText(s) {
  const params = {};
  for (const [k, v] of Object.entries(s.params || {})) params[k] = Array.isArray(v) ? shortList(v) : short(v);
  return t(s.key, params);
}

/** The cards a step names, drawn small (the card it is about first). */
function stepCards(s) {
  const p = s.params || {};
  const names = [p.card, ...(p.cards || []), ...(p.meld || [])].filter(Boolean);
  return names.length ? cardRow([...new Set(names)], { size: "xs", highlight: p.card }) : "";
}

/**
 * The guide over a guided deal's table.  `env`: {root, matchId, token, go, redraw}; its
 * panel goes after `anchor` (the status line).  `render(f)` follows frame `f`.
 */
export function createGuide(env, anchor) {
  const text = h("p", { class: "tutorial-step", "data-testid": "tutorial-step", "aria-live": "polite" });
  const cards = h("div", { class: "tutorial-cards", "aria-hidden": "true" });
  const progress = h("span", { class: "tutorial-progress" });
  const next = h("button", { type: "button", class: "btn primary", "data-testid": "tutorial-next", hidden: true }, t("tutorial.next"));
  const leave = h("a", { href: "/", "data-nav": "", class: "small tutorial-leave" }, t("tutorial.leave"));
  const panel = h("section", { class: "tutorial panel", "data-testid": "tutorial", "aria-label": t("tutorial.title") },
    h("div", { class: "tutorial-head" }, h("h2", {}, t("tutorial.title")), progress),
    text, h("div", { class: "tutorial-buttons" }, next, cards, leave));
  anchor.after(panel);
  env.root.dataset.tutorial = "true";
  let at = null; // the point shown: the number of actions the deal had
  let guide = null; // the server's answer for `at`
  let idx = 0; // the step of guide.steps shown

  function load(point) {
    api("GET", `/api/matches/${encodeURIComponent(env.matchId)}/tutorial?at=${point}`, { token: env.token }).then((g) => {
      if (point !== at) return;
      guide = g;
      idx = 0;
      if (g.finished) mark("done");
      env.redraw();
    }, (err) => {
      if (point !== at) return;
      guide = { at: point, on_script: false, finished: false, total: 0, steps: [], failed: err.message };
      env.redraw();
    });
  }

  /** Leave only `action` enabled among the table's moves (null: none; all when free). */
  function only(action) {
    for (const b of env.root.querySelectorAll("[data-action]")) if (b.dataset.action !== action) b.disabled = true;
    for (const b of env.root.querySelectorAll("[data-send]")) if (b.dataset.send !== action) b.disabled = true;
  }

  function show() {
    const s = guide && guide.on_script ? guide.steps[idx] : null;
    panel.dataset.at = String(at);
    panel.dataset.move = (s && s.action) || "";
    panel.dataset.step = s ? s.key : "";
    panel.dataset.n = s ? String(s.n) : "";
    panel.dataset.state = !guide ? "loading" : !guide.on_script ? "free" : s ? "step" : "waiting";
    progress.textContent = s ? t("tutorial.progress", { n: s.n, total: guide.total }) : "";
    next.hidden = !s || !!s.action;
    leave.hidden = !!(guide && guide.finished);
    cards.replaceChildren(s ? stepCards(s) : "");
    if (!guide) {
      text.textContent = t("tutorial.loading");
      only(null);
    } else if (!guide.on_script) {
      text.textContent = guide.failed ? t("tutorial.failed", { why: guide.failed }) : t("tutorial.off_script");
    } else if (!s) {
      text.textContent = t("tutorial.waiting");
      only(null);
    } else {
      text.textContent = stepText(s);
      next.textContent = guide.finished && idx === guide.steps.length - 1 ? t("tutorial.finish") : t("tutorial.next");
      only(s.action);
    }
  }

  next.addEventListener("click", () => {
    if (!guide || !guide.steps[idx]) return;
    if (idx < guide.steps.length - 1) {
      idx += 1;
      env.redraw({ focus: "[data-testid=tutorial-next]" });
      const s = guide.steps[idx];
      const want = s.action ? env.root.querySelector(`[data-action="${CSS.escape(s.action)}"]:not([disabled])`) : next;
      if (want) want.focus({ preventScroll: true });
    } else if (guide.finished) {
      mark("done");
      env.go("/");
    }
  });

  return {
    /** Follow frame `f`: a new point asks the server what the guide says there. */
    render(f) {
      const point = ((f.view && f.view.history) || []).length;
      if (point !== at) {
        at = point;
        guide = null;
        load(point);
      }
      show();
    },
  };
}

// Small DOM helpers shared by the pages: element builder, toast, banner, preferences.

/** h("div", {class: "x", "data-testid": "hand"}, child, "text", ...) -> HTMLElement */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let toastTimer = null;
/** A short message in the polite live region (errors from the server, copy done, ...). */
export function toast(message, kind = "info") {
  const t = document.getElementById("toast");
  if (!t) return;
  t.textContent = message;
  t.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    t.className = "toast";
  }, kind === "error" ? 5000 : 2500);
}

/** Hide the toast now (a "working on it" note whose work is done). */
export function clearToast() {
  const t = document.getElementById("toast");
  clearTimeout(toastTimer);
  if (t) t.className = "toast";
}

/** Show (message) or hide (null) the connection banner at the top of the page. */
export function banner(message, action = null) {
  const b = document.getElementById("banner");
  if (!b) return;
  if (!message) {
    b.hidden = true;
    b.textContent = "";
    return;
  }
  b.hidden = false;
  b.replaceChildren(h("span", {}, message));
  if (action) b.append(" ", h("button", { type: "button", class: "btn small", onclick: action.run }, action.label));
}

const MOTION_KEY = "gameweave.animations";

/** Animations are on unless the user turned them off, or the system asks for reduced motion. */
export function animationsOn() {
  const saved = localStorage.getItem(MOTION_KEY);
  if (saved !== null) return saved === "on";
  return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function setupMotionToggle() {
  const box = document.getElementById("motion-toggle");
  const apply = () => document.documentElement.classList.toggle("no-motion", !animationsOn());
  if (box) {
    box.checked = animationsOn();
    box.addEventListener("change", () => {
      localStorage.setItem(MOTION_KEY, box.checked ? "on" : "off");
      apply();
    });
  }
  apply();
}

/** True on a touch screen (a finger taps; a mouse clicks): a tap on a hand card selects
 * it, a second tap (or the confirm button) throws it, and the words say "tap". */
export function touchScreen() {
  return typeof window !== "undefined" && !!window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
}

const CONFIRM_KEY = "gameweave.confirm_throws";

/** Whether a throw waits to be confirmed (the table's `confirm-throws` setting, issue 19):
 * a first click or tap on a hand card only selects it, and the Throw button (or a second
 * tap) throws it.  Remembered in localStorage; on by default on a touch screen. */
export function confirmThrows() {
  let saved = null;
  try {
    saved = localStorage.getItem(CONFIRM_KEY);
  } catch {
    saved = null;
  }
  return saved === "on" || saved === "off" ? saved === "on" : touchScreen();
}

/** Remember the `confirm-throws` setting. */
export function setConfirmThrows(on) {
  try {
    localStorage.setItem(CONFIRM_KEY, on ? "on" : "off");
  } catch {
    // private mode: the default stays
  }
}

/** The pause between bot moves shown one at a time (ms); 0 in tests via localStorage. */
export function botPace() {
  const v = localStorage.getItem("gameweave.pace");
  if (v !== null && !Number.isNaN(Number(v))) return Number(v);
  return animationsOn() ? 350 : 250;
}

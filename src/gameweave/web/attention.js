// Never miss your turn (issue 10): the tab title and the favicon change while it is this
// seat's turn, and an optional short beep (WebAudio, off by default, remembered in
// localStorage "gameweave.sound") sounds when the turn comes to it; with the same
// setting each move makes a soft card sound (issue 19).

import { t } from "./i18n.js";

const SOUND_KEY = "gameweave.sound";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";

/** Whether the turn sound is on (off unless the person turned it on). */
export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

export function setupSoundToggle(box) {
  if (!box) return;
  box.checked = soundOn();
  box.addEventListener("change", () => {
    try {
      localStorage.setItem(SOUND_KEY, box.checked ? "on" : "off");
    } catch {
      // private mode
    }
    if (box.checked) beep();
  });
}

let audio = null;
/**
 * One short tone through WebAudio: an oscillator of wave `type` gliding from `from` Hz to
 * `to` Hz (the same by default) while its volume falls from `gain` to silence over
 * `seconds`.  Silent where WebAudio is missing or blocked (the page says everything in
 * words and icons as well).
 */
function tone({ type = "sine", from, to = from, gain, seconds }) {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const now = audio.currentTime;
    const osc = audio.createOscillator();
    const amp = audio.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(from, now);
    if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, now + seconds);
    amp.gain.setValueAtTime(gain, now);
    amp.gain.exponentialRampToValueAtTime(0.0001, now + seconds);
    osc.connect(amp).connect(audio.destination);
    osc.start();
    osc.stop(now + seconds + 0.01);
  } catch {
    // no sound: the title and the icon still say it
  }
}

/** A short soft beep (0.15 s at 660 Hz): the turn has come. */
export function beep() {
  tone({ from: 660, gain: 0.08, seconds: 0.15 });
}

/** A card's soft click (0.06 s, low and quiet, a triangle wave gliding 320 -> 140 Hz) as
 * a move is made, when the sound is on (issue 19). */
export function cardSound() {
  if (soundOn()) tone({ type: "triangle", from: 320, to: 140, gain: 0.05, seconds: 0.06 });
}

function setIcon(href) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.type = "image/svg+xml";
    document.head.append(link);
  }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  document.documentElement.dataset.turnIcon = String(href === TURN_ICON);
}

let wasMyTurn = false;
/**
 * Mark the tab for this seat's turn: title "● Your turn — Gameweave" (page.title.your_turn)
 * and the turn favicon while `myTurn`, else `title`; beeps once as the turn arrives when
 * the sound is on.
 */
export function markTurn(myTurn, title) {
  document.title = myTurn ? t("page.title.your_turn") : title;
  setIcon(myTurn ? TURN_ICON : ICON);
  if (myTurn && !wasMyTurn && soundOn()) beep();
  wasMyTurn = myTurn;
}

/** Back to the plain title and icon (leaving the table). */
export function clearTurn(title) {
  wasMyTurn = false;
  setIcon(ICON);
  if (title) document.title = title;
}

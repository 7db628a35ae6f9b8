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
/** A short soft beep (0.15 s at 660 Hz); silent where WebAudio is missing or blocked. */
export function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.15);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.16);
  } catch {
    // no sound: the title and the icon still say it
  }
}

/** A card's soft click (0.06 s, low and quiet) as a move is made, when the sound is on
 * (issue 19); silent where WebAudio is missing or blocked. */
export function cardSound() {
  if (!soundOn()) return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(320, audio.currentTime);
    osc.frequency.exponentialRampToValueAtTime(140, audio.currentTime + 0.06);
    gain.gain.setValueAtTime(0.05, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.06);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.07);
  } catch {
    // no sound
  }
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

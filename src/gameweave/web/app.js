// The single-page app: routes on location.pathname (the server serves index.html for
// /, /account, /leaderboard, /player/{name}, /table/{id}, /join/{id}/{invite}, /replay/{id}/{n},
// /watch/{id}/{key}, /continue/{id}).  The
// language's catalog is loaded first (i18n.js); the lang-switch re-renders the page.

import { renderAccount } from "./account.js";
import { openContinue } from "./elsewhere.js";
import { renderLeaderboard } from "./leaderboard.js";
import { renderPlayer } from "./player.js";
import { renderLobby } from "./lobby.js";
import { openTable, joinAndOpen, openWatch } from "./table.js";
import { loadLanguage, preferredLanguage, setupLangSwitch, t } from "./i18n.js";
import { setupSoundToggle } from "./attention.js";
import { openReplay } from "./replay.js";
import { nothingHere } from "./notfound.js";
import { setupMotionToggle } from "./ui.js";

let current = null;

/** Navigate inside the app without a page load. */
export function go(path) {
  history.pushState({}, "", path);
  route();
}

function route() {
  if (current && current.close) current.close();
  current = null;
  const main = document.getElementById("main");
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) {
    current = renderLobby(main, { go });
  } else if (parts[0] === "account" && parts.length === 1) {
    document.title = t("page.title.account");
    current = renderAccount(main, { go });
  } else if (parts[0] === "leaderboard" && parts.length === 1) {
    current = renderLeaderboard(main, { go });
  } else if (parts[0] === "player" && parts.length === 2) {
    current = renderPlayer(main, parts[1]);
  } else if (parts[0] === "table" && parts.length === 2) {
    current = openTable(main, parts[1], { go });
  } else if (parts[0] === "join" && parts.length === 3) {
    current = joinAndOpen(main, parts[1], parts[2], { go });
  } else if (parts[0] === "continue" && parts.length === 2) {
    document.title = t("page.title.continue");
    current = openContinue(main, parts[1]);
  } else if (parts[0] === "watch" && parts.length === 3) {
    current = openWatch(main, parts[1], parts[2], { go });
  } else if (parts[0] === "replay" && parts.length === 3 && /^[0-9]{1,6}$/.test(parts[2])) {
    current = openReplay(main, parts[1], Number(parts[2]), { go });
  } else if (parts[0] === "replay" && parts.length === 3) {
    nothingHere(main, t("page.replay.bad_deal", { text: parts[2].slice(0, 40) }));
  } else {
    nothingHere(main, t("page.nothing_here"));
  }
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[data-nav]");
  if (a && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey && ev.button === 0) {
    ev.preventDefault();
    go(a.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);
setupMotionToggle();
setupSoundToggle(document.getElementById("sound-toggle"));
loadLanguage(preferredLanguage())
  .catch(() => loadLanguage("en"))
  .catch(() => {})
  .then(() => {
    setupLangSwitch(document.getElementById("lang-switch"), route);
    route();
  });

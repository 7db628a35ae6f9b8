// The single-page app: routes on location.pathname (the server serves index.html for
// /, /table/{id}, /join/{id}/{invite}, /replay/{id}/{n}).

import { renderLobby } from "./lobby.js";
import { openTable, joinAndOpen } from "./table.js";
import { openReplay } from "./replay.js";
import { h, setupMotionToggle } from "./ui.js";

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
  } else if (parts[0] === "table" && parts.length === 2) {
    current = openTable(main, parts[1], { go });
  } else if (parts[0] === "join" && parts.length === 3) {
    current = joinAndOpen(main, parts[1], parts[2], { go });
  } else if (parts[0] === "replay" && parts.length === 3) {
    current = openReplay(main, parts[1], Number(parts[2]), { go });
  } else {
    main.replaceChildren(
      h("section", { class: "panel" }, h("h1", {}, "No such page"), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))),
    );
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
route();

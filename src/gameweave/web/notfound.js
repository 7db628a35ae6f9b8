// The "nothing here" view: no page at this address, no such deal, or a watch or seat link
// that the server refused; with the way back to the lobby.

import { t } from "./i18n.js";
import { h } from "./ui.js";

/** Replace `main` with the "nothing here" panel saying `text` (already in the reader's
 * language). */
export function nothingHere(main, text) {
  document.title = t("page.title.not_found");
  main.replaceChildren(
    h("section", { class: "panel not-found", "data-testid": "not-found" },
      h("h1", {}, t("page.no_such_page")),
      h("p", {}, text),
      h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary", "data-testid": "back-to-lobby" }, t("page.back_to_lobby")))),
  );
}

// The move log: one line per public event, in words (words.logLines), appended so that a
// screen reader hears only what is new; started afresh for each deal.  On a narrow screen
// it shows the last few moves and a button shows them all (CSS hides the button where
// the log sits beside the table and scrolls).

import { t } from "../i18n.js";
import { h } from "../ui.js";
import { logLines } from "../words.js";

/** Moves shown on a narrow screen until "Show all" is pressed. */
const LOG_SHORT = 4;

/** The log region over `el` = {log (the <ol>), logToggle (its button)}. */
export function createLog(el) {
  let open = false;
  let dealKey = "";

  function sync() {
    const n = el.log.children.length;
    el.log.classList.toggle("collapsed", !open);
    el.logToggle.hidden = n <= LOG_SHORT;
    el.logToggle.setAttribute("aria-expanded", String(open));
    el.logToggle.textContent = open ? t("page.table.log_less") : t("page.table.log_all", { n });
    el.log.scrollTop = el.log.scrollHeight;
    el.log.classList.toggle("scrolled", el.log.scrollTop > 2);
  }
  el.logToggle.addEventListener("click", () => { open = !open; sync(); });
  el.log.addEventListener("scroll", () => el.log.classList.toggle("scrolled", el.log.scrollTop > 2), { passive: true });

  /** el: the same {log, logToggle}. */
  function render(_el, f, { v, me, names, deal }) {
    const lines = logLines(v, names, { resigned: (f.deal && f.deal.resigned) || null });
    const key = String(deal || "");
    if (key !== dealKey) {
      el.log.replaceChildren();
      dealKey = key;
    }
    if (lines.length < el.log.children.length) el.log.replaceChildren();
    lines.slice(el.log.children.length).forEach((line) => {
      // explicit numbers: on a phone the older lines are hidden and must not renumber these
      el.log.append(h("li", { value: el.log.children.length + 1, class: `log-${line.kind} ${line.seat === me ? "by-me" : line.seat ? "by-opp" : ""}` }, line.text));
    });
    sync();
  }
  return { render };
}

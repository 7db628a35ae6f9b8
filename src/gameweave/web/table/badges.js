// A seat's progress towards eleven (R16), beside its name: cards melded, and the badge of
// a seat one card from winning.  Public counts only (R21).

import { t } from "../i18n.js";
import { h } from "../ui.js";
import { ELEVEN } from "./state.js";

/** The badges of seat `s` from the frame's progress `prog` ({melded, one_from_eleven}). */
export function seatBadges(s, prog) {
  const n = (prog.melded || {})[String(s)] ?? 0;
  const parts = [h("span", { class: `meld-count${n >= ELEVEN - 1 ? " hot" : ""}`, "data-testid": `meld-count-${s}`, "data-count": String(n) }, t("page.table.melded", { n, of: ELEVEN }))];
  if ((prog.one_from_eleven || []).includes(s)) {
    parts.push(h("span", { class: "badge eleven", "data-testid": "one-from-eleven", "data-seat": String(s) }, t("page.table.one_from_winning")));
  }
  return parts;
}

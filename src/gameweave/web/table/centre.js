// The centre of the table: the stock, the live card (or the card forced on a seat that
// must meld it, R18e) and the dead cards as a grid by suit (always shown).

import { backEl, cardEl, deadGrid, spoken } from "../cards.js";
import { t, tn } from "../i18n.js";
import { h } from "../ui.js";
import { turnerOf } from "../words.js";

/** The centre region; it remembers the live card shown, so that only a new one enters
 * with the short animation. */
export function createCentre() {
  let lastLive = null;

  function live(el, v, names) {
    if (v.live) {
      const by = v.live_from ? names.x("page.table.let_go", v.live_from) : names.x("page.table.turned_it", turnerOf(v));
      const card = cardEl(v.live, { size: "lg", label: t("page.table.live_label", { card: spoken(v.live), by }) });
      if (lastLive !== v.live) card.classList.add("enter");
      lastLive = v.live;
      el.replaceChildren(card, h("span", { class: "caption" }, v.live_from ? t("page.table.live_caption") : t("page.table.turned_caption"), " — ", by));
      return;
    }
    lastLive = null;
    if (v.forced) {
      // R18e: a forced card waits for its seat's meld; nothing is live meanwhile
      const on = names.x("page.must_meld", v.to_act);
      el.replaceChildren(cardEl(v.forced, { size: "lg", label: t("page.table.forced_label", { card: spoken(v.forced), on }) }),
        h("span", { class: "caption" }, t("page.table.forced_caption"), " — ", on));
    } else {
      el.replaceChildren(h("span", { class: "card empty lg", role: "img", "aria-label": t("page.table.no_live") }), h("span", { class: "caption" }, t("page.table.no_live_caption")));
    }
  }

  /** el: {stock, live, dead}. */
  function render(el, f, { v, names }) {
    el.stock.replaceChildren(
      v.stock > 0 ? backEl("md", t("page.table.stock_label", { n: v.stock })) : h("span", { class: "card empty md", role: "img", "aria-label": t("page.table.stock_empty") }),
      h("span", { class: "caption" }, h("strong", {}, String(v.stock)), " ", t("page.table.in_stock")),
    );
    live(el.live, v, names);
    const dead = v.dead || [];
    el.dead.dataset.count = String(dead.length);
    el.dead.replaceChildren(h("span", { class: "caption dead-title" }, h("strong", {}, String(dead.length)), " ", tn("page.table.dead", dead.length)), deadGrid(dead));
  }
  return { render };
}

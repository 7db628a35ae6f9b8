// The score bar: the score (or, for stakes, the stakes), tablas, the rules (their summary
// opens on a click), the format, the deal, a test deck, the friend's presence and help.
// Each part is its own chip, so a narrow screen wraps whole chips (no separators), and
// every chip stays in view on a phone (issue 19).  The people region appends its chips
// (presence, spectators, a timed-out move) after these; the clocks sit by the status.

import { openHelp, profileTitle } from "../help.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { stakesLine } from "../words.js";

/** The friend's presence chip in a match without `players` (older frames), or "". */
function presenceChip(m, oppName) {
  if (m.players || !m.opponent || m.opponent.kind !== "person") return "";
  const o = m.opponent;
  const text = o.joined === false ? t("page.presence.not_joined", { who: oppName })
    : o.connected ? t("page.presence.online", { who: oppName }) : t("page.presence.away", { who: oppName });
  return h("span", { class: `chip presence ${o.joined === false ? "off" : o.connected ? "on" : "off"}` }, text);
}

/** The score bar region; it remembers the profile's title once the help data gave it. */
export function createScore() {
  let rulesTitle = null;
  function render(el, f, { v, m, me, opp, oppName, names, testDeal }) {
    const sc = m.score || {};
    const fmt = m.format === "first_to" ? t("page.format.first_to", { n: m.target }) : m.format === "stakes" ? t("page.format.stakes") : t("page.format.tally");
    const rules = v.rules || m.rules || "gameweave";
    if (!rulesTitle) {
      profileTitle(rules).then((title) => {
        rulesTitle = title;
        const b = el.querySelector("[data-testid=rules-name]");
        if (b) b.textContent = t("page.table.rules_chip", { rules: rulesTitle });
      });
    }
    // a match for stakes is scored by its stakes alone: one chip says the balance and the
    // next deal's stake (the deals won are not said a second time beside it)
    el.replaceChildren(
      m.stakes ? h("span", { class: "chip stakes", "data-testid": "stakes" }, stakesLine(m.stakes, me, oppName))
        : h("span", { class: "score" }, h("strong", {}, `${names.who(me)} ${sc[String(me)] ?? 0}`), " – ", h("strong", {}, `${sc[String(opp)] ?? 0} ${oppName}`)),
      sc.tablas ? h("span", { class: "chip" }, t("page.table.tablas_count", { n: sc.tablas })) : "",
      h("button", { type: "button", class: "chip rules-chip", "data-testid": "rules-name", "data-rules": rules, "aria-label": t("page.table.rules_label", { rules: rulesTitle || rules }),
        onclick: (ev) => openHelp(rules, ev.currentTarget) }, t("page.table.rules_chip", { rules: rulesTitle || rules })),
      m.stakes ? "" : h("span", { class: "chip" }, fmt),
      h("span", { class: "chip" }, t("page.table.deal_chip", { n: m.deal_number ?? "" })),
      testDeal ? h("span", { class: "chip test", title: t("page.table.test_deck_title") }, t("page.table.test_deck")) : "",
      presenceChip(m, oppName),
      h("button", { type: "button", class: "chip help-chip", "data-testid": "open-help", "aria-label": t("page.how_to_play"), onclick: (ev) => openHelp(rules, ev.currentTarget) }, "?"),
    );
  }
  return { render };
}

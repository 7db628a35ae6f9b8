// How to play: the rules of a profile, the glossary and first-deal tips, in a dialog
// (data-testid=help) opened from the lobby and the table.  Every word comes from the
// server's help data in the page's language (GET /api/help?lang=es|en, from the catalogs'
// help.* / glossary.* / tips.* keys) — the dialog's own frame comes from page.help.*.

import { api } from "./api.js";
import { cardRow, short, shortList } from "./cards.js";
import { lang, t } from "./i18n.js";
import { tutorialStart } from "./tutorial.js";
import { h } from "./ui.js";

const cached = {};

/** The help data {profiles: {name: {title, summary, sections}}, glossary, tips} in the
 * page's language, fetched once per language. */
export function loadHelp() {
  const l = lang();
  if (!cached[l]) {
    cached[l] = api("GET", `/api/help?lang=${encodeURIComponent(l)}`).catch((err) => {
      delete cached[l];
      throw err;
    });
  }
  return cached[l];
}

/** The title of profile `name` from the help data, or the name itself until it loads. */
export async function profileTitle(name) {
  try {
    const d = await loadHelp();
    return (d.profiles && d.profiles[name] && d.profiles[name].title) || name;
  } catch {
    return name;
  }
}

function profileBody(p) {
  return [
    h("p", { class: "help-summary" }, p.summary || ""),
    ...(p.sections || []).map((s) => h("section", { class: "help-section" }, h("h3", {}, s.title), h("p", {}, s.text))),
  ];
}

/** Small pictures of the melds (drawn with the table's cards): a set, a sequence,
 * 6-7-J (the 7 is next to the J, R2) and a force onto the opponent's meld (R15). */
function pictures() {
  // cards by rank and suit letters: cards("Q", "chs") is Q♣ Q♥ Q♠ (R3)
  const cards = (ranks, suits) => [...ranks].flatMap((r) => [...suits].map((s) => r + s));
  const fig = (name, row, params = {}) => h("figure", { class: "help-picture", "data-picture": name },
    row, h("figcaption", {}, t(`tutorial.picture.${name}`, params)));
  const [meld, card] = [cards("Q", "chs"), cards("Q", "d")];
  const forced = h("span", { class: "help-force" }, cardRow(meld, { size: "sm" }),
    h("span", { class: "help-arrow", "aria-hidden": "true" }, "←"), cardRow(card, { size: "sm", highlight: card[0] }));
  return h("section", { class: "help-pictures", "data-testid": "help-pictures" },
    h("h3", {}, t("tutorial.pictures")),
    h("div", { class: "help-picture-grid" },
      fig("set", cardRow(cards("7", "cdh"), { size: "sm" })),
      fig("sequence", cardRow(cards("3456", "h"), { size: "sm" })),
      fig("seven_jack", cardRow(cards("67J", "s"), { size: "sm" })),
      fig("force", forced, { card: short(card[0]), meld: shortList(meld) })));
}

/**
 * Open the help dialog on profile `name` (the rules in play, or the lobby's choice);
 * `focusBack` gets the focus when it closes.  Esc or the Close button closes it.
 */
export function openHelp(name, focusBack = null) {
  document.querySelector("dialog[data-testid=help]")?.remove();
  const body = h("div", { class: "help-body" }, h("p", {}, t("page.help.loading")));
  const close = h("button", { type: "button", class: "btn small", "data-testid": "close-help" }, t("page.help.close"));
  const dlg = h("dialog", { class: "help-dialog", "data-testid": "help", "aria-labelledby": "help-title" },
    h("div", { class: "help-head" }, h("h2", { id: "help-title" }, t("page.how_to_play")), close), body);
  let gone = false;
  const done = () => {
    if (gone) return;
    gone = true;
    if (dlg.open) dlg.close();
    dlg.remove();
    if (focusBack && focusBack.isConnected) focusBack.focus({ preventScroll: true });
  };
  close.addEventListener("click", done);
  dlg.addEventListener("close", done); // Esc
  dlg.addEventListener("click", (ev) => {
    if (ev.target === dlg) done(); // a click on the backdrop
  });
  document.body.append(dlg);
  dlg.showModal();
  loadHelp().then((d) => {
    const profiles = d.profiles || {};
    const names = Object.keys(profiles);
    const rulesBox = h("div", { class: "help-rules", "data-testid": "help-rules" });
    const show = (n) => {
      rulesBox.dataset.rules = n;
      rulesBox.replaceChildren(...(profiles[n] ? profileBody(profiles[n]) : [h("p", {}, t("page.help.no_rules"))]));
    };
    const current = profiles[name] ? name : names[0];
    const pick = h("select", { "aria-label": t("page.lobby.rules"), "data-testid": "help-profile" },
      names.map((n) => h("option", { value: n, selected: n === current }, profiles[n].title || n)));
    pick.addEventListener("change", () => show(pick.value));
    show(current);
    body.replaceChildren(
      h("section", { class: "help-tutorial" }, h("p", {}, t("tutorial.help_line")), tutorialStart({ before: done })),
      pictures(),
      h("section", {}, h("div", { class: "help-pick" }, h("h3", {}, t("page.lobby.rules")), pick), rulesBox),
      h("section", { class: "help-glossary" }, h("h3", {}, t("page.help.glossary")),
        h("dl", {}, (d.glossary || []).flatMap((g) => [h("dt", {}, g.term), h("dd", {}, g.text)]))),
      h("section", { class: "help-tips" }, h("h3", {}, t("page.help.tips")),
        h("ul", {}, (d.tips || []).map((tip) => h("li", {}, tip)))),
    );
  }, (err) => {
    body.replaceChildren(h("p", { class: "error" }, t("page.help.failed", { why: err.message })));
  });
  return dlg;
}

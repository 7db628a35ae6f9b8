// The table's small touches (issue 19): a soft card sound as each move is made (with the
// top bar's Sound setting), a short burst of suits when this seat wins a deal (only with
// animations on: the Animations setting, which follows the system's reduced motion), and
// the `confirm-throws` setting (a throw waits for its Throw button; on for touch screens).

import { cardSound } from "../attention.js";
import { t } from "../i18n.js";
import { animationsOn, confirmThrows, h, setConfirmThrows } from "../ui.js";

/** How long the win effect stays (ms); its CSS animation is shorter. */
const WIN_EFFECT_MS = 1600;

/** The suits the win effect throws up. */
const SUITS = ["♠", "♥", "♦", "♣"];

/** The table's settings box for the aside: the `confirm-throws` checkbox, labelled. */
export function settingsBox() {
  const box = h("input", { type: "checkbox", id: "confirm-throws", "data-testid": "confirm-throws", checked: confirmThrows(),
    "aria-describedby": "confirm-throws-help" });
  box.addEventListener("change", () => setConfirmThrows(box.checked));
  return h("div", { class: "table-settings small" },
    h("label", { class: "check", for: "confirm-throws" }, box, " ", t("page.table.confirm_throws")),
    h("p", { class: "muted small", id: "confirm-throws-help" }, t("page.table.confirm_throws_help")));
}

/** The win effect over `root`: suits rising from the middle, then gone. */
function winBurst(root) {
  const burst = h("div", { class: "win-burst", "data-testid": "win-effect", "aria-hidden": "true" },
    ...Array.from({ length: 12 }, (_, i) => h("span", { class: `win-suit ${i % 4 === 1 || i % 4 === 2 ? "red" : "black"}`, style: `--i:${i}` }, SUITS[i % 4])));
  root.append(burst);
  setTimeout(() => burst.remove(), WIN_EFFECT_MS);
}

/** The effects region over the table's `root`; `render(f, ctx)` after each frame drawn. */
export function createEffects(root) {
  let seen = null; // {deal, moves, status} of the frame drawn last

  function render(f, { v, me, deal, spectator }) {
    const now = { deal: String(deal || ""), moves: (v.history || []).length, status: v.status };
    const before = seen;
    seen = now;
    if (!before || before.deal !== now.deal) return; // a first frame or a new deal: nothing happened here
    if (now.moves > before.moves) cardSound();
    if (!spectator && before.status === "playing" && v.status === "won" && v.winner === me && animationsOn()) winBurst(root);
  }
  return { render };
}

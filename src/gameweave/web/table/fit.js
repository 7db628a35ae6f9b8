// One screen (docs/BROWSER.md "The table"): during a turn the score bar, the choices and
// the whole hand are in view without scrolling.  The lists of choices that scroll inside
// their box (the R18 chooser's tables, the meld choices, several forces) give up height,
// down to about one row each, until the bottom of the seat's own area lies inside the
// viewport of the page at its top: with the opponent's melds on the table at 1366 x 800,
// or a selected card's Throw button added on a 390 px phone.  Called after every redraw
// and on a resize; the height is a CSS variable (`--fit-max`) that table.css takes the
// smaller of with each list's own limit.

/** The lists that may give up height, in the order they do. */
const LISTS = ".actions .chooser-tables, .actions .meld-choices, .actions .force-choices";

/** The least height a list keeps (px): one row of choices and the sign that it scrolls. */
const MIN_PX = 52;

/** Room left under the seat's area (px): the page's own padding. */
const MARGIN_PX = 4;

/** The most the page may be over (px) for the closer spacing to be tried: it saves about
 * that much (table.css `.fit-close`); a page further over scrolls as it would anyway. */
const CLOSE_PX = 24;

/** Fit the lists of choices of `root` (the table page) to the viewport; if the seat's
 * area still ends a little below it (no list left to shrink: a selected card's Throw
 * button beside a full table), the board's rows move closer together (`fit-close`). */
export function fitChoices(root) {
  const lists = [...root.querySelectorAll(LISTS)];
  const seat = root.querySelector(".seat.me");
  for (const list of lists) list.style.removeProperty("--fit-max");
  root.classList.remove("fit-close");
  if (!seat) return;
  const over = () => seat.getBoundingClientRect().bottom + window.scrollY + MARGIN_PX - document.documentElement.clientHeight;
  for (const list of lists) {
    const by = over();
    if (by <= 0) return;
    const height = list.getBoundingClientRect().height;
    if (height > MIN_PX) list.style.setProperty("--fit-max", `${Math.floor(Math.max(MIN_PX, height - by))}px`);
  }
  const left = over();
  if (left > 0 && left <= CLOSE_PX) root.classList.add("fit-close");
}

// The keyboard's place across a redraw: the same control again where it was (found by
// its action, test id or card), or the first choice when the turn comes back to this
// seat, so that the focus never falls back to <body>.

/** The controls the focus goes to first: the choices, the hand's throws and picks, the
 * result's buttons. */
const FIRST = ".actions [data-action]:not([disabled]), .actions [data-send], .hand [data-action]:not([disabled]), .hand [data-pick], [data-testid=next-deal], [data-testid=rematch]";

/** Where the focus is before `root` is redrawn. */
export function captureFocus(root) {
  const prev = document.activeElement;
  const inside = !!prev && root.contains(prev) && prev !== document.body && !prev.closest("dialog");
  return {
    prev,
    inside,
    action: inside ? prev.dataset.action || prev.dataset.testid : null,
    pick: inside ? prev.dataset.pick || prev.dataset.send : null,
  };
}

/**
 * Put the focus back after the redraw.  `want`: a selector to focus, or "first" (the
 * first choice), or null; `myTurn`: this seat decides now; `playing`: the deal goes on;
 * `fallback`: where the focus goes when its control is gone and no choice is left.
 */
export function restoreFocus(root, was, { want, myTurn, playing, fallback }) {
  const active = document.activeElement;
  const gone = was.inside && !root.contains(was.prev);
  const lost = !active || active === document.body || gone;
  const first = () => root.querySelector(FIRST);
  let target = null;
  if (want) target = want === "first" ? first() : root.querySelector(want);
  else if (gone) {
    target = (was.action && root.querySelector(`[data-action="${CSS.escape(was.action)}"], [data-testid="${CSS.escape(was.action)}"]`))
      || (was.pick && root.querySelector(`[data-pick="${CSS.escape(was.pick)}"], [data-send="${CSS.escape(was.pick)}"]`))
      || first() || fallback;
  } else if ((myTurn || !playing) && lost && !document.querySelector("dialog[open]")) {
    // (a control disabled while a move is sent drops the focus to <body>)
    target = first();
  }
  if (target && target.focus) target.focus({ preventScroll: true });
}

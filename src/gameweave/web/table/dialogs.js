// The table's one modal dialog at a time (the danger confirmation, R16, and the resign
// confirmation): opened over the table, closed by its cancel button, Escape, a new frame
// or a move sent; the focus goes back to the control that opened it.

/** `root`: the table page the dialog opens in; `busy()`: true while a move is on its way
 * (the focus then stays where the sent move left it). */
export function createDialogs(root, busy) {
  let open = null;
  function close() {
    if (!open) return;
    const d = open;
    open = null;
    if (d.open) d.close();
    d.remove();
    if (d.returnTo && d.returnTo.isConnected && !busy()) d.returnTo.focus({ preventScroll: true });
  }
  /** Show `dlg` (a <dialog> whose `cancel` button closes it) for the control `from`,
   * focusing `cancel`. */
  function show(dlg, from, cancel) {
    close();
    cancel.addEventListener("click", () => close());
    dlg.addEventListener("cancel", (ev) => { ev.preventDefault(); close(); });
    dlg.returnTo = from;
    root.append(dlg);
    open = dlg;
    dlg.showModal();
    cancel.focus();
  }
  return { show, close };
}

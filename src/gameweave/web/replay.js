// Replay of a finished deal: step through it with both hands visible, and download its
// record.  The steps come from the server (GET /api/matches/{id}/deals/{n}/replay): the
// rules stay in Python; the page only draws the snapshots.

import { api, seatFor } from "./api.js";
import { backEl, cardEl, cardRow, spoken, spokenList } from "./cards.js";
import { h } from "./ui.js";
import { logLines, namer } from "./words.js";

function seatBlock(snap, s, me) {
  const seat = snap.seats[String(s)];
  const who = s === me ? `Seat ${s} (you)` : `Seat ${s}`;
  const melds = seat.melds.length
    ? h("ol", { class: "meld-list" }, seat.melds.map((m, i) => h("li", { class: "meld", "aria-label": `Meld ${i + 1}: ${spokenList(m)}` },
      h("span", { class: "meld-no", "aria-hidden": "true" }, String(i + 1)), cardRow(m, { size: "sm" }))))
    : h("p", { class: "muted empty" }, "No melds.");
  return h("section", { class: `seat ${s === me ? "me" : "opp"}`, "aria-label": who, "data-testid": `replay-seat-${s}` },
    h("h2", { class: "seat-name" }, who, h("span", { class: "muted small" }, ` · ${seat.hand.length} in hand${snap.to_act === s ? " · to act" : ""}`)),
    h("div", { class: "melds", "data-testid": `table-${s}` }, melds),
    h("h3", { class: "seat-name small" }, "Hand"),
    h("div", { class: "hand", "data-testid": `hand-${s}`, "aria-label": `${who} hand: ${spokenList(seat.hand) || "empty"}` },
      seat.hand.map((c) => cardEl(c, { size: "sm" }))));
}

/**
 * Why deal `dealNo` of the match cannot be replayed yet, in words, or null when it can:
 * reads the seat's summary (POST /api/my-matches, always 200).  A deal has ended when a
 * later deal exists, or it is the current one and the status is deal_over / match_over.
 */
async function whyNoReplay(matchId, token, dealNo) {
  const data = await api("POST", "/api/my-matches", { body: { seats: [{ match_id: matchId, token }] } });
  const m = (data.matches || [])[0];
  if (!m) return "This server has no such match for the seat this browser holds.";
  if (!Number.isInteger(dealNo) || dealNo < 1 || dealNo > m.deal_number) {
    return `This match has no deal ${dealNo} (it is at deal ${m.deal_number}).`;
  }
  if (dealNo === m.deal_number && m.status !== "deal_over" && m.status !== "match_over") {
    return `Deal ${dealNo} is still being played: its replay opens when it ends (both hands stay hidden until then).`;
  }
  return null;
}

/** /replay/{id}/{n}: step through finished deal n of a match this browser holds a seat in. */
export function openReplay(main, matchId, dealNo) {
  document.title = `Gameweave — replay of deal ${dealNo}`;
  const mine = seatFor(matchId);
  if (!mine) {
    main.replaceChildren(h("section", { class: "panel" }, h("h1", {}, "No seat at this table"),
      h("p", {}, "Replays are open to the two seats of a match, from the browser that holds the seat."),
      h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary" }, "Back to the lobby"))));
    return { close() {} };
  }
  const me = mine.seat;
  const names = namer(me, `Seat ${me === 1 ? 2 : 1}`);
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, "Loading the replay…")));
  let step = 0;
  let data = null;
  let closed = false;

  const onKey = (ev) => {
    if (!data || ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowRight") show(step + 1);
    else if (ev.key === "ArrowLeft") show(step - 1);
    else if (ev.key === "Home") show(0);
    else if (ev.key === "End") show(data.snapshots.length - 1);
    else return;
    ev.preventDefault();
  };

  const board = h("div", { class: "board", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, value: 0, "aria-label": "Step", "data-testid": "replay-slider" });
  const stepText = h("p", { class: "replay-step", "data-testid": "replay-step" });
  const btn = (label, aria, fn, testid) => h("button", { type: "button", class: "btn", "aria-label": aria, onclick: fn, "data-testid": testid }, label);
  slider.addEventListener("input", () => show(Number(slider.value)));

  function show(k) {
    if (!data) return;
    step = Math.max(0, Math.min(data.snapshots.length - 1, k));
    slider.value = String(step);
    const snap = data.snapshots[step];
    const rules = data.record.rules;
    const rearranging = data.rearranging;
    const before = step ? logLines({ rules, rearranging, history: data.history.slice(0, step - 1) }, names).length : 0;
    const lines = step ? logLines({ rules, rearranging, history: data.history.slice(0, step) }, names).slice(before) : [];
    stepText.textContent = step
      ? `Step ${step} of ${data.snapshots.length - 1}: ${lines.map((l) => l.text).join(" ")}`
      : `Start of deal ${dealNo}: seat ${data.record.opener} opens.`;
    if (step === data.snapshots.length - 1) {
      const r = data.result || {};
      stepText.textContent += r.status === "tablas" ? " The deal ends in tablas." : ` Seat ${r.winner} wins the deal.`;
    }
    const opp = me === 1 ? 2 : 1;
    board.replaceChildren(
      seatBlock(snap, opp, me),
      h("section", { class: "centre", "aria-label": "Stock and live card" },
        h("div", { class: "stock", "data-testid": "stock" }, snap.stock > 0 ? backEl("md", `stock: ${snap.stock} cards`) : h("span", { class: "card empty md" }),
          h("span", { class: "caption" }, h("strong", {}, String(snap.stock)), " in stock")),
        h("div", { class: "live", "data-testid": "live-card" },
          snap.live ? cardEl(snap.live, { size: "lg", label: `centre card: ${spoken(snap.live)}` }) : h("span", { class: "card empty lg", role: "img", "aria-label": "no live card" }),
          h("span", { class: "caption" }, snap.live ? (snap.live_from ? `Let go by seat ${snap.live_from}` : "Just turned") : "No live card"))),
      seatBlock(snap, me, me),
    );
  }

  // Ask first with a request that answers 200 whatever the match's state (the seat's
  // summary), so that an unfinished or unknown deal is explained without a refused
  // request (which the browser would log as an error in its console).
  whyNoReplay(matchId, mine.token, dealNo)
    .then((why) => {
      if (why) throw new Error(why);
      return api("GET", `/api/matches/${encodeURIComponent(matchId)}/deals/${dealNo}/replay`, { token: mine.token });
    })
    .then((d) => {
      if (closed) return;
      data = d;
      slider.max = String(d.snapshots.length - 1);
      const download = { record: d.record, salt: d.salt, commitment: d.commitment, result: d.result };
      const blob = new Blob([JSON.stringify(download, null, 2) + "\n"], { type: "application/json" });
      const href = URL.createObjectURL(blob);
      main.replaceChildren(
        h("div", { class: "table-page replay" },
          h("div", { class: "board-wrap" },
            h("section", { class: "panel" },
              h("h1", {}, `Replay — deal ${dealNo}`),
              h("div", { class: "replay-controls", role: "group", "aria-label": "Step through the deal" },
                btn("◀◀", "First step", () => show(0), "replay-first"),
                btn("◀", "Previous step", () => show(step - 1), "replay-prev"),
                slider,
                btn("▶", "Next step", () => show(step + 1), "replay-next"),
                btn("▶▶", "Last step", () => show(data.snapshots.length - 1), "replay-last")),
              stepText,
              h("p", { class: "muted small" }, "Keys: ← → step, Home / End jump."),
              h("p", {},
                h("a", { class: "btn", href, download: `gameweave-${matchId}-deal-${dealNo}.json`, "data-testid": "download-record" }, "Download the record"), " ",
                h("a", { class: "btn", href: `/table/${matchId}`, "data-nav": "" }, "Back to the table"))),
            board)));
      document.addEventListener("keydown", onKey);
      show(0);
    })
    .catch((err) => {
      if (closed) return;
      main.replaceChildren(h("section", { class: "panel" }, h("h1", {}, "No replay"), h("p", { class: "error" }, err.message),
        h("p", {}, h("a", { href: `/table/${matchId}`, "data-nav": "", class: "btn" }, "Back to the table"))));
    });
  return {
    close() {
      closed = true;
      document.removeEventListener("keydown", onKey);
    },
  };
}

// The lobby: play the computer or a friend, choose the match format, see your matches
// (remembered in this browser).

import { api, loadSeats, saveSeat } from "./api.js";
import { h, toast } from "./ui.js";
import { opponentName } from "./words.js";

const STATUS_WORDS = {
  waiting_for_opponent: "waiting for your friend to join",
  your_turn: "your turn",
  their_turn: "their turn",
  deal_over: "deal over — next deal waiting",
  match_over: "match over",
};

function formatChooser() {
  const target = h("input", {
    type: "number", id: "target", min: 1, max: 99, value: 3, inputmode: "numeric", "aria-label": "Won deals needed",
    "data-testid": "target",
  });
  const firstTo = h("input", { type: "radio", name: "format", value: "first_to", id: "fmt-first", checked: true });
  const tally = h("input", { type: "radio", name: "format", value: "tally", id: "fmt-tally" });
  const sync = () => {
    target.disabled = !firstTo.checked;
  };
  firstTo.addEventListener("change", sync);
  tally.addEventListener("change", sync);
  const fs = h(
    "fieldset", { class: "format" },
    h("legend", {}, "Match format"),
    h("label", { for: "fmt-first", class: "radio" }, firstTo, " First to ", target, " won deals"),
    h("label", { for: "fmt-tally", class: "radio" }, tally, " Running tally (no end)"),
  );
  fs.read = () => {
    const t = Math.max(1, Math.min(99, Number(target.value) || 3));
    return firstTo.checked ? { format: "first_to", target: t } : { format: "tally", target: t };
  };
  return fs;
}

function describeScore(m) {
  const s = m.score || {};
  const me = String(m.seat);
  const them = me === "1" ? "2" : "1";
  let txt = `${s[me] ?? 0}–${s[them] ?? 0}`;
  if (s.tablas) txt += `, ${s.tablas} tablas`;
  return txt;
}

/** Fill the "Your matches" list; a later call wins over an earlier one still loading. */
async function fillMatches(list) {
  const gen = (list.gen = (list.gen || 0) + 1);
  const seats = loadSeats();
  const entries = Object.entries(seats).map(([match_id, v]) => ({ match_id, token: v.token }));
  if (!entries.length) {
    list.replaceChildren(h("p", { class: "muted" }, "No matches yet. Start one above — they are remembered in this browser."));
    return;
  }
  let data;
  try {
    data = await api("POST", "/api/my-matches", { body: { seats: entries.slice(-200) } });
  } catch (err) {
    if (gen === list.gen) list.replaceChildren(h("p", { class: "error" }, `Your matches could not be loaded: ${err.message}`));
    return;
  }
  if (gen !== list.gen) return;
  const matches = [...(data.matches || [])].sort((a, b) => String(b.created_at || "").localeCompare(String(a.created_at || "")));
  if (!matches.length) {
    list.replaceChildren(h("p", { class: "muted" }, "No matches yet."));
    return;
  }
  const ongoing = matches.filter((m) => !m.over);
  const finished = matches.filter((m) => m.over);
  const item = (m) => {
    const fmt = m.format === "first_to" ? `first to ${m.target}` : "running tally";
    const won = m.over ? (m.winner === m.seat ? "you won" : "you lost") : STATUS_WORDS[m.status] || m.status;
    return h(
      "li", { class: `match-item ${m.status}`, "data-match": m.match_id },
      h("a", { href: `/table/${m.match_id}`, "data-nav": "" }, `vs ${opponentName(m.opponent, m.seat === 1 ? 2 : 1)}`),
      h("span", { class: "muted" }, ` · ${fmt} · deal ${m.deal_number} · score ${describeScore(m)} · `),
      h("strong", {}, won),
    );
  };
  list.replaceChildren(
    h("h3", {}, `Ongoing (${ongoing.length})`),
    ongoing.length ? h("ul", { class: "matches" }, ongoing.map(item)) : h("p", { class: "muted" }, "None."),
    h("h3", {}, `Finished (${finished.length})`),
    finished.length ? h("ul", { class: "matches" }, finished.map(item)) : h("p", { class: "muted" }, "None."),
  );
}

/** Render the lobby into `main`; returns {close}. */
export function renderLobby(main, { go }) {
  document.title = "Gameweave — Conquian lobby";
  const fmt = formatChooser();
  const botSelect = h(
    "select", { id: "bot-select", "data-testid": "bot-select" },
    h("option", { value: "random" }, "Random — plays any legal move"),
    h("option", { value: "greedy", selected: true }, "Greedy — melds whatever it can"),
    h("option", { value: "search" }, "Search — thinks ahead"),
  );
  const inviteBox = h("div", { class: "invite", hidden: true });
  let busy = false;

  async function create(opponent) {
    if (busy) return;
    busy = true;
    try {
      const body = { opponent, ...fmt.read() };
      if (opponent === "bot") body.bot = botSelect.value;
      const res = await api("POST", "/api/matches", { body });
      saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent });
      // The new match belongs in "Your matches" at once (it is also where a bot match
      // shows up if the page stays here, e.g. the navigation is slow).
      fillMatches(list);
      if (opponent === "bot") {
        go(res.table_url || `/table/${res.match_id}`);
        return;
      }
      const url = new URL(res.invite_url, location.origin).href;
      const input = h("input", { type: "text", readonly: true, value: url, "data-testid": "invite-link", "aria-label": "Invite link", class: "invite-input" });
      input.addEventListener("focus", () => input.select());
      inviteBox.hidden = false;
      inviteBox.replaceChildren(
        h("p", {}, "Send this link to your friend. Whoever opens it first takes seat 2."),
        h("div", { class: "invite-row" }, input, h("button", { type: "button", class: "btn", onclick: () => copy(url) }, "Copy link")),
        h("p", {}, h("a", { class: "btn primary", href: res.table_url || `/table/${res.match_id}`, "data-nav": "", "data-testid": "go-to-table" }, "Go to your table")),
      );
      input.focus();
    } catch (err) {
      toast(`Could not start the match: ${err.message}`, "error");
    } finally {
      busy = false;
    }
  }

  async function copy(url) {
    try {
      await navigator.clipboard.writeText(url);
      toast("Invite link copied.");
    } catch {
      toast("Select the link and copy it (Ctrl+C).");
    }
  }

  const list = h("div", { class: "my-matches", "data-testid": "my-matches", "aria-live": "polite" }, h("p", { class: "muted" }, "Loading your matches…"));
  main.replaceChildren(
    h(
      "div", { class: "lobby" },
      h("section", { class: "panel hero" },
        h("h1", {}, "Conquian"),
        h("p", {}, "The two-player Mexican card game every rummy descends from. Meld eleven cards first: take the card your opponent lets go only if you can meld it at once, and force cards onto their melds."),
      ),
      h("section", { class: "panel" },
        h("h2", {}, "New match"),
        fmt,
        h("div", { class: "choice-group" },
          h("h3", {}, "Against the computer"),
          h("div", { class: "bot-row" },
            h("label", { for: "bot-select" }, "Bot"), botSelect,
            h("button", { type: "button", class: "btn primary", "data-testid": "new-match-bot", onclick: () => create("bot") }, "Play the computer")),
        ),
        h("div", { class: "choice-group" },
          h("h3", {}, "Against a friend"),
          h("button", { type: "button", class: "btn primary", "data-testid": "new-match-friend", onclick: () => create("friend") }, "Create a match and invite a friend"),
          inviteBox,
        ),
      ),
      h("section", { class: "panel" }, h("h2", {}, "Your matches"), list),
    ),
  );
  fillMatches(list);
  // Offer only the bots this server has.
  api("GET", "/api/bots").then((d) => {
    const have = new Set(d.bots || []);
    if (!have.size) return;
    for (const o of [...botSelect.options]) if (!have.has(o.value)) o.remove();
    for (const b of have) if (![...botSelect.options].some((o) => o.value === b)) botSelect.append(h("option", { value: b }, b));
  }).catch(() => {});
  return { close() {} };
}

// The lobby: choose the rules (a profile, RULES §V) and the match format it allows, play
// the computer or a friend, see your matches (remembered in this browser).  The last
// settings are remembered too (localStorage "gameweave.lobby").

import { api, forgetSeat, loadSeats, saveSeat } from "./api.js";
import { openHelp } from "./help.js";
import { h, toast } from "./ui.js";
import { opponentName, stakesLine } from "./words.js";

const STATUS_WORDS = {
  waiting_for_opponent: "waiting for your friend to join",
  your_turn: "your turn",
  their_turn: "their turn",
  deal_over: "deal over — next deal waiting",
  match_over: "match over",
};

const SETTINGS_KEY = "gameweave.lobby";
const TARGET_MAX = 99;

/** The profile list used until (or if) GET /api/profiles answers: the default one only. */
const FALLBACK_PROFILES = [{
  name: "gameweave", title: "Gameweave", summary: "no rearranging", rearranging: false, force_back: false,
  formats: ["first_to", "tally"], default_format: "first_to", default_target: 3, stake: null,
}];

const FORMAT_WORDS = {
  first_to: "First to",
  tally: "Running tally (no end)",
  stakes: "Stakes (no end): the loser of a deal pays the stake",
};

const TABLAS_WORDS = {
  double: "doubles the next stake",
  carry: "carries the stake into the next deal",
};

/** The remembered lobby settings ({rules, format, target, stake, tablas_stake, bot}) or {}. */
export function loadSettings() {
  try {
    const v = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

function saveSettings(s) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
  } catch {
    // private mode: nothing is remembered
  }
}

/**
 * Why "First to" text is not a valid target, in words, or null: a whole number from 1 to
 * `max` (the profile's max_target, 99; nothing is clamped or rounded silently).
 */
export function targetProblem(text, max = TARGET_MAX) {
  const t = String(text ?? "").trim();
  if (!t) return `Enter how many won deals win the match (a whole number from 1 to ${max}).`;
  if (!/^[0-9]+$/.test(t)) return `"${t}" is not a whole number: enter a number of won deals from 1 to ${max}.`;
  const n = Number(t);
  if (n < 1) return `A match needs at least 1 won deal: enter a number from 1 to ${max}.`;
  if (n > max) return `${n} won deals is more than the ${max} a match may need: enter a number from 1 to ${max}.`;
  return null;
}

/** The rules and format chooser; `.read()` -> {ok, body | problem}; `.settings()`. */
function rulesChooser(saved) {
  let profiles = FALLBACK_PROFILES;
  const rulesSelect = h("select", { id: "rules-select", "data-testid": "rules-select" });
  const summary = h("p", { class: "muted small rules-summary", id: "rules-summary", "data-testid": "rules-summary" });
  rulesSelect.setAttribute("aria-describedby", "rules-summary");
  const target = h("input", {
    type: "text", id: "target", value: String(saved.target ?? 3), inputmode: "numeric", size: 3,
    "aria-label": "Won deals needed", "data-testid": "target", "aria-describedby": "target-problem",
  });
  const problem = h("p", { class: "error small", id: "target-problem", "data-testid": "target-problem", role: "alert", hidden: true });
  const stake = h("input", { type: "text", id: "stake", inputmode: "numeric", size: 3, value: String(saved.stake ?? 1), "aria-label": "Stake", "data-testid": "stake" });
  const tablas = h("select", { id: "tablas-stake", "data-testid": "tablas-stake", "aria-label": "After tablas" });
  const radios = {};
  const labels = {};
  for (const f of ["first_to", "tally", "stakes"]) {
    radios[f] = h("input", { type: "radio", name: "format", value: f, id: `fmt-${f}`, "data-testid": `format-${f}` });
  }
  labels.first_to = h("label", { for: "fmt-first_to", class: "radio" }, radios.first_to, " First to ", target, " won deals");
  labels.tally = h("label", { for: "fmt-tally", class: "radio" }, radios.tally, " ", FORMAT_WORDS.tally);
  const stakeRow = h("div", { class: "stake-row" },
    h("label", { for: "stake" }, "Stake "), stake, h("label", { for: "tablas-stake" }, " after tablas "), tablas);
  labels.stakes = h("div", { class: "stakes-choice" },
    h("label", { for: "fmt-stakes", class: "radio" }, radios.stakes, h("span", {}, FORMAT_WORDS.stakes)), stakeRow);

  const profile = () => profiles.find((p) => p.name === rulesSelect.value) || profiles[0];
  const format = () => Object.keys(radios).find((f) => radios[f].checked && !labels[f].hidden) || profile().default_format;

  function sync() {
    const p = profile();
    summary.textContent = p.summary ? `${p.title}: ${p.summary}.` : "";
    for (const f of Object.keys(radios)) labels[f].hidden = !(p.formats || []).includes(f);
    if (!Object.keys(radios).some((f) => radios[f].checked && !labels[f].hidden)) {
      const f = (p.formats || []).includes(p.default_format) ? p.default_format : (p.formats || ["first_to"])[0];
      if (radios[f]) radios[f].checked = true;
    }
    target.disabled = !radios.first_to.checked;
    const st = p.stake;
    stakeRow.hidden = !st || !radios.stakes.checked;
    if (st) {
      const keep = tablas.value || saved.tablas_stake || st.default_tablas_stake;
      tablas.replaceChildren(...(st.tablas_stake || []).map((t) => h("option", { value: t, selected: t === keep }, TABLAS_WORDS[t] || t)));
    }
    problem.hidden = true;
  }

  function setProfiles(list, keep) {
    profiles = list && list.length ? list : FALLBACK_PROFILES;
    const want = keep || rulesSelect.value || saved.rules;
    rulesSelect.replaceChildren(...profiles.map((p) => h("option", { value: p.name }, `${p.title || p.name} — ${p.summary || ""}`)));
    rulesSelect.value = profiles.some((p) => p.name === want) ? want : profiles[0].name;
    // the remembered format if it is this profile's, else the profile's default (sync)
    for (const r of Object.values(radios)) r.checked = false;
    const f = saved.rules === rulesSelect.value ? saved.format : null;
    if (f && radios[f] && (profile().formats || []).includes(f)) radios[f].checked = true;
    sync();
  }
  setProfiles(FALLBACK_PROFILES, saved.rules);
  rulesSelect.addEventListener("change", () => {
    for (const r of Object.values(radios)) r.checked = false;
    sync();
  });
  for (const r of Object.values(radios)) r.addEventListener("change", sync);
  target.addEventListener("input", () => { problem.hidden = true; });

  const fs = h(
    "fieldset", { class: "format" },
    h("legend", {}, "Rules and match format"),
    h("div", { class: "rules-row" }, h("label", { for: "rules-select" }, "Rules"), rulesSelect),
    summary,
    labels.first_to, labels.tally, labels.stakes, problem,
  );
  fs.setProfiles = setProfiles;
  fs.profile = profile;
  /** The POST /api/matches fields, or the reason in words they are not valid. */
  fs.read = () => {
    const p = profile();
    const f = format();
    const body = { rules: p.name, format: f };
    if (f === "first_to") {
      const why = targetProblem(target.value, p.max_target || TARGET_MAX);
      if (why) return { ok: false, problem: why, field: target };
      body.target = Number(target.value.trim());
    }
    if (f === "stakes" && p.stake) {
      const t = String(stake.value).trim();
      const max = p.stake.max || 99;
      if (!/^[0-9]+$/.test(t) || Number(t) < 1 || Number(t) > max) {
        return { ok: false, problem: `The stake must be a whole number from 1 to ${max}.`, field: stake };
      }
      body.stake = Number(t);
      body.tablas_stake = tablas.value || p.stake.default_tablas_stake;
    }
    return { ok: true, body };
  };
  fs.showProblem = (r) => {
    problem.textContent = r.problem;
    problem.hidden = false;
    r.field.focus();
  };
  fs.settings = () => ({
    rules: rulesSelect.value, format: format(), target: target.value.trim(), stake: stake.value.trim(),
    tablas_stake: tablas.value,
  });
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

/** "1 Dec 2026, 13:05" in this browser's locale, or "" for a missing date. */
export function shortDate(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(undefined, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

function formatWords(m) {
  if (m.format === "first_to") return `first to ${m.target}`;
  if (m.format === "stakes") return "stakes";
  return "running tally";
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
    const won = m.over ? (m.winner === m.seat ? "you won" : "you lost") : STATUS_WORDS[m.status] || m.status;
    const opp = opponentName(m.opponent, m.seat === 1 ? 2 : 1);
    const when = shortDate(m.created_at);
    const balance = m.stakes ? stakesLine(m.stakes, m.seat, opp) : `score ${describeScore(m)}`;
    const remove = h("button", {
      type: "button", class: "btn small remove", "data-testid": "remove-match", "aria-label": `Remove the match against ${opp}${when ? ` of ${when}` : ""} from this browser`,
      onclick: () => {
        forgetSeat(m.match_id);
        toast(`The match against ${opp} is no longer listed in this browser.`);
        fillMatches(list);
      },
    }, "Remove");
    return h(
      "li", { class: `match-item ${m.status}${m.over ? " over" : ""}`, "data-match": m.match_id },
      h("div", { class: "match-main" },
        h("a", { href: `/table/${m.match_id}`, "data-nav": "" }, `vs ${opp}`),
        " ", h("strong", { class: "match-state" }, won),
        h("div", { class: "muted small" },
          when ? h("time", { datetime: m.created_at }, when) : "", when ? " · " : "",
          `${m.rules || "gameweave"} · ${formatWords(m)} · deal ${m.deal_number} · ${balance}`)),
      remove,
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
  const saved = loadSettings();
  const fmt = rulesChooser(saved);
  const botSelect = h(
    "select", { id: "bot-select", "data-testid": "bot-select" },
    h("option", { value: "random" }, "Random — plays any legal move"),
    h("option", { value: "greedy" }, "Greedy — melds whatever it can"),
    h("option", { value: "search" }, "Search — thinks ahead"),
  );
  botSelect.value = ["random", "greedy", "search"].includes(saved.bot) ? saved.bot : "greedy";
  const inviteBox = h("div", { class: "invite", hidden: true });
  let busy = false;

  async function create(opponent) {
    if (busy) return;
    const read = fmt.read();
    if (!read.ok) {
      fmt.showProblem(read);
      return;
    }
    saveSettings({ ...fmt.settings(), bot: botSelect.value });
    busy = true;
    try {
      const body = { opponent, ...read.body };
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

  const helpBtn = h("button", { type: "button", class: "btn", "data-testid": "open-help", onclick: (ev) => openHelp(fmt.profile().name, ev.currentTarget) }, "How to play");
  const list = h("div", { class: "my-matches", "data-testid": "my-matches", "aria-live": "polite" }, h("p", { class: "muted" }, "Loading your matches…"));
  main.replaceChildren(
    h(
      "div", { class: "lobby" },
      h("section", { class: "panel hero" },
        h("div", { class: "hero-row" }, h("h1", {}, "Conquian"), helpBtn),
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
  // The profiles this server offers, each with the formats it allows (GET /api/profiles).
  api("GET", "/api/profiles").then((d) => fmt.setProfiles(d.profiles || [], saved.rules)).catch(() => {});
  // Offer only the bots this server has.
  api("GET", "/api/bots").then((d) => {
    const have = new Set(d.bots || []);
    if (!have.size) return;
    for (const o of [...botSelect.options]) if (!have.has(o.value)) o.remove();
    for (const b of have) if (![...botSelect.options].some((o) => o.value === b)) botSelect.append(h("option", { value: b }, b));
    if (have.has(saved.bot)) botSelect.value = saved.bot;
  }).catch(() => {});
  return { close() {} };
}

// The page's words (issue 10): one catalog per language, served by GET /api/i18n/{lang}
// from the gettext files (src/gameweave/i18n/locale/*/LC_MESSAGES/gameweave.po).  Every
// string a person reads on the pages is t(key, params) or an element's data-i18n key;
// tests/browser/test_i18n_pages.py fails on a literal that bypasses the catalog.

export const LANGUAGES = ["es", "en"];
const LANG_KEY = "gameweave.lang";
const PARAM = /\{([a-z_][a-z0-9_]*)\}/g;

let current = "en";
let catalog = {};

/** The language the page speaks now ("es" | "en"). */
export function lang() {
  return current;
}

/** The language to start in: the one chosen with the switch (remembered in localStorage),
 * else the first of the browser's languages we have, else English. */
export function preferredLanguage() {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (LANGUAGES.includes(saved)) return saved;
  } catch {
    // private mode: nothing remembered
  }
  for (const l of navigator.languages || [navigator.language || ""]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/**
 * The message `key` with its `{name}` parameters filled from `params`.  A key missing
 * from the catalog shows as the key itself (visible, never silently English); a
 * parameter left out stays as `{name}`.
 */
export function t(key, params = {}) {
  const text = Object.prototype.hasOwnProperty.call(catalog, key) ? catalog[key] : key;
  return text.replace(PARAM, (m, name) => (params && name in params ? String(params[name]) : m));
}

/** A count's message: `key.one` for 1, else `key.other`, with `{n}` set to `n`. */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { ...params, n });
}

/** Whether the catalog has `key` (e.g. an `error.<code>` the server may add later). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(catalog, key);
}

/** The message of a server error ({code, message, params}, PROTOCOL: errors travel as a
 * code plus parameters): `error.<code>` in the page's language, else `fallbackKey`. */
export function errorText(err, fallbackKey = "page.error.refused") {
  const code = err && err.code;
  if (code && has(`error.${code}`)) return t(`error.${code}`, (err && err.params) || {});
  if (code && has(`page.error.${code}`)) return t(`page.error.${code}`, (err && err.params) || {});
  return t(fallbackKey, { code: code || "" });
}

/** The catalog's keys under `prefix` ("phrase." -> ["phrase.hello", ...]), in catalog order. */
export function keysWithPrefix(prefix) {
  return Object.keys(catalog).filter((k) => k.startsWith(prefix));
}

/** Fill every [data-i18n] element's text (and [data-i18n-label] aria-label) under `root`. */
export function applyI18n(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
}

/** Load `language`'s catalog (GET /api/i18n/{lang}), set <html lang> and the static words. */
export async function loadLanguage(language) {
  const l = LANGUAGES.includes(language) ? language : "en";
  const res = await fetch(`/api/i18n/${l}`, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`GET /api/i18n/${l}: ${res.status}`);
  const data = await res.json();
  catalog = data.messages || {};
  current = data.lang || l;
  document.documentElement.lang = current;
  document.documentElement.dataset.catalog = current; // tests wait for this
  applyI18n();
  return current;
}

/** Choose `language` with the switch: remembered, loaded, then `rerender()`. */
export async function switchLanguage(language, rerender) {
  try {
    localStorage.setItem(LANG_KEY, language);
  } catch {
    // private mode
  }
  await loadLanguage(language);
  if (rerender) rerender();
}

/** The `lang-switch` select (options es, en), bound to switchLanguage. */
export function setupLangSwitch(select, rerender) {
  if (!select) return;
  select.replaceChildren(...LANGUAGES.map((l) => {
    const o = document.createElement("option");
    o.value = l;
    o.textContent = t(`page.lang.${l}`);
    return o;
  }));
  select.value = current;
  select.addEventListener("change", () => {
    switchLanguage(select.value, () => {
      for (const o of select.options) o.textContent = t(`page.lang.${o.value}`);
      if (rerender) rerender();
    });
  });
}

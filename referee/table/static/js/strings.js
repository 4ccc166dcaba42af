// The page's words: the catalog /table/strings/<lang>.json (the `table` gettext domain and
// the API's game terms), the language chosen from the browser, switchable, remembered.

export const LANGUAGES = ["en", "my"];
const REMEMBERED = "referee.table.lang";
let words = {};
let current = "en";

/** The language to start in: the one chosen before, else the browser's first we speak. */
export function initialLanguage() {
  const kept = localStorage.getItem(REMEMBERED);
  if (LANGUAGES.includes(kept)) return kept;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** Load the catalog of lang and make it the page's language (remembered if chosen). */
export async function useLanguage(lang, remember = false) {
  const answer = await fetch(new URL(`strings/${lang}.json`, document.baseURI));
  if (!answer.ok) throw new Error(`strings ${lang}: ${answer.status}`);
  words = (await answer.json()).strings;
  current = lang;
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(REMEMBERED, lang);
}

export function language() { return current; }

/** The text of id with {name} placeholders filled in (values go in as text). */
export function t(id, params = {}) {
  const text = words[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalog has id (a term some builds lack). */
export function has(id) { return id in words; }

/** A glossary word: the term of kind and id in game's glossary, else the shared one ("common"),
 *  the same word the API's verdicts use (referee/rulebook/glossary/*.yaml); null if neither. */
export function term(game, kind, id) {
  for (const where of [game, "common"]) {
    const key = `glossary.${where}.${kind}.${id}`;
    if (key in words) return words[key];
  }
  return null;
}

/** A card's full name, as the API's verdicts name it ("the 10 of hearts", "ဟတ် 10"). */
export function cardName(game, card) {
  const code = card === "hidden" || card === null || card === undefined ? "unknown" : String(card);
  const known = words[`card.${game}.${code}`];
  if (known !== undefined) return known;
  if (game === "gnoming" && /^-?\d+$/.test(code)) return t("term.card.gnoming", {value: code});
  return code;
}

/** A suit as a verdict names it standing alone ("hearts", "ဟတ် ဝတ်စုံ"). */
export function suitName(suit) { return t(`suit_name.${suit}`); }

/** The name of a game ("All Fours") or a mode ("table mode"): the glossary's word. */
export function gameName(game) { return term(null, "game", game) ?? game; }
export function modeName(mode) { return term(null, "mode", mode) ?? mode; }

const upper = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** An action or event type's name in game, as on a button ("Income", "ဝင်ငွေ"): the
 *  glossary's action (or Spy's event) word; else the page's own word for what is no game
 *  action (a rollback, a hand scored); else the type itself. */
export function actionName(game, type) {
  const word = term(game, "action", type) ?? term(game, "event", type);
  if (word !== null) return upper(word);
  return has(`table.action.${type}`) ? t(`table.action.${type}`) : type.replaceAll("_", " ");
}

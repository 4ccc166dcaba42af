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

/** A card's full name, as the API's verdicts name it ("the 10 of hearts", "ဟတ် 10"). */
export function cardName(game, card) {
  if (card === "unknown" || card === "hidden" || card === null) return t("term.unknown");
  if (game === "all-fours") {
    const rank = card.slice(0, -1), suit = card.slice(-1);
    const rankText = "JQKA".includes(rank) ? t(`term.rank.${rank}`) : rank;
    return t("term.card.allfours", {rank: rankText, suit: t(`term.suit.${suit}`)});
  }
  if (game === "coup") return t(`term.character.${card}`);
  if (game === "spy") return t(`term.spy.${card}`);
  if (card === "M" || card === "H") return t(`term.gnoming.${card}`);
  return t("term.card.gnoming", {value: card});
}

/** An action type's name ("Income", "Play a card"). */
export function actionName(type) {
  return has(`table.action.${type}`) ? t(`table.action.${type}`) : type.replaceAll("_", " ");
}

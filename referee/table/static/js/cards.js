// Cards drawn as cards: All Fours with rank and suit symbol (never colour alone), Coup's
// characters, Spy's base cards, Gnoming's values. Names are the glossary's words, as the API's verdicts say them.
import {h} from "./dom.js";
import {cardName, term} from "./strings.js";

export const SUIT_SYMBOLS = {C: "♣", D: "♦", H: "♥", S: "♠"};

/** The short face of a card: "10♥", "Duchess", "−2". */
export function face(game, card) {
  if (card === null || card === "unknown" || card === "hidden") return "?";
  if (game === "all-fours") return card.slice(0, -1) + SUIT_SYMBOLS[card.slice(-1)];
  if (game === "coup") return term("coup", "character", card) ?? card;
  if (game === "spy") return term("spy", "card", card) ?? card;
  if (card === "M" || card === "H") return term("gnoming", "card", card);
  return card.replace("-", "−");
}

function suitClass(game, card) {
  if (game !== "all-fours" || !card || card === "unknown") return "";
  return "DH".includes(card.slice(-1)) ? " red" : " black";
}

/** A card as an image for readers (role img, its full name as label). */
export function card(game, code, extra = "") {
  const down = code === null || code === "unknown" || code === "hidden";
  return h("span", {class: `card${down ? " down" : ""}${suitClass(game, code)} ${extra}`,
    role: "img", "aria-label": cardName(game, code)}, face(game, code));
}

/** A card as a button (pickers): the face drawn, its full name read out (no aria-label, so the
 *  name a reader hears holds the words it is called by); onpick(code). */
export function cardButton(game, code, onpick, {disabled = false, key, pressed} = {}) {
  return h("button", {type: "button", class: `card pick${suitClass(game, code)}`, disabled,
    "data-key": key || `card-${code}`, "aria-pressed": pressed === undefined ? null : String(pressed),
    onclick: () => onpick(code)},
  h("span", {"aria-hidden": "true"}, face(game, code)), h("span", {class: "sr"}, cardName(game, code)));
}

/** The 52 cards of an All Fours pack by suit, as rows of buttons: enabled(code) says which may
 *  be tapped (those the service lists, or those not yet on a sheet). */
export function packPicker(onpick, enabled, label) {
  const ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  return h("div", {class: "pack", role: "group", "aria-label": label},
    ...["C", "D", "H", "S"].map((suit) => h("div", {class: "pack-row"},
      ...ranks.map((rank) => cardButton("all-fours", rank + suit, onpick,
        {disabled: !enabled(rank + suit)})))));
}

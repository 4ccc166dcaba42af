// What every screen shares: the header (title, language switch) and the status line.
import {h, replace} from "./dom.js";
import {setLanguage} from "./api.js";
import {LANGUAGES, initialLanguage, language, t, useLanguage} from "./strings.js";

/** Start a page: load the words, draw the header, then call render() now and, whenever the
 *  language changes, relang() (default render()): it must read again in the new language
 *  whatever server sentence it shows. The status line (an announcement in the old language)
 *  is cleared on a switch. Returns {status(text)} for short announcements (aria-live). */
export async function startPage(titleId, render, relang = render) {
  const lang = initialLanguage();
  await useLanguage(lang);
  setLanguage(lang);
  const header = document.getElementById("bar");
  const drawHeader = () => {
    document.title = t(titleId);
    replace(header, [
      h("h1", {}, t(titleId)),
      h("label", {class: "lang"}, t("table.language"), " ",
        h("select", {"data-key": "lang", onchange: async (e) => {
          await useLanguage(e.target.value, true);
          setLanguage(e.target.value);
          line.textContent = "";
          drawHeader();
          await relang();
        }}, ...LANGUAGES.map((code) => h("option", {value: code, selected: code === language()},
          t(`table.language.${code}`))))),
    ]);
  };
  const line = document.getElementById("status");
  drawHeader();
  render();
  return {status(text) { line.textContent = text; }};
}

/** A problem answer shown as the service gave it: detail, then each field's message. */
export function problemBlock(problem) {
  const body = problem.problem || {};
  return h("div", {class: "problem", role: "alert"},
    h("p", {}, body.detail || body.title || problem.message),
    body.errors && body.errors.length ? h("ul", {},
      ...body.errors.map((e) => h("li", {}, e.rule ? `${e.rule} · ` : "",
        e.field ? `${e.field}: ` : "", e.message))) : null);
}

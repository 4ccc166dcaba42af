// The table page (/table/): the URL fragment says whose screen this is.
//   #match=<id>&token=<seat token>   a seat's screen (the link its QR code holds)
//   #match=<id>&code=<invite code>&seat=<player>  a seat claiming its place with an invite code
//   (nothing, or #host=<id>)          the host: choose a game, create the match, run it
// Tokens never go in a URL the server sees: the fragment stays in the browser, and the page
// moves them to sessionStorage and clears the fragment at once.
import {startPage} from "./page.js";
import {h, replace} from "./dom.js";
import {t} from "./strings.js";

async function main() {
  const page = await startPage("table.title", () => replace(document.getElementById("app"),
    h("p", {}, t("table.title"))));
  page.status("");
}

main();

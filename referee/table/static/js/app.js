// The table page (/table/): the URL fragment says whose screen this is.
//   #match=<id>&code=<invite code>            a seat's link (its QR code): the page trades the
//                                              code for the seat's token (POST …/claim)
//   #match=<id>&token=<seat token>            a seat's link after the host re-issued its token
//   #host=<id>                                 the host's screen of a match it created here
//   (nothing)                                  the host chooses a game and creates a match
// Tokens never go in a URL the server sees: a fragment stays in the browser, and the page moves
// the token to sessionStorage and takes it out of the address bar at once.
import * as api from "./api.js";
import {h, replace} from "./dom.js";
import {startHost, startSetup} from "./host.js";
import {problemBlock, startPage} from "./page.js";
import {startSeat} from "./seat.js";
import {t} from "./strings.js";

const root = document.getElementById("app");
let screen = null;

async function route(page) {
  if (screen && screen.stop) screen.stop();
  screen = null;
  const found = new URLSearchParams(location.hash.slice(1));
  const match = found.get("match"), host = found.get("host");
  try {
    if (match) {
      let token = found.get("token");
      if (!token && found.get("code")) token = (await api.claim(match, found.get("code"))).token;
      if (token) {
        sessionStorage.setItem(`referee.table.seat.${match}`, token);
        history.replaceState(null, "", `#match=${encodeURIComponent(match)}`);
      }
      token = sessionStorage.getItem(`referee.table.seat.${match}`);
      if (!token) throw new Error(t("table.no_token"));
      screen = await startSeat({id: match, token, root, page});
    } else if (host) {
      const kept = JSON.parse(sessionStorage.getItem(`referee.table.host.${host}`) || "null");
      if (!kept) throw new Error(t("table.no_token"));
      screen = await startHost({id: host, kept, root, page});
    } else {
      screen = await startSetup({root, page});
    }
  } catch (problem) {
    replace(root, [problem.problem ? problemBlock(problem) : h("p", {class: "problem", role: "alert"},
      problem.message), h("p", {}, h("a", {href: "./"}, t("table.start_over")))]);
  }
}

async function main() {
  const page = await startPage("table.title", () => screen && screen.render && screen.render(),
    () => screen && (screen.relang ? screen.relang() : screen.render && screen.render()));
  window.addEventListener("hashchange", () => route(page));
  await route(page);
}

main();

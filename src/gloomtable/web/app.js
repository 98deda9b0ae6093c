// The page's entry: the lobby at "/", a table at "/table/<id>" (a seat's
// token rides in the fragment: "#token=..."; without one you spectate).

import { loadCatalog } from "./i18n.js";
import { chooseLanguage, mountLanguageSwitch } from "./lang_switch.js";
import { LeaderboardPage, ProfilePage } from "./account.js";
import { Lobby } from "./lobby.js";
import { TablePage } from "./table.js";

// An invite link of the old form ("?token=...") still seats its holder, but the token
// moves into the fragment at once: a query string reaches the server's logs and any
// proxy, a fragment never leaves the browser.
function seatToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  const query = new URLSearchParams(location.search);
  const fromQuery = query.get("token");
  if (fromQuery === null) return fromHash;
  query.delete("token");
  const rest = query.toString();
  const token = fromHash || fromQuery;
  history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}` +
    `#token=${encodeURIComponent(token)}`);
  return token;
}

async function main() {
  const { lang, languages } = await chooseLanguage();
  await loadCatalog(lang);
  mountLanguageSwitch(lang, languages);
  const root = document.getElementById("app");
  const m = location.pathname.match(/^\/table\/([A-Za-z0-9_-]{1,64})\/?$/);
  const player = location.pathname.match(/^\/players\/([^/]{1,96})\/?$/);
  const board = location.pathname.match(/^\/leaderboard\/([a-z_]{1,40})\/?$/);
  if (player) {
    await new ProfilePage(root, decodeURIComponent(player[1])).start();
  } else if (board) {
    await new LeaderboardPage(root, board[1]).start();
  } else if (m) {
    const token = seatToken();
    const page = new TablePage(root, m[1], token);
    window.gloomtablePage = page; // for tests and curious players
    page.start();
  } else {
    const lobby = new Lobby(root);
    window.gloomtableLobby = lobby;
    await lobby.start();
  }
}

main();

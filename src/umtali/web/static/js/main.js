// The page's entry: the path says which page this is. "/" is the home page and
// "/seat/{secret}" a seat's table; the secret is read from the path and sent only to
// this same server.

import { api } from "./api.js";
import { GinPartyPage } from "./gin_party.js";
import { GinTablePage } from "./gin_table.js";
import { showHome } from "./home.js";
import { prefs } from "./prefs.js";
import { TablePage } from "./table.js";

function seatSecret(path) {
  const match = /^\/seat\/([^/]+)\/?$/.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null; // a path cut short inside an escape: no seat
  }
}

function wireHeader(table) {
  const fourColour = document.getElementById("four-colour");
  fourColour.checked = prefs.fourColour;
  document.body.classList.toggle("four-colour", fourColour.checked);
  fourColour.addEventListener("change", () => {
    prefs.fourColour = fourColour.checked;
    document.body.classList.toggle("four-colour", fourColour.checked);
    table?.setFourColour(fourColour.checked);
  });
  const dialog = document.getElementById("shortcuts");
  const open = () => {
    if (!dialog.open) dialog.showModal();
  };
  document.getElementById("show-shortcuts").addEventListener("click", open);
  document.addEventListener("keydown", (event) => {
    if (event.key === "?" && !event.target.closest?.("input, textarea, select")) {
      event.preventDefault();
      open();
    }
  });
}

// The seat's first state says which game it is, and so which table draws it. When it
// cannot be read, Umtali's table starts, and says why (or that the link is no seat).
async function openSeat(secret) {
  let first = null;
  try {
    first = await api.state(secret);
  } catch {
    first = null;
  }
  if (first?.game === "gin") {
    // Three- and four-hand Gin Rummy: the same table, with the party beside it.
    const Page = first.party ? GinPartyPage : GinTablePage;
    const table = new Page(secret, { fourColour: prefs.fourColour });
    wireHeader(table);
    table.start(first);
    return;
  }
  const table = new TablePage(secret);
  wireHeader(table);
  table.start();
}

function main() {
  const path = window.location.pathname;
  const secret = seatSecret(path);
  if (secret !== null) {
    openSeat(secret);
  } else {
    wireHeader(null);
    if (path !== "/") window.history.replaceState(null, "", "/");
    showHome();
  }
}

main();

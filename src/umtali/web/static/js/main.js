// The page's entry: the path says which page this is. "/" is the home page and
// "/seat/{secret}" a seat's table; the secret is read from the path and sent only to
// this same server.
//
// A seat's first state says which game it is, and so which table draws it: the game's
// own folder, /static/games/<game>/, holds its table's module (table.js, which exports
// seatPage() and, if it has one, its styleSheet) and markup (table.html). The seat page
// loads them by that name; it names no game.

import { ApiError, api } from "./api.js";
import { byId, loadStyleSheet } from "./dom.js";
import { showHome } from "./home.js";
import { SPEEDS, motionSpeed } from "./motion.js";
import { prefs } from "./prefs.js";
import { showNoSeat } from "./seat_page.js";
import { setSound, watchForGesture } from "./sound.js";

const RETRY_MS = [500, 15000]; // the first and the longest wait before reading the seat again

function seatSecret(path) {
  const match = /^\/seat\/([^/]+)\/?$/.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null; // a path cut short inside an escape: no seat
  }
}

/** The gear button of a narrow window's bar: it opens and closes the settings' panel;
 * Escape, or a click elsewhere, closes it and gives the focus back to the gear. */
function wireSettings() {
  const settings = byId("settings");
  const toggle = byId("settings-toggle");
  const show = (open, { focus = false } = {}) => {
    settings.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (focus) toggle.focus();
  };
  toggle.addEventListener("click", () => show(!settings.classList.contains("open")));
  settings.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && settings.classList.contains("open")) {
      event.preventDefault();
      event.stopPropagation();
      show(false, { focus: true });
    }
  });
  document.addEventListener("click", (event) => {
    if (settings.classList.contains("open") && !settings.contains(event.target)) show(false);
  });
  // The list of keys opens as a dialog of its own: the panel closes behind it.
  byId("show-shortcuts").addEventListener("click", () => show(false));
}

function wireHeader(table) {
  wireSettings();
  const fourColour = document.getElementById("four-colour");
  fourColour.checked = prefs.fourColour;
  document.body.classList.toggle("four-colour", fourColour.checked);
  fourColour.addEventListener("change", () => {
    prefs.fourColour = fourColour.checked;
    document.body.classList.toggle("four-colour", fourColour.checked);
    table?.setFourColour(fourColour.checked);
  });
  const sound = document.getElementById("sound");
  sound.checked = prefs.sound;
  sound.addEventListener("change", () => setSound(sound.checked));
  watchForGesture();
  // How fast the cards move (motion.js): the speed in use, until the player chooses one.
  const motion = document.getElementById("motion");
  motion.replaceChildren(...SPEEDS.map(([value, name]) => new Option(name, value)));
  motion.value = motionSpeed();
  document.body.dataset.motion = motion.value;
  motion.addEventListener("change", () => {
    prefs.motion = motion.value;
    document.body.dataset.motion = motion.value;
    table?.motion?.finish();
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

/** The table of `game`: its module, its markup put into the page (its keys joining the
 * list of keys) and its style sheet applied. */
async function loadTable(game) {
  const folder = `/static/games/${encodeURIComponent(game)}`;
  const table = await import(`${folder}/table.js`);
  const response = await fetch(`${folder}/table.html`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`its table's markup answered ${response.status}`);
  const markup = document.createRange().createContextualFragment(await response.text());
  for (const keys of markup.querySelectorAll("template[data-keys]")) {
    byId("shortcut-keys").lastElementChild.before(keys.content);
    keys.remove();
  }
  byId("seat-waiting").before(markup);
  if (table.styleSheet) await loadStyleSheet(table.styleSheet);
  return table;
}

/** Open the seat: read its first state (again and again while the server cannot be
 * reached), then start its game's table with it. */
async function openSeat(secret, wait = RETRY_MS[0]) {
  let first;
  try {
    first = await api.state(secret);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      showNoSeat(error.message);
      return;
    }
    byId("seat-waiting").hidden = false;
    window.setTimeout(() => openSeat(secret, Math.min(wait * 2, RETRY_MS[1])), wait);
    return;
  }
  byId("seat-waiting").hidden = true;
  let table;
  try {
    table = (await loadTable(first.game)).seatPage(secret, first, { fourColour: prefs.fourColour });
  } catch (error) {
    byId("seat-waiting").replaceChildren(`This page cannot show a game of ${first.game}: ${error.message}.`);
    byId("seat-waiting").hidden = false;
    return;
  }
  wireHeader(table);
  table.start(first);
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

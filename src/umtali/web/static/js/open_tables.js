// The home page's "Open tables" panel (docs/WEB.md, "Open tables"): the tables where a
// player waits for anyone to sit down, read again every few seconds, a "Sit down" button
// for each, and "Open a table" with the game, rules and length the server offers
// (GET /api/games-offered). The player's name is the home page's "Your name" (prefs.name),
// checked by the server. A table this browser opened (prefs.js, umtali.opened) is listed
// with a link back to its seat instead of "Sit down"; a sit sends the secrets of the
// seats this browser holds ("My games"), so that the server refuses the opener a seat
// across from himself even where this browser forgot the table. Nothing here names a game.

import { api } from "./api.js";
import { byId, el, loadStyleSheet } from "./dom.js";
import { openedTables, prefs, recentGames, rememberOpened } from "./prefs.js";

const REFRESH_MS = 5000; // how often the list is read again while the page is shown

let offered = [];
let timer = null;

/** The name typed in the home page's "Your name", or null (the field is then focused). */
function nameGiven() {
  const input = byId("your-name");
  const name = (input?.value ?? prefs.name).trim();
  if (!name) {
    showError("Type your name first, under \"Your name\": the other player sees it at the table.");
    input?.focus();
    return null;
  }
  prefs.name = name;
  return name;
}

function showError(text) {
  byId("open-tables-error").textContent = text;
}

/** The seat's path of a new link. */
const seatPath = (created) => `/seat/${encodeURIComponent(created.seats[0].secret)}`;

/** The secrets of the seats this browser holds (the paths of "My games", /seat/{secret}). */
function heldSeats() {
  return recentGames()
    .map((item) => {
      try {
        return decodeURIComponent(item.path.slice("/seat/".length).replace(/\/$/, ""));
      } catch {
        return "";
      }
    })
    .filter((secret) => secret.length > 0)
    .slice(0, 20);
}

/** "since 14:05" in the reader's own time. */
function since(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : `since ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
}

async function sitDown(table, button) {
  const name = nameGiven();
  if (name === null) return;
  button.disabled = true;
  try {
    window.location.assign(seatPath(await api.sitDown(table.id, name, heldSeats())));
  } catch (error) {
    showError(`You could not sit down: ${error.message}.`);
    button.disabled = false;
    refresh();
  }
}

function render(tables) {
  const list = byId("open-tables-list");
  const opened = openedTables();
  list.replaceChildren(
    ...tables.map((table) => {
      const own = opened.find((item) => item.id === table.id);
      let button;
      if (own) {
        // His own table: he waits there for someone else, and goes back to it.
        button = el("a", { className: "button", text: "Your table", attrs: { href: own.path, "aria-label": `Your table, ${table.game_title}: back to your seat` } });
      } else {
        button = el("button", {
          className: "primary",
          text: "Sit down",
          attrs: { type: "button", "aria-label": `Sit down with ${table.waiting}, ${table.game_title}` },
        });
        button.addEventListener("click", () => sitDown(table, button));
      }
      return el(
        "li",
        { className: "open-table" },
        el(
          "span",
          { className: "open-table-what" },
          el("strong", { text: table.game_title }),
          ` · ${table.rules_title} · ${table.kind_title}`,
        ),
        el("span", { className: "open-table-who", text: `${table.waiting} waits ${since(table.since)}` }),
        button,
      );
    }),
  );
  byId("open-tables-empty").hidden = tables.length > 0;
}

async function refresh() {
  window.clearTimeout(timer);
  try {
    render((await api.openTables()).tables);
  } catch {
    // the server cannot be reached just now: the list stays as it was, read again soon
  }
  timer = window.setTimeout(refresh, REFRESH_MS);
}

function fill(select, values, chosen, title = (value) => value) {
  select.replaceChildren(...values.map((value) => el("option", { text: title(value), attrs: { value, selected: value === chosen } })));
}

const titled = (name) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, " ");

function fillChoices() {
  const game = offered.find((item) => item.game === byId("open-game").value) ?? offered[0];
  if (!game) return;
  fill(byId("open-rules"), game.rules, game.default_rules, titled);
  fill(byId("open-kind"), game.kinds, game.kinds[0], titled);
}

async function openTable(event) {
  event.preventDefault();
  const name = nameGiven();
  if (name === null) return;
  const submit = byId("open-table-submit");
  submit.disabled = true;
  try {
    const created = await api.openTable({
      name,
      game: byId("open-game").value,
      rules: byId("open-rules").value,
      kind: byId("open-kind").value,
    });
    rememberOpened(created.game_id, seatPath(created));
    window.location.assign(seatPath(created));
  } catch (error) {
    showError(`The table was not opened: ${error.message}.`);
    submit.disabled = false;
  }
}

async function start() {
  if (window.location.pathname !== "/" || !byId("open-tables-slot")) return;
  loadStyleSheet("/static/css/open_tables.css");
  byId("your-name")?.addEventListener("input", () => showError(""));
  try {
    offered = (await api.gamesOffered()).games.filter((game) => game.seat_counts.includes(2));
  } catch {
    offered = [];
  }
  fill(byId("open-game"), offered.map((game) => game.game), offered[0]?.game, (name) => offered.find((game) => game.game === name)?.title ?? name);
  fillChoices();
  byId("open-game").addEventListener("change", fillChoices);
  byId("open-table-form").addEventListener("submit", openTable);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
    else window.clearTimeout(timer);
  });
  refresh();
}

start();

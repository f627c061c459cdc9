// The home page: a new game of Umtali or Gin Rummy against the computer, an invitation
// for a friend, the games to resume, and the way to the learning pages. Which games,
// levels and rules presets there are is the server's to say (GET /api/games-offered).

import { api, isMissingEndpoint } from "./api.js";
import { keepHotSeat } from "./dom.js";
import { forgetGame, recentGames } from "./prefs.js";

// The computer's levels, as the page presents them, when the server does not list them
// itself (GET /api/levels). The server checks the name either way.
const KNOWN_LEVELS = [
  { name: "random", label: "Beginner", about: "plays any legal move" },
  { name: "greedy", label: "Casual", about: "takes the most points it can now" },
  { name: "expert", label: "Expert", about: "plays the book's strategy" },
  { name: "search", label: "Strongest", about: "looks ahead over likely deals" },
];
const GIN_LEVELS = [
  { name: "random", label: "Beginner", about: "plays any legal move" },
  { name: "greedy", label: "Casual", about: "keeps the least deadwood, knocks at once" },
  { name: "expert", label: "Expert", about: "discards safely, knocks with care" },
];
const RULES_ABOUT = {
  umtali: { standard: "the book's rules", practical: "the looser table game: ten cards, an upcard, melding optional" },
  gin: { standard: "knock with 10 or less, game to 100", oklahoma: "the first upcard sets the knock limit, game to 150" },
};
let defaultLevel = "search";
// What the server offers, by game: {levels, default_level, rules, default_rules, kinds}.
let offered = null;

function seatPathOf(created, seat) {
  const link = created.seats.find((item) => item.seat === seat) ?? created.seats[0];
  return `/seat/${encodeURIComponent(link.secret)}`;
}

async function levels() {
  try {
    const answer = await api.levels();
    const list = Array.isArray(answer) ? answer : answer?.levels;
    if (typeof answer?.default === "string") defaultLevel = answer.default;
    if (Array.isArray(list) && list.length > 0) {
      return list.map((item) => {
        const name = typeof item === "string" ? item : item.name;
        const known = KNOWN_LEVELS.find((level) => level.name === name);
        return {
          name,
          label: known?.label ?? name,
          about: (typeof item === "object" && item.about) || known?.about || "",
        };
      });
    }
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
  }
  return KNOWN_LEVELS;
}

async function gamesOffered() {
  try {
    const answer = await api.gamesOffered();
    if (Array.isArray(answer?.games)) return Object.fromEntries(answer.games.map((game) => [game.game, game]));
  } catch (error) {
    if (!isMissingEndpoint(error)) throw error;
  }
  return null; // an older server: Umtali only, its standard rules
}

function levelsOf(game, umtaliLevels) {
  if (game !== "gin") return umtaliLevels;
  const names = offered?.gin?.levels ?? GIN_LEVELS.map((level) => level.name);
  return names.map((name) => GIN_LEVELS.find((level) => level.name === name) ?? { name, label: name, about: "" });
}

function renderRules(container, game) {
  container.replaceChildren();
  const presets = offered?.[game]?.rules ?? ["standard"];
  const chosen = offered?.[game]?.default_rules ?? "standard";
  for (const name of presets) {
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "rules";
    input.value = name;
    input.checked = name === chosen;
    const about = document.createElement("span");
    about.className = "note";
    about.textContent = RULES_ABOUT[game]?.[name] ? ` (${RULES_ABOUT[game][name]})` : "";
    const label = document.createElement("label");
    label.append(input, ` ${name[0].toUpperCase()}${name.slice(1)}`, about);
    container.append(label);
  }
}

// A form shows the choices of the game chosen in it: its rules presets, its levels (the
// computer's form) and, for Umtali only, how long (Gin Rummy is played to its target).
function wireGameChoice(form, rulesBox, levelBox, umtaliLevels) {
  const umtaliDefault = defaultLevel;
  const update = () => {
    const game = new FormData(form).get("game") ?? "umtali";
    renderRules(rulesBox, game);
    if (levelBox) {
      defaultLevel = game === "gin" ? (offered?.gin?.default_level ?? "expert") : umtaliDefault;
      renderLevels(levelBox, levelsOf(game, umtaliLevels));
    }
    form.querySelector(".kind-choice").hidden = game === "gin";
    const players = form.querySelector(".players-choice");
    if (players) {
      // Three or four play Gin Rummy only; friends are invited to the seats the computer would play.
      players.hidden = game !== "gin";
      const count = game === "gin" ? Number(new FormData(form).get("players") ?? 2) : 2;
      form.querySelector("#party-invites").hidden = count < 3;
      for (const box of form.querySelectorAll("input[name=invite]")) {
        const shown = Number(box.value) < count;
        box.closest("label").hidden = !shown;
        if (!shown) box.checked = false;
      }
    }
  };
  for (const input of form.querySelectorAll("input[name=game], input[name=players]")) input.addEventListener("change", update);
  update();
}

/** The request a form makes: the game, its rules, for Umtali how long, and for Gin
 * Rummy how many play and which seats go to friends. */
function requestOf(form, extra) {
  const data = new FormData(form);
  const game = data.get("game") ?? "umtali";
  const request = { ...extra, game, rules: data.get("rules") ?? "standard" };
  if (game !== "gin") request.kind = data.get("kind");
  const players = Number(data.get("players") ?? 2);
  if (game === "gin" && players > 2) {
    request.players = players;
    request.invite = data.getAll("invite").map(Number).filter((seat) => seat < players);
  }
  return request;
}

/** The links of a party game's invited seats, each with a button that copies it. */
function showPartyLinks(created) {
  const origin = window.location.origin;
  const list = document.getElementById("party-link-list");
  const status = document.getElementById("party-copy-status");
  list.replaceChildren();
  for (const link of created.seats.slice(1)) {
    const item = document.createElement("li");
    const id = `party-link-${link.seat}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = `The link of seat ${link.seat + 1}`;
    const row = document.createElement("div");
    row.className = "copy-row";
    const input = document.createElement("input");
    Object.assign(input, { id, type: "text", readOnly: true, spellcheck: false });
    input.value = origin + seatPathOf(created, link.seat);
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = "Copy";
    copy.addEventListener("click", () => copyText(input, status));
    row.append(input, copy);
    item.append(label, row);
    list.append(item);
  }
  document.getElementById("open-party-seat").href = seatPathOf(created, created.seats[0].seat);
  status.textContent = "";
  document.getElementById("party-links").hidden = false;
  list.querySelector("input")?.focus();
}

function renderLevels(container, list) {
  container.replaceChildren();
  for (const level of list) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "level";
    input.value = level.name;
    input.checked = level.name === defaultLevel;
    const about = document.createElement("span");
    about.className = "note";
    about.textContent = level.about ? ` (${level.about})` : "";
    label.append(input, ` ${level.label}`, about);
    container.append(label);
  }
  if (!container.querySelector("input:checked")) container.querySelector("input").checked = true;
}

function renderRecent() {
  const list = document.getElementById("recent");
  const games = recentGames();
  document.getElementById("recent-panel").hidden = games.length === 0;
  list.replaceChildren();
  for (const game of games) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = game.path;
    link.textContent = game.title || "A game";
    const when = document.createElement("span");
    when.className = "note";
    when.textContent = `${game.over ? " · over" : ""} · ${new Date(game.seen).toLocaleString()}`;
    const forget = document.createElement("button");
    forget.type = "button";
    forget.className = "quiet";
    forget.textContent = "Forget";
    forget.setAttribute("aria-label", `Forget ${game.title || "this game"}`);
    forget.addEventListener("click", () => {
      forgetGame(game.path);
      renderRecent();
    });
    item.append(link, when, " ", forget);
    list.append(item);
  }
}

function showError(text) {
  document.getElementById("home-error").textContent = text;
}

async function copyText(input, status) {
  const text = input.value;
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "Copied: send it to your friend.";
  } catch {
    // The clipboard API needs a secure page (https or localhost): select the text so
    // that the usual copy keys do it.
    input.focus();
    input.select();
    status.textContent = "Selected: press Ctrl+C (⌘C) to copy it.";
  }
}

/**
 * A game for two people at this device (hot-seat): this tab keeps both seats' secrets,
 * and the table of the seat to move opens (covered until its player says he is there).
 */
async function openHotSeat(created) {
  const [first, second] = created.seats.map((link) => link.secret);
  keepHotSeat(first, second);
  const firstState = await api.state(first);
  const toMove = firstState.your_turn ? 0 : 1;
  window.location.assign(seatPathOf(created, toMove));
}

/** Show the home page and wire its forms. */
export async function showHome() {
  document.getElementById("home").hidden = false;
  document.title = "Umtali";
  renderRecent();
  const levelBox = document.getElementById("levels");
  let umtaliLevels = KNOWN_LEVELS;
  try {
    offered = await gamesOffered();
    umtaliLevels = await levels();
  } catch (error) {
    showError(error.message);
  }
  const computerForm = document.getElementById("computer-form");
  const friendForm = document.getElementById("friend-form");
  wireGameChoice(computerForm, document.getElementById("computer-rules"), levelBox, umtaliLevels);
  wireGameChoice(friendForm, document.getElementById("friend-rules"), null, umtaliLevels);

  computerForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(computerForm);
    const button = computerForm.querySelector("button[type=submit]");
    button.disabled = true;
    showError("");
    try {
      const request = requestOf(computerForm, { opponent: "computer", level: data.get("level") });
      const created = await api.createGame(request);
      if (created.seats.length > 1) {
        showPartyLinks(created); // friends invited: their links first, then the table
        button.disabled = false;
        return;
      }
      window.location.assign(seatPathOf(created, created.seats[0].seat));
    } catch (error) {
      showError(`The game could not be made: ${error.message}`);
      button.disabled = false;
    }
  });

  const friendButton = document.getElementById("friend-submit");
  const bothHere = () => new FormData(friendForm).get("where") === "here";
  for (const input of friendForm.querySelectorAll("input[name=where]")) {
    input.addEventListener("change", () => {
      friendButton.textContent = bothHere() ? "Deal" : "Make the links";
      if (bothHere()) document.getElementById("invite").hidden = true; // links made before are not this game's
    });
  }

  friendForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = friendButton;
    button.disabled = true;
    showError("");
    try {
      const created = await api.createGame(requestOf(friendForm, { opponent: "person" }));
      if (bothHere()) {
        await openHotSeat(created);
        return;
      }
      const origin = window.location.origin;
      const own = seatPathOf(created, 0);
      document.getElementById("friend-link").value = origin + seatPathOf(created, 1);
      document.getElementById("own-link").value = origin + own;
      document.getElementById("open-own-seat").href = own;
      document.getElementById("invite").hidden = false;
      document.getElementById("copy-status").textContent = "";
      document.getElementById("friend-link").focus();
      document.getElementById("friend-link").select();
    } catch (error) {
      showError(`${bothHere() ? "The game" : "The links"} could not be made: ${error.message}`);
    } finally {
      button.disabled = false;
    }
  });
  document.getElementById("copy-friend-link").addEventListener("click", () =>
    copyText(document.getElementById("friend-link"), document.getElementById("copy-status")),
  );
}

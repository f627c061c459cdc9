// The home page: a new game against the computer, an invitation for a friend, the games
// to resume, and the way to the learning pages.

import { api, isMissingEndpoint } from "./api.js";
import { forgetGame, recentGames } from "./prefs.js";

// The computer's levels, as the page presents them, when the server does not list them
// itself (GET /api/levels). The server checks the name either way.
const KNOWN_LEVELS = [
  { name: "random", label: "Beginner", about: "plays any legal move" },
  { name: "greedy", label: "Casual", about: "takes the most points it can now" },
  { name: "expert", label: "Expert", about: "plays the book's strategy" },
  { name: "search", label: "Strongest", about: "looks ahead over likely deals" },
];
let defaultLevel = "search";

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

/** Show the home page and wire its forms. */
export async function showHome() {
  document.getElementById("home").hidden = false;
  document.title = "Umtali";
  renderRecent();
  const levelBox = document.getElementById("levels");
  try {
    renderLevels(levelBox, await levels());
  } catch (error) {
    renderLevels(levelBox, KNOWN_LEVELS);
    showError(error.message);
  }

  const computerForm = document.getElementById("computer-form");
  computerForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(computerForm);
    const button = computerForm.querySelector("button[type=submit]");
    button.disabled = true;
    showError("");
    try {
      const created = await api.createGame({
        opponent: "computer",
        level: data.get("level"),
        kind: data.get("kind"),
      });
      window.location.assign(seatPathOf(created, 0));
    } catch (error) {
      showError(`The game could not be made: ${error.message}`);
      button.disabled = false;
    }
  });

  const friendForm = document.getElementById("friend-form");
  friendForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(friendForm);
    const button = friendForm.querySelector("button[type=submit]");
    button.disabled = true;
    showError("");
    try {
      const created = await api.createGame({ opponent: "person", kind: data.get("kind") });
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
      showError(`The links could not be made: ${error.message}`);
    } finally {
      button.disabled = false;
    }
  });
  document.getElementById("copy-friend-link").addEventListener("click", () =>
    copyText(document.getElementById("friend-link"), document.getElementById("copy-status")),
  );
}

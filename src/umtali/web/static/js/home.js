// The home page: a picture of a table and a line on what this is; "Play the computer"
// (one click deals the default game with its usual rules, level and length; the other
// choices are folded away), "Play a friend", "Learn to play", the player's name (kept in
// the browser, sent with each game he makes) and "My games", the seats this browser holds
// with how each game stands (POST /api/seats/status). Which games there are, and each one's
// levels, rules variants, lengths and seat counts, is the server's to say (GET
// /api/games-offered); each game words its own choices in its folder
// (/static/games/<game>/home.js, exporting `choices`). This page names no game.

import { api } from "./api.js";
import { cardSvg } from "./cards.js";
import { el, keepHotSeat } from "./dom.js";
import { forgetGame, prefs, recentGames } from "./prefs.js";

const NUMBERS = { 2: "Two", 3: "Three", 4: "Four" };

// What the server offers, by game, in its order: {game, title, levels, level_names, default_level,
// rules, default_rules, kinds, seat_counts}; and how each game words its choices.
let offered = [];
const wording = new Map();

function seatPathOf(created, seat) {
  const link = created.seats.find((item) => item.seat === seat) ?? created.seats[0];
  return `/seat/${encodeURIComponent(link.secret)}`;
}

/** The games offered, each with its own wording (none when its home.js is missing). */
async function loadGames() {
  offered = (await api.gamesOffered()).games;
  await Promise.all(
    offered.map(async ({ game }) => {
      try {
        wording.set(game, (await import(`/static/games/${encodeURIComponent(game)}/home.js`)).choices ?? {});
      } catch {
        wording.set(game, {});
      }
    }),
  );
}

const gameOf = (form) => offered.find((game) => game.game === new FormData(form).get("game")) ?? offered[0];
const wordsOf = (game) => wording.get(game.game) ?? {};

/** A radio button with its label: `name`, `value`, the text, and a note in brackets. */
function radio(name, value, text, { checked = false, note = "" } = {}) {
  const input = document.createElement("input");
  Object.assign(input, { type: "radio", name, value, checked });
  const label = document.createElement("label");
  label.append(input, ` ${text}`);
  if (note) {
    const about = document.createElement("span");
    about.className = "note";
    about.textContent = ` (${note})`;
    label.append(about);
  }
  return label;
}

/** The game choice of a form: every game offered (for the friend's form, those two may play). */
function renderGames(form, games) {
  form.querySelector(".game-choice").replaceChildren(
    ...games.map((game, index) => radio("game", game.game, game.title, { checked: index === 0, note: wordsOf(game).about })),
  );
}

// A game words a variant by a note alone (its label is then its name, capitalised), or
// by {label, about}, as its levels are worded.
function renderRules(container, game) {
  const words = wordsOf(game).rules ?? {};
  const noteOf = (name) => (typeof words[name] === "object" ? words[name].about : words[name]);
  container.replaceChildren(
    ...game.rules.map((name) => radio("rules", name, labelOfRules(game, name), { checked: name === game.default_rules, note: noteOf(name) })),
  );
}

// A level is labelled by the server's name for it (level_names), the one the table and
// the record give the computer; the game's home.js only says what it does.
function renderLevels(container, game) {
  const words = wordsOf(game).levels ?? {};
  const labelOf = (name) => game.level_names?.[name] ?? words[name]?.label ?? name;
  container.replaceChildren(
    ...game.levels.map((name) => radio("level", name, labelOf(name), { checked: name === game.default_level, note: words[name]?.about })),
  );
}

const labelOfRules = (game, name) => {
  const words = wordsOf(game).rules?.[name];
  return (typeof words === "object" ? words.label : null) ?? `${name[0].toUpperCase()}${name.slice(1)}`;
};

/** The choices a form makes now, in a line, so that a player sees what one click deals:
 * "Umtali, standard rules, against Casual, a game (four hands)". */
function renderSummary(form) {
  const data = new FormData(form);
  const game = gameOf(form);
  const rules = String(data.get("rules") ?? game.default_rules);
  const parts = [game.title, `${labelOfRules(game, rules).toLowerCase()} rules`];
  const level = data.get("level");
  if (level) parts.push(`against ${game.level_names?.[level] ?? level}`);
  const players = Number(data.get("players") ?? 2);
  if (players > 2) parts.push(`${NUMBERS[players] ?? players} players`);
  if (!form.querySelector(".kind-choice").hidden) {
    const kind = String(data.get("kind") ?? game.kinds[0]);
    const words = wordsOf(game).kinds?.[kind] ?? kind;
    parts.push(`${words[0].toLowerCase()}${words.slice(1)}`);
  }
  form.querySelector(".summary").textContent = `${parts.join(", ")}.`;
  const button = form.querySelector("button.play");
  if (form.id === "computer-form") button.textContent = `Deal ${game.title}`;
}

/** How long a match may be: shown only when the game has more than one length. */
function renderKinds(form, container, game) {
  const words = wordsOf(game).kinds ?? {};
  form.querySelector(".kind-choice").hidden = game.kinds.length < 2;
  container.replaceChildren(...game.kinds.map((name, index) => radio("kind", name, words[name] ?? name, { checked: index === 0 })));
}

/** How many play, and which seats go to friends: shown only when the game may have more than two. */
function renderPlayers(form, game) {
  const counts = game.seat_counts.filter((count) => count >= 2).sort();
  const box = form.querySelector(".players-choice");
  box.hidden = counts.length < 2;
  const was = Number(new FormData(form).get("players") ?? 2);
  const count = counts.includes(was) ? was : counts[0];
  const notes = wordsOf(game).players ?? {};
  box.querySelector("#computer-players").replaceChildren(
    ...counts.map((n) => radio("players", String(n), NUMBERS[n] ?? String(n), { checked: n === count, note: notes[n] })),
  );
  const invites = box.querySelector("#party-invites");
  invites.hidden = count < 3;
  for (const label of invites.querySelectorAll("label")) label.remove();
  for (let seat = 1; seat < count; seat += 1) {
    const input = document.createElement("input");
    Object.assign(input, { type: "checkbox", name: "invite", value: String(seat) });
    const label = document.createElement("label");
    label.append(input, ` A friend at seat ${seat + 1}`);
    invites.append(label);
  }
}

// A form shows the choices of the game chosen in it: its rules variants, its levels (the
// computer's form), how long, and how many play (the computer's form).
function wireGameChoice(form, rulesBox, levelBox, kindBox) {
  const update = (players) => {
    const game = gameOf(form);
    if (!players) {
      renderRules(rulesBox, game);
      if (levelBox) renderLevels(levelBox, game);
      renderKinds(form, kindBox, game);
    }
    if (form.querySelector(".players-choice")) renderPlayers(form, game);
  };
  form.addEventListener("change", (event) => {
    if (event.target.name === "game" || event.target.name === "players") update(event.target.name === "players");
    renderSummary(form);
  });
  update(false);
  renderSummary(form);
}

/** The request a form makes: the game, its rules, how long (where the game has a
 * choice), and how many play and which seats go to friends (where more than two may);
 * and the player's name, when he gave one. */
function requestOf(form, extra) {
  const data = new FormData(form);
  const game = gameOf(form);
  const request = { ...extra, game: game.game, rules: data.get("rules") ?? game.default_rules };
  const name = document.getElementById("your-name").value.trim();
  if (name) request.name = name;
  if (!form.querySelector(".kind-choice").hidden) request.kind = data.get("kind");
  const players = Number(data.get("players") ?? 2);
  if (players > 2) {
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

/** A seat's secret, from the path kept for it ("/seat/<secret>"). */
function secretOf(path) {
  try {
    return decodeURIComponent(path.slice("/seat/".length));
  } catch {
    return "";
  }
}

/** How a game stands, in a few words, from POST /api/seats/status's answer for its seat. */
function standing(status) {
  if (!status) return "";
  if (!status.known) return "no longer on this server";
  if (status.over) return status.result ? `over: ${status.result}` : "over";
  if (status.your_turn) return "your turn";
  return status.opponents.length === 1 ? `${status.opponents[0]} to play` : "the others to play";
}

/** "My games": each seat this browser keeps, with its game, its opponents and whose turn
 * it is (asked of the server; until it answers, or if it cannot, what the browser kept),
 * to resume or to forget. */
async function renderRecent() {
  const games = recentGames();
  document.getElementById("recent-panel").hidden = games.length === 0;
  const show = (statuses) => {
    document.getElementById("recent").replaceChildren(
      ...games.map((game, index) => {
        const status = statuses?.[index];
        const title = status?.known ? `${status.game_title} against ${status.opponents.join(", ") || "the computer"}` : game.title || "A game";
        const now = standing(status) || (game.over ? "over" : "");
        const turn = status?.known && status.your_turn && !status.over;
        const forget = el("button", { className: "quiet", text: "Forget", attrs: { type: "button", "aria-label": `Forget ${title}` } });
        forget.addEventListener("click", () => {
          forgetGame(game.path);
          renderRecent();
        });
        return el(
          "li",
          { className: turn ? "your-turn" : "" },
          el("a", { text: title, attrs: { href: game.path } }),
          el("span", { className: "standing", text: now ? ` · ${now}` : "" }),
          el("span", { className: "note", text: ` · ${new Date(game.seen).toLocaleString()}` }),
          " ",
          ...(status?.known && status.review ? [el("a", { className: "quiet review-link", text: "Review", attrs: { href: `/review#seat=${encodeURIComponent(secretOf(game.path))}`, "aria-label": `Review your last finished hand of ${title}` } }), " "] : []),
          forget,
        );
      }),
    );
  };
  show(null);
  if (games.length === 0) return;
  // Only what can be a secret is asked (1 to 200 characters): any other kept path is a
  // game gone.
  const secrets = games.map((game) => secretOf(game.path));
  const asked = secrets.filter((secret) => secret.length > 0 && secret.length <= 200);
  try {
    const answers = asked.length ? (await api.seatsStatus(asked)).seats : [];
    show(secrets.map((secret) => (asked.includes(secret) ? answers[asked.indexOf(secret)] : { known: false })));
  } catch {
    // the server cannot say now: the list stays as the browser kept it
  }
}

/** The picture of a card table: the other hand face down, the stock and the discard, and
 * your hand; drawn with the table's own cards. */
function drawPicture() {
  const fourColour = prefs.fourColour;
  const row = (className, cards) => el("div", { className }, ...cards.map((card) => cardSvg(card, { fourColour, faceDown: card === null })));
  document.getElementById("home-picture").replaceChildren(
    row("picture-other", [null, null, null, null, null]),
    row("picture-middle", [null, "7h"]),
    row("picture-hand", ["Ah", "Kh", "Qh", "9s", "9d"]),
  );
}

/** The player's name: kept in the browser as he types it, sent with each game he makes. */
function wireName() {
  const input = document.getElementById("your-name");
  input.value = prefs.name;
  input.addEventListener("change", () => {
    prefs.name = input.value;
  });
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

/** The heading and the opening line, from the games offered. */
function renderTitle() {
  const titles = offered.map((game) => game.title);
  const listed = titles.length > 1 ? `${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}` : titles[0];
  document.getElementById("home-title").textContent = `Play ${listed}`;
  document.getElementById("home-lead").textContent =
    "Card games against the computer or a friend, in your browser: nothing to install, no account.";
}

/** Each game's rules (/rules/<game>) and teaching pages (its home.js's `learn`: href,
 * text, about) in the panel "Learn to play". */
function renderLearn() {
  const list = document.querySelector(".learn-links");
  list.append(
    el(
      "li",
      {},
      "The rules of ",
      ...offered.flatMap((game, index) => [index === 0 ? "" : index === offered.length - 1 ? " and " : ", ", el("a", { text: game.title, attrs: { href: `/rules/${encodeURIComponent(game.game)}` } })]),
      ".",
    ),
  );
  for (const game of offered) {
    for (const page of wordsOf(game).learn ?? []) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = page.href;
      link.textContent = page.text;
      item.append(link, page.about ? `: ${page.about}.` : "");
      list.append(item);
    }
  }
}

/** Show the home page and wire its forms. */
export async function showHome() {
  document.getElementById("home").hidden = false;
  document.title = "Umtali";
  drawPicture();
  wireName();
  renderRecent();
  try {
    await loadGames();
  } catch (error) {
    showError(`The games could not be read: ${error.message}`);
    return;
  }
  renderTitle();
  renderLearn();
  const computerForm = document.getElementById("computer-form");
  const friendForm = document.getElementById("friend-form");
  renderGames(computerForm, offered);
  renderGames(friendForm, offered.filter((game) => game.seat_counts.includes(2)));
  wireGameChoice(computerForm, document.getElementById("computer-rules"), document.getElementById("levels"), document.getElementById("computer-kind"));
  wireGameChoice(friendForm, document.getElementById("friend-rules"), null, document.getElementById("friend-kind"));

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
      renderSummary(friendForm);
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

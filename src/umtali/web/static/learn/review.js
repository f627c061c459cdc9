// /review: one hand reviewed for one player (umtali.learn.review on the server). Three
// ways in: from a seat (/review#seat=SECRET&hand=N: the end-of-hand panel's "Review this
// hand" and "My games"; the secret stays in the fragment, which is never sent but to the
// API), from the replay page (the record it opened, handed over in sessionStorage), or a
// record file chosen here. The server weighs every decision; this page only shows them.

import { api, el } from "./common.js";

const HANDOVER = "umtali-review-record"; // sessionStorage key the replay page fills
const MAX_BYTES = 2 * 1024 * 1024; // the server's cap, as for a replay

const pick = document.getElementById("pick");
const input = document.getElementById("record-file");
const whom = document.getElementById("whom");
const playerSelect = document.getElementById("player");
const handSelect = document.getElementById("hand");
const goButton = document.getElementById("go");
const status = document.getElementById("status");
const section = document.getElementById("review");
const title = document.getElementById("review-title");
const summary = document.getElementById("summary");
const result = document.getElementById("result");
const handTabs = document.getElementById("hands");
const list = document.getElementById("decisions");

let record = null; // a record given here or by the replay page
let secret = null; // a seat's secret, from the fragment
let busy = false;

function say(text, warning = false) {
  status.textContent = text;
  status.className = warning ? "form-message warning" : "form-message";
}

function signed(x) {
  const text = Math.abs(x).toFixed(1);
  return x > 0.05 ? `+${text}` : x < -0.05 ? `−${text}` : "0.0";
}

/** Ask the server for hand `hand` (null: the last finished one). */
async function review(hand) {
  if (busy) return;
  busy = true;
  goButton.disabled = true;
  say("Weighing every decision of the hand… this takes a few seconds.");
  try {
    const reply = secret !== null
      ? await api(`/api/seat/${encodeURIComponent(secret)}/review`, { body: hand === null ? {} : { hand } })
      : await api("/api/review", { body: { record, player: Number(playerSelect.value), hand } });
    say("");
    show(reply);
  } catch (error) {
    say(error.message.charAt(0).toUpperCase() + error.message.slice(1), true);
  } finally {
    busy = false;
    goButton.disabled = false;
  }
}

function show(reply) {
  const whose = secret !== null ? "your" : `${reply.player}'s`;
  title.textContent = `${reply.title}, hand ${reply.hand_index + 1}: ${whose} play`;
  const marked = reply.decisions.filter((d) => d.mark);
  summary.replaceChildren(
    el("strong", "review-accuracy", `Accuracy ${Math.round(reply.accuracy)}%`),
    ` over ${reply.decisions.length} decision${reply.decisions.length === 1 ? "" : "s"}; `,
    marked.length ? `${marked.length} marked, ${reply.lost.toFixed(1)} points lost in them.` : "none marked.",
  );
  result.textContent = `${reply.result} (${reply.playouts} playouts a decision.)`;
  handTabs.replaceChildren();
  for (const h of reply.hands) {
    const tab = el("button", "", `Hand ${h + 1}`);
    tab.type = "button";
    tab.setAttribute("aria-pressed", String(h === reply.hand_index));
    tab.addEventListener("click", () => review(h));
    handTabs.append(tab);
  }
  list.replaceChildren(...reply.decisions.map(decisionView));
  if (!reply.decisions.length) list.append(el("li", "muted", "You had no real choice to make in this hand."));
  section.hidden = false;
  title.focus?.();
}

function decisionView(d) {
  const badge = d.mark === "mistake" ? "??" : d.mark === "inaccuracy" ? "?!" : "";
  const item = el("li", `review-decision${d.mark ? ` ${d.mark}` : ""}`);
  const head = el("p", "review-head", el("strong", "", `Turn ${d.turn}`), ` · you played ${d.played}`);
  if (badge) head.append(el("span", "review-mark", ` ${badge} ${d.mark} (${d.loss.toFixed(1)} points lost)`));
  item.append(head, el("p", "muted", d.where));
  const table = el("table", "review-alternatives");
  const wins = d.alternatives.every((alt) => alt.wins !== null);
  const heads = [el("th", "", "Move"), el("th", "num", "Points"), el("th", "num", "Lost")];
  if (wins) heads.push(el("th", "num", "Game won"));
  table.append(el("thead", "", el("tr", "", ...heads)));
  const body = el("tbody");
  for (const alt of d.alternatives) {
    const mine = alt.move === d.played;
    const row = el("tr", mine ? "mine" : "", el("td", "", mine ? `${alt.move} (yours)` : alt.move), el("td", "num", signed(alt.expected)), el("td", "num", alt.loss < 0.05 ? "best" : alt.loss.toFixed(1)));
    if (wins) row.append(el("td", "num", `${Math.round(alt.wins * 100)}%`));
    body.append(row);
  }
  table.append(body);
  item.append(table);
  const best = d.alternatives[0];
  if (best.move !== d.played) {
    const show = el("button", "review-show", "Show me");
    show.type = "button";
    show.setAttribute("aria-expanded", "false");
    const line = el("ol", "moves review-line");
    for (const move of best.line) line.append(el("li", "", move));
    line.hidden = true;
    show.addEventListener("click", () => {
      line.hidden = !line.hidden;
      show.setAttribute("aria-expanded", String(!line.hidden));
    });
    item.append(el("p", "review-better", `Better: ${best.move}. `, show), line);
  }
  return item;
}

/** Offer the players and hands of a record given here. */
function offer(data) {
  record = data;
  const players = Array.isArray(data.players) ? data.players : [];
  const hands = Array.isArray(data.hands) ? data.hands.length : 0;
  playerSelect.replaceChildren(...players.map((name, i) => Object.assign(el("option", "", String(name)), { value: String(i) })));
  handSelect.replaceChildren(...Array.from({ length: hands }, (_, i) => Object.assign(el("option", "", `Hand ${i + 1}`), { value: String(i) })));
  whom.hidden = false;
  say(`${players.length} players, ${hands} hand${hands === 1 ? "" : "s"}: choose whose play to review.`);
}

async function openFile(file) {
  if (!file) return;
  if (file.size > MAX_BYTES) {
    say(`${file.name}: too large to review (at most 2 MiB are read; a game's record takes a few KiB).`, true);
    return;
  }
  try {
    offer(JSON.parse(await file.text()));
  } catch {
    say(`${file.name}: this is not a game record (it is not JSON).`, true);
  }
}

goButton.addEventListener("click", () => review(Number(handSelect.value)));
input.addEventListener("change", () => openFile(input.files[0]));

const fragment = new URLSearchParams(window.location.hash.slice(1));
if (fragment.has("seat")) {
  secret = fragment.get("seat");
  const hand = fragment.get("hand");
  review(hand === null || hand === "" ? null : Number(hand));
} else {
  const handed = window.sessionStorage.getItem(HANDOVER);
  pick.hidden = false;
  if (handed !== null && fragment.has("from")) {
    try {
      offer(JSON.parse(handed));
    } catch {
      say("The record from the replay page could not be read: choose the file again.", true);
    }
  }
}

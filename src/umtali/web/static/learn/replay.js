// /replay: a game record opened from the disk, sent to the server (POST /api/replay),
// which reads it as `umtali replay` does and answers its hands step by step (the deal,
// then each turn, each with the board after it). This page only steps through them.
// Any record the project writes opens here, of every game: the record's game draws its
// boards and hands' ends, in its own module (/static/games/<game>/replay.js, loaded by
// the name the server's reply gives). In a game of three or four every hand names the
// two players at its table.

import { loadStyleSheet } from "/static/js/dom.js";
import { api, capitalSentence, el } from "./common.js";

const HANDOVER = "umtali-review-record"; // read by /review (review.js)

const MAX_BYTES = 2 * 1024 * 1024; // the server's cap (umtali.web.learning.REPLAY_MAX_BYTES)

const drop = document.getElementById("drop");
const input = document.getElementById("record-file");
const status = document.getElementById("status");
const replay = document.getElementById("replay");
const heading = document.getElementById("heading");
const handTabs = document.getElementById("hands");
const count = document.getElementById("count");
const view = document.getElementById("view");
const buttons = {
  first: document.getElementById("first"),
  back: document.getElementById("back"),
  next: document.getElementById("next"),
  last: document.getElementById("last"),
};

// The record as the server told it, its game's drawing, its steps in one list, and
// where we stand.
let record = null;
let drawing = null;
let steps = []; // { hand: index into record.hands, step: index into its steps }
let at = 0;

function say(text, warning = false) {
  status.textContent = text;
  status.className = warning ? "form-message warning" : "form-message";
}

async function open(file) {
  if (!file) return;
  if (file.size > MAX_BYTES) {
    say(`${file.name}: cannot replay this record: it holds ${file.size.toLocaleString("en")} bytes, and at most 2 MiB are read (a game's record takes a few KiB).`, true);
    return;
  }
  say(`Reading ${file.name}…`);
  let reply;
  try {
    reply = await api("/api/replay", { raw: await file.arrayBuffer() });
  } catch (error) {
    say(`${file.name}: ${error.message}`, true);
    return;
  }
  if (!reply.hands.length) {
    // A record saved before the first deal: nothing to step through.
    say(`${file.name}: the record holds no hand. ${reply.end ?? ""}`.trim(), true);
    replay.hidden = true;
    return;
  }
  try {
    drawing = await import(`/static/games/${encodeURIComponent(reply.game)}/replay.js`);
    if (drawing.styleSheet) await loadStyleSheet(drawing.styleSheet);
  } catch {
    say(`${file.name}: this page cannot draw a game of ${reply.game}.`, true);
    return;
  }
  say(`${file.name}: ${reply.hands.length} hand${reply.hands.length === 1 ? "" : "s"}.`);
  handOver(file);
  show(reply);
}

/** "Review a player's hands": the record handed to /review in this tab's sessionStorage. */
async function handOver(file) {
  const link = document.getElementById("review-link");
  try {
    window.sessionStorage.setItem(HANDOVER, await file.text());
    link.hidden = false;
  } catch {
    link.hidden = true; // storage full or refused: the review page can still open the file
  }
}

function show(reply) {
  record = reply;
  steps = [];
  reply.hands.forEach((hand, h) => hand.steps.forEach((_, s) => steps.push({ hand: h, step: s })));
  heading.replaceChildren(el("span", "", reply.heading));
  if (reply.seating) heading.append(el("span", "seating", reply.seating));
  handTabs.replaceChildren();
  reply.hands.forEach((hand, h) => {
    const tab = el("button", "", hand.number === null ? "The hand" : `Hand ${hand.number}`);
    tab.type = "button";
    tab.dataset.hand = String(h);
    tab.title = hand.title;
    tab.addEventListener("click", () => go(firstOf(h)));
    handTabs.append(tab);
  });
  replay.hidden = false;
  go(0);
  buttons.next.focus();
}

function firstOf(hand) {
  return steps.findIndex((s) => s.hand === hand);
}

function lastOf(hand) {
  return steps.findLastIndex((s) => s.hand === hand);
}

/** Show step `index` (kept within the record). */
function go(index) {
  if (!record || !steps.length) return;
  at = Math.max(0, Math.min(steps.length - 1, index));
  const { hand: h, step: s } = steps[at];
  const hand = record.hands[h];
  const step = hand.steps[s];
  for (const tab of handTabs.children) tab.setAttribute("aria-pressed", String(Number(tab.dataset.hand) === h));
  count.textContent = `Step ${at + 1} of ${steps.length} · ${hand.title}`;
  buttons.first.disabled = buttons.back.disabled = at === 0;
  buttons.next.disabled = buttons.last.disabled = at === steps.length - 1;

  const parts = [el("h2", "step-title", step.title)];
  if (step.sentences.length) {
    const list = el("ul", "moves");
    for (const line of step.sentences) list.append(el("li", "", line));
    parts.push(list);
  }
  parts.push(drawing.boardView(step.board, hand));
  if (s === hand.steps.length - 1) {
    const end = el("section", "hand-end");
    const last = at === steps.length - 1;
    if (hand.stopped) end.append(el("p", "result", "The record stops here: this hand is unfinished."));
    end.append(...drawing.handEndView(hand));
    if (hand.totals) end.append(el("p", "result totals", capitalSentence(hand.totals)));
    end.append(...drawing.recordEndView(record, hand, last));
    if (last && record.end) end.append(el("p", "result", record.end));
    parts.push(end);
  }
  view.replaceChildren(...parts);
}

for (const [name, target] of Object.entries({
  first: () => firstOf(steps[at].hand),
  back: () => at - 1,
  next: () => at + 1,
  last: () => lastOf(steps[at].hand),
})) {
  buttons[name].addEventListener("click", () => go(target()));
}

document.addEventListener("keydown", (event) => {
  if (!record || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target instanceof HTMLInputElement) return;
  const hand = steps[at].hand;
  const moves = {
    ArrowRight: at + 1,
    ArrowLeft: at - 1,
    Home: firstOf(hand),
    End: lastOf(hand),
    PageDown: hand + 1 < record.hands.length ? firstOf(hand + 1) : at,
    PageUp: hand > 0 ? firstOf(hand - 1) : firstOf(hand),
  };
  if (!(event.key in moves)) return;
  event.preventDefault();
  go(moves[event.key]);
});

input.addEventListener("change", () => open(input.files[0]));
// A file dropped anywhere on the page is opened, never shown by the browser in its place.
for (const target of [document, drop]) {
  target.addEventListener("dragover", (event) => event.preventDefault());
}
document.addEventListener("drop", (event) => {
  event.preventDefault();
  open(event.dataTransfer?.files[0]);
});
drop.addEventListener("dragover", () => drop.classList.add("over"));
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", () => drop.classList.remove("over"));

// /puzzles: the game's puzzles (GET /api/puzzles/{game}/{number}), one at a time in a
// random order: the position as the player saw it, a button a move (its cards drawn),
// then the answer, each move's points and why. Every word comes from the server.
// ?game=NAME picks the game (default umtali), ?puzzle=N one puzzle.

import { api, cardRow, el, positionView } from "./common.js";

const stage = document.getElementById("puzzles");
const title = document.getElementById("puzzles-title");
const params = new URLSearchParams(window.location.search);
const game = /^[a-z]{1,20}$/.test(params.get("game") || "") ? params.get("game") : "umtali";

function shuffled(count) {
  const order = Array.from({ length: count }, (_, i) => i + 1);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

async function load() {
  stage.replaceChildren(el("p", "muted", "Loading the puzzles…"));
  let info;
  try {
    info = await api(`/api/puzzles/${game}`);
  } catch (error) {
    stage.replaceChildren(el("p", "error", `The puzzles could not be loaded: ${error.message}`));
    return;
  }
  title.textContent = `${info.title} puzzles`;
  document.title = `Umtali · ${info.title} puzzles`;
  const asked = Number.parseInt(params.get("puzzle") || "", 10);
  const order = asked >= 1 && asked <= info.count ? [asked] : shuffled(info.count);
  const tally = { right: 0, asked: 0 };
  for (const number of order) {
    if (!(await show(number, info.count, tally))) return;
  }
  stage.replaceChildren(el("p", "summary", `You found ${tally.right} of ${tally.asked}.`));
}

/** Show puzzle `number`; resolve true once it is answered and the player goes on. */
async function show(number, count, tally) {
  let puzzle;
  try {
    puzzle = await api(`/api/puzzles/${game}/${number}`);
  } catch (error) {
    stage.replaceChildren(el("p", "error", `The puzzle could not be loaded: ${error.message}`));
    return false;
  }
  const box = el("section", "question puzzle");
  box.setAttribute("aria-label", `Puzzle ${puzzle.number}`);
  box.append(
    el("h2", "question-title", `Puzzle ${puzzle.number} of ${count}`),
    el("p", "facts", puzzle.facts.join(" ")),
    positionView(puzzle.position),
    el("p", "prompt", puzzle.prompt),
  );
  const list = el("div", "choices puzzle-moves");
  list.setAttribute("role", "group");
  list.setAttribute("aria-label", "Your move");
  const buttons = puzzle.options.map((option, index) => {
    const button = el("button", "choice puzzle-move");
    button.type = "button";
    button.dataset.index = String(index);
    button.append(el("span", "move-text", option.move));
    if (option.cards.length) {
      const cards = cardRow(option.cards);
      cards.setAttribute("aria-hidden", "true");
      button.append(cards);
    }
    list.append(button);
    return button;
  });
  box.append(list);
  stage.replaceChildren(box);
  buttons[0].focus({ preventScroll: true });
  const choice = await new Promise((resolve) => {
    for (const button of buttons) {
      button.addEventListener("click", () => resolve(Number(button.dataset.index)));
    }
  });
  for (const button of buttons) button.disabled = true;
  const right = choice === puzzle.answer;
  tally.asked += 1;
  if (right) tally.right += 1;
  buttons[choice].setAttribute("aria-pressed", "true");
  buttons[puzzle.answer].classList.add("best");
  buttons[puzzle.answer].append(el("span", "best-mark", "✓ best move"));
  box.classList.add(right ? "right" : "wrong");
  const best = puzzle.options[puzzle.answer].move;
  const answer = el("div", "verdict answer");
  answer.setAttribute("role", "status");
  answer.append(
    el("p", right ? "good" : "bad", right ? `Right: ${best} is the best move.` : `Not this time: the best move is ${best}.`),
    pointsTable(puzzle, choice),
    el("p", "explanation", puzzle.explanation),
  );
  box.append(answer);
  const next = el("button", "primary continue", "Next puzzle");
  next.type = "button";
  const actions = el("div", "actions");
  actions.append(next);
  box.append(actions);
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: "nearest" });
  await new Promise((resolve) => next.addEventListener("click", resolve, { once: true }));
  return true;
}

/** Each move's expected points, best first, the player's marked. */
function pointsTable(puzzle, choice) {
  const table = el("table", "score-table puzzle-points");
  table.append(el("caption", "", "Points each move is expected to win (your score minus your opponent's)"));
  const body = el("tbody");
  const order = puzzle.options.map((option, index) => ({ option, index }));
  order.sort((a, b) => b.option.expected - a.option.expected);
  for (const { option, index } of order) {
    const row = el("tr", index === choice ? "chosen" : "");
    const sign = option.expected >= 0 ? "+" : "−";
    row.append(
      el("th", "", index === choice ? `${option.move} (yours)` : option.move),
      el("td", "num", `${sign}${Math.abs(option.expected).toFixed(1)}`),
    );
    body.append(row);
  }
  table.append(body);
  return table;
}

load();

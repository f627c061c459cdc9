// /learn/klaberjass: how to play Klaberjass, a hand played with both hands open. The
// lesson is the server's (GET /api/klaberjass/howto/{n}): every move with the table
// before it, the choices it offers already judged, the lesson's move told and
// explained, and the score. This page only shows it and reads the clicks: a card of the
// player to move or a bid is looked up among the step's judged choices.

import { cardName, cardSvg } from "/static/js/cards.js";

const $ = (id) => document.getElementById(id);

/** An element with a class and text. */
function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** A card as a picture (named for screen readers by its aria-label). */
function picture(card) {
  return cardSvg(card);
}

let lesson = null;
let index = 0; // the step shown
let settled = false; // the step's move is played: Next goes on
let same = 0; // choices that were the lesson's move

async function load(number) {
  const reply = await fetch(`/api/klaberjass/howto/${number}`, { headers: { Accept: "application/json" } });
  if (!reply.ok) {
    let detail = `the server answered ${reply.status}`;
    try {
      detail = (await reply.json()).detail ?? detail;
    } catch {
      // not JSON: the status says enough
    }
    throw new Error(detail);
  }
  return reply.json();
}

function label(player) {
  return lesson.names[player] + (player === lesson.dealer ? " (dealer)" : "");
}

/** The facts beside the trick: the turned-up card or trump, and the bottom card. */
function facts(board) {
  const box = $("howto-facts");
  box.replaceChildren();
  const spot = (card, caption) => {
    const figure = el("figure", "howto-spot");
    figure.append(picture(card), el("figcaption", "", caption));
    return figure;
  };
  if (board.trump === null) {
    box.append(spot(board.turned, "turned up"));
  } else {
    const trump = el("p", "howto-trump");
    trump.append(el("strong", "", `Trump: ${board.trump_name}`), el("span", "", ` made by ${lesson.names[board.maker]}`));
    box.append(trump);
  }
  if (board.bottom !== null) box.append(spot(board.bottom, "last card of the stock"));
}

/** The table: both hands open, the cards of the player to move as buttons. */
function drawBoard(board, step) {
  facts(board);
  for (const player of [0, 1]) {
    $(`howto-name-${player}`).textContent = `${label(player)} · ${board.tricks[player]} ${board.tricks[player] === 1 ? "trick" : "tricks"}`;
    const hand = $(`howto-hand-${player}`);
    hand.replaceChildren();
    const choosing = step !== null && !settled && step.player === player;
    $(`howto-side-${player}`).classList.toggle("to-move", step !== null && step.player === player && board.to_move === player);
    for (const card of board.hands[player]) {
      if (choosing) {
        const button = el("button", "howto-card");
        button.type = "button";
        button.dataset.card = card;
        button.setAttribute("aria-label", `Play the ${cardName(card)}`);
        button.append(picture(card));
        button.addEventListener("click", () => choose(step.options.find((option) => option.card === card)));
        hand.append(button);
      } else {
        const span = el("span", "howto-card");
        span.dataset.card = card;
        span.append(picture(card));
        hand.append(span);
      }
    }
    if (!board.hands[player].length) hand.append(el("p", "muted", "no cards"));
  }
  const trick = $("howto-trick");
  trick.replaceChildren();
  if (board.phase === "play" || board.trick.length) {
    if (!board.trick.length) trick.append(el("p", "muted", "No card on the table."));
    // The last card on the table is the mover's once his move is played, else the other's.
    const lastBy = settled && step.answer_card !== null ? step.player : 1 - step.player;
    board.trick.forEach((card, i) => {
      const who = (board.trick.length - 1 - i) % 2 === 0 ? lastBy : 1 - lastBy;
      const figure = el("figure");
      figure.append(picture(card), el("figcaption", "", lesson.names[who]));
      trick.append(figure);
    });
  }
  $("howto-points").textContent = board.phase === "play" || board.phase === "over"
    ? `Points in tricks: ${lesson.names[0]} ${board.points[0]}, ${lesson.names[1]} ${board.points[1]}`
    : "";
}

/** The table once a card is played: the card moved from the hand to the trick. */
function afterCard(board, player, card, next) {
  const hands = board.hands.map((cards, p) => (p === player ? cards.filter((c) => c !== card) : cards));
  // A trick done is counted already: the points and tricks are the next table's.
  return { ...board, hands, trick: [...board.trick, card], points: next.points, tricks: next.tricks };
}

function showStep() {
  const step = lesson.steps[index];
  settled = false;
  $("howto-progress").textContent = `Move ${step.number} of ${lesson.steps.length}`;
  $("howto-before").textContent = step.before;
  $("howto-ask").textContent = step.ask;
  $("howto-verdict").textContent = "";
  $("howto-verdict").className = "howto-verdict";
  $("howto-told").hidden = true;
  $("howto-next").hidden = true;
  $("howto-show").hidden = false;
  $("howto-help").textContent = step.words.length
    ? "Choose a bid below (a card of the player to move is refused in the bidding, with the reason)."
    : `Click a card of ${lesson.names[step.player]}'s.`;
  const words = $("howto-words");
  words.replaceChildren();
  for (const word of step.words) {
    const button = el("button", "", word);
    button.type = "button";
    button.dataset.move = word;
    button.addEventListener("click", () => choose(step.options.find((option) => option.move === word)));
    words.append(button);
  }
  drawBoard(step.board, step);
}

/** A choice (an option of the step, or null: show the lesson's move) judged. */
function choose(option) {
  if (settled) return;
  const step = lesson.steps[index];
  const verdict = $("howto-verdict");
  if (option === null || option === undefined) {
    verdict.textContent = step.shown;
    verdict.className = "howto-verdict";
  } else {
    verdict.textContent = option.message;
    verdict.className = `howto-verdict ${option.kind}`;
    if (option.kind === "illegal" || option.kind === "unreadable") {
      verdict.scrollIntoView({ block: "nearest" }); // on a phone the verdict is below the table
      return; // choose again
    }
    if (option.kind === "same") same += 1;
  }
  settle(step);
}

function settle(step) {
  settled = true;
  $("howto-words").replaceChildren();
  $("howto-help").textContent = "";
  $("howto-show").hidden = true;
  $("howto-move").textContent = step.told;
  const why = $("howto-why");
  why.replaceChildren(...step.why.map((line) => el("li", "", line)));
  $("howto-told").hidden = false;
  const last = index === lesson.steps.length - 1;
  const next = last ? lesson.end_board : lesson.steps[index + 1].board;
  // A card stays on the table until the Next move; a bid shows the table it makes.
  const board = step.answer_card !== null ? afterCard(step.board, step.player, step.answer_card, next) : next;
  drawBoard(board, step);
  const button = $("howto-next");
  button.textContent = last ? "See the score" : "Next move";
  button.hidden = false;
  button.focus();
}

function showEnd() {
  $("howto-stage").hidden = true;
  $("howto-ending").replaceChildren(...lesson.ending.map((line) => el("li", "", line)));
  $("howto-summary").replaceChildren(...lesson.summary.map((line) => el("li", "", line)));
  const total = lesson.steps.length;
  $("howto-tally").textContent = `You chose the lesson's move at ${same} of ${total} moves.`;
  const end = $("howto-end");
  end.hidden = false;
  end.focus();
}

function start() {
  index = 0;
  same = 0;
  $("howto-end").hidden = true;
  $("howto-opening").hidden = true;
  $("howto-stage").hidden = false;
  showStep();
  $("howto-progress").scrollIntoView({ block: "start" });
}

function showOpening() {
  const opening = $("howto-opening");
  const heading = el("h2", "", `Lesson ${lesson.number}: ${lesson.title}`);
  const button = el("button", "primary", "Deal");
  button.type = "button";
  button.id = "howto-start";
  button.addEventListener("click", start);
  opening.replaceChildren(heading, ...lesson.intro.map((line) => el("p", "intro", line)), button);
}

async function main() {
  $("howto-show").addEventListener("click", () => choose(null));
  $("howto-next").addEventListener("click", () => {
    if (index === lesson.steps.length - 1) {
      showEnd();
      return;
    }
    index += 1;
    showStep();
  });
  $("howto-again").addEventListener("click", start);
  try {
    lesson = await load(1);
  } catch (error) {
    $("howto-opening").replaceChildren(el("p", "error", `The lesson could not be loaded: ${error.message}`));
    return;
  }
  showOpening();
}

main();

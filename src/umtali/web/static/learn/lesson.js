// /learn: the four lesson hands of the rule book. The lesson is the server's script of
// events (GET /api/lessons/{n}); this page shows them in order, stops at each question
// until it is answered (graded by the server, as the terminal grades it) and at the end
// of each turn until the learner goes on.

import {
  answerForm,
  api,
  boardView,
  bullets,
  cardRow,
  continueButton,
  el,
  scoresView,
  sentence,
} from "./common.js";

const NAMES = ["Player 1", "Player 2"];
// The kinds of question answered with cards: a click on a card of the hand adds it.
const CARD_KINDS = new Set(["plays", "best_plays", "overlapped", "discard"]);

const chooser = document.getElementById("chooser");
const stage = document.getElementById("stage");

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

async function showChooser() {
  chooser.replaceChildren(el("p", "muted", "Loading the lessons…"));
  let list;
  try {
    list = await api("/api/lessons");
  } catch (error) {
    chooser.replaceChildren(el("p", "error", `The lessons could not be loaded: ${error.message}`));
    return [];
  }
  const items = el("ol", "lesson-list");
  for (const lesson of list.lessons) {
    const button = el(
      "button",
      "lesson-choice",
      el("strong", "", `Lesson ${lesson.number}`),
      el("span", "", lesson.title),
      el("span", "muted", plural(lesson.questions, "question")),
    );
    button.type = "button";
    button.dataset.lesson = String(lesson.number);
    button.addEventListener("click", () => start(lesson.number));
    items.append(el("li", "", button));
  }
  chooser.replaceChildren(el("h2", "", "Choose a lesson"), items);
  return list.lessons.map((lesson) => lesson.number);
}

/** Run lesson `number` from its first event. */
async function start(number) {
  const url = new URL(window.location.href);
  url.searchParams.set("lesson", String(number));
  window.history.replaceState(null, "", url);
  chooser.hidden = true;
  stage.replaceChildren(el("p", "muted", "Loading the lesson…"));
  let script;
  try {
    script = await api(`/api/lessons/${number}`);
  } catch (error) {
    stage.replaceChildren(el("p", "error", `The lesson could not be loaded: ${error.message}`));
    chooser.hidden = false;
    return;
  }
  stage.replaceChildren();
  const back = el("button", "back", "← All lessons");
  back.type = "button";
  back.addEventListener("click", () => {
    stage.replaceChildren();
    chooser.hidden = false;
    const home = new URL(window.location.href);
    home.searchParams.delete("lesson");
    window.history.replaceState(null, "", home);
  });
  stage.append(back);
  await play(number, script.events);
}

/** Show the events one after another; questions and pauses wait for the learner. */
async function play(number, events) {
  const tally = { asked: 0, right: 0, skipped: 0 };
  let box = stage; // where events go: the current turn's section
  let turn = null;
  let held = null; // the hand shown by the last "holds" event of this turn
  let board = null; // the last board shown
  let moves = null; // the list the moves of the turn go in

  for (const event of events) {
    if (event.type !== "play") moves = null;
    switch (event.type) {
      case "opening":
        stage.append(
          el("h2", "lesson-title", `Lesson ${event.number}: ${event.title}`),
          el("p", "intro", event.intro),
        );
        break;
      case "turn": {
        if (turn) turn.open = false;
        turn = el("details", "turn");
        turn.open = true;
        turn.append(el("summary", "", `Turn ${event.number} · ${event.label}`));
        box = el("div", "turn-body");
        box.append(el("p", "note", event.note));
        turn.append(box);
        stage.append(turn);
        held = null;
        break;
      }
      case "play":
        if (!moves) {
          moves = el("ul", "moves");
          box.append(moves);
        }
        moves.append(el("li", "", event.sentence));
        break;
      case "holds":
        held = event.hand;
        box.append(el("p", "holds", `${event.name} now holds:`), cardRow(event.hand, { overlap: true }));
        break;
      case "board":
        board = event.board;
        if (event.caption) box.append(el("h3", "board-caption", event.caption));
        box.append(boardView(event.board, NAMES));
        break;
      case "ask": {
        tally.asked += 1;
        const picks = CARD_KINDS.has(event.question.kind)
          ? held ?? (board && board.to_move !== null ? board.hands[board.to_move] : [])
          : [];
        const reply = await ask(box, event, tally.asked, number, picks);
        if (reply.status === "skipped") tally.skipped += 1;
        if (reply.verdict && reply.verdict.correct) tally.right += 1;
        break;
      }
      case "narrate":
        box.append(bullets(event.points, "narration"));
        break;
      case "pause":
        await continueButton(box, "Next turn");
        break;
      case "hand_over":
        if (turn) turn.open = false;
        box = stage;
        stage.append(el("h3", "hand-over", "The hand is over."));
        break;
      case "scores":
        box.append(el("h3", "", "The score, column by column"), scoresView(event.scores));
        break;
      case "summary":
        summary(event, tally);
        break;
      default:
        break;
    }
  }
}

/** Put one question and wait until it is settled; show the verdict as the terminal does. */
function ask(box, event, count, number, picks) {
  const { question } = event;
  const card = el("section", "question");
  card.setAttribute("aria-label", `Question ${count}`);
  card.append(el("h3", "question-title", `Question ${count}`), el("p", "prompt", question.prompt));
  box.append(card);
  return new Promise((resolve) => {
    const form = answerForm(
      question,
      (text, tries) =>
        api(`/api/lessons/${number}/questions/${event.index}/answer`, { body: { answer: text, tries } }),
      async (reply) => {
        card.append(feedback(reply));
        card.classList.add(reply.verdict && reply.verdict.correct ? "right" : "wrong");
        // The lesson goes on once the verdict is read, not under it.
        await continueButton(card, "Continue");
        resolve(reply);
      },
      { picks },
    );
    card.append(form);
    form.focusFirst();
    card.scrollIntoView({ block: "nearest" });
  });
}

/** The verdict of a settled question: right or not, the answer, what was wrong, why. */
function feedback(reply) {
  const box = el("div", "feedback");
  box.setAttribute("role", "status");
  const { verdict } = reply;
  if (verdict.read_as) box.append(el("p", "muted", `Read as: ${verdict.read_as}`));
  if (reply.status === "graded" && verdict.correct) {
    box.append(el("p", "verdict good", `Right: ${sentence(verdict.answer)}`));
  } else if (reply.status === "graded") {
    box.append(el("p", "verdict bad", `Not quite. The answer: ${sentence(verdict.answer)}`));
    if (verdict.mistakes.length) box.append(bullets(verdict.mistakes, "mistakes"));
  } else {
    if (reply.message) box.append(el("p", "warning", reply.message));
    box.append(el("p", "verdict", reply.status === "skipped" ? "Skipped." : "Here is the answer."));
    box.append(el("p", "answer", `The answer: ${sentence(verdict.answer)}`));
  }
  const reasons = [...verdict.reasons];
  if (reply.why) reasons.push(reply.why);
  if (reasons.length) box.append(bullets(reasons, "reasons"));
  return box;
}

function summary(event, tally) {
  const box = el("section", "summary");
  box.append(
    el("p", "", `The game after hand ${event.number}: Player 1 ${event.totals[0]}, Player 2 ${event.totals[1]}.`),
    el("h3", "", "What to remember"),
    bullets(event.points),
  );
  let line = `You answered ${tally.right} of ${plural(tally.asked, "question")} correctly`;
  if (tally.skipped) line += ` (${tally.skipped} skipped)`;
  box.append(el("p", "tally", `${line}.`));
  const actions = el("div", "actions");
  if (event.next_lesson !== null) {
    const next = el("button", "primary", `Next: lesson ${event.next_lesson}`);
    next.type = "button";
    next.addEventListener("click", () => start(event.next_lesson));
    actions.append(next);
  } else {
    const quiz = el("a", "button primary", "Take the quiz");
    quiz.href = "/quiz";
    actions.append(quiz);
  }
  const again = el("button", "", "Choose another lesson");
  again.type = "button";
  again.addEventListener("click", () => {
    stage.replaceChildren();
    chooser.hidden = false;
    chooser.querySelector("button")?.focus();
  });
  actions.append(again);
  box.append(actions);
  stage.append(box);
  (actions.querySelector("button, a") ?? box).focus();
  box.scrollIntoView({ block: "nearest" });
}

// A link to /learn?lesson=2 opens that lesson at once.
const asked = Number(new URLSearchParams(window.location.search).get("lesson"));
const numbers = await showChooser();
if (numbers.includes(asked)) start(asked);

// /quiz: the book's twelve self-test questions (GET /api/quiz), one at a time, each
// graded by the server as the terminal grades it, and the score with the reasons for
// every miss at the end.

import { answerForm, api, bullets, continueButton, el, positionView } from "./common.js";

// The kinds of answer written as groups of cards separated by commas (plays on the table).
const GROUP_KINDS = new Set(["surface"]);

const stage = document.getElementById("quiz");
const title = document.getElementById("quiz-title");
const intro = document.getElementById("quiz-intro");

async function load() {
  stage.replaceChildren(el("p", "muted", "Loading the quiz…"));
  let quiz;
  try {
    quiz = await api("/api/quiz");
  } catch (error) {
    stage.replaceChildren(el("p", "error", `The quiz could not be loaded: ${error.message}`));
    return;
  }
  title.textContent = quiz.title;
  document.title = `Umtali · ${quiz.title}`;
  intro.textContent = quiz.intro;
  stage.replaceChildren();
  const begin = el("div", "actions");
  stage.append(begin);
  await continueButton(begin, "Begin");
  await run(quiz.questions);
}

/** Ask every question in turn, then show the score. */
async function run(questions) {
  const results = [];
  for (const question of questions) {
    results.push(await ask(question, questions.length));
  }
  summary(results, questions.length);
}

/** Put one question, and resolve with its result once it is settled and the learner
 * goes on. */
function ask(question, total) {
  stage.replaceChildren();
  const card = el("section", "question");
  card.setAttribute("aria-label", `Question ${question.number}`);
  card.append(
    el("p", "quiz-progress", `Question ${question.number} of ${total} · ${question.topic}`),
    el("p", "prompt", question.prompt),
  );
  if (question.position) card.append(positionView(question.position));
  stage.append(card);
  return new Promise((resolve) => {
    const form = answerForm(
      question,
      (text, tries) => api(`/api/quiz/${question.number}/answer`, { body: { answer: text, tries } }),
      async (reply) => {
        card.append(feedback(reply));
        card.classList.add(reply.verdict.correct ? "right" : "wrong");
        const last = question.number === total;
        const next = el("div", "actions");
        card.append(next);
        await continueButton(next, last ? "See your score" : "Next question");
        resolve({ question, reply });
      },
      { picks: question.picks, groups: GROUP_KINDS.has(question.kind) },
    );
    card.append(form);
    form.focusFirst();
    window.scrollTo({ top: 0 });
  });
}

/** The verdict as ``umtali quiz`` gives it. */
function feedback(reply) {
  const box = el("div", "feedback");
  box.setAttribute("role", "status");
  const { verdict } = reply;
  if (reply.status === "graded" && verdict.read_as) {
    box.append(el("p", "muted", `Read as: ${verdict.read_as}`));
  }
  if (verdict.correct) {
    box.append(el("p", "verdict good", "Right."));
    return box;
  }
  if (reply.status === "skipped") {
    box.append(el("p", "verdict bad", "Skipped (counted as wrong)."));
  } else if (reply.status === "no_valid_answer") {
    if (reply.message) box.append(el("p", "warning", reply.message));
    box.append(
      el("p", "verdict bad", `No answer in the expected form after ${reply.tries} tries (counted as wrong).`),
    );
  } else {
    box.append(el("p", "verdict bad", "Wrong."));
    if (verdict.mistakes.length) box.append(bullets(verdict.mistakes, "mistakes"));
  }
  box.append(el("p", "answer", el("strong", "", "The answer: "), verdict.answer));
  if (verdict.reasons.length) box.append(el("p", "", "Why:"), bullets(verdict.reasons, "reasons"));
  return box;
}

const HOW = { skipped: "skipped", no_valid_answer: "no valid answer" };

function summary(results, total) {
  stage.replaceChildren();
  const right = results.filter((r) => r.reply.verdict.correct).length;
  const box = el("section", "summary");
  box.append(el("p", "score-line", `Score: ${right}/${total}`));
  const missed = results.filter((r) => !r.reply.verdict.correct);
  if (missed.length) {
    box.append(el("h2", "", "Questions missed"));
    const list = el("ol", "missed");
    for (const { question, reply } of missed) {
      const how = HOW[reply.status] ? ` (${HOW[reply.status]})` : "";
      const item = el("li", "", el("strong", "", `${question.topic}${how}`), ` — answer: ${reply.verdict.answer}`);
      item.value = question.number;
      const lines = [...reply.verdict.mistakes, ...reply.verdict.reasons];
      if (lines.length) item.append(bullets(lines));
      list.append(item);
    }
    box.append(list);
  } else {
    box.append(el("p", "good", "Every question right."));
  }
  const actions = el("div", "actions");
  const again = el("button", "primary", "Take the quiz again");
  again.type = "button";
  again.addEventListener("click", () => run(results.map((r) => r.question)));
  const lessons = el("a", "button", "Back to the lessons");
  lessons.href = "/learn";
  actions.append(again, lessons);
  box.append(actions);
  stage.append(box);
  again.focus();
}

load();

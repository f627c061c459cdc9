// What the three learning pages share: asking the API, drawing a board, a question's
// position and a score, and the form a question is answered in. (The boards of a
// replay are drawn by the module of the record's game, /static/games/<game>/replay.js:
// Umtali's with the board drawn here.)
//
// Every word about the game comes from the server (the learning layer): this module only
// lays it out. Cards arrive in ASCII ("10h") and are drawn by the game page's cards.js.

import { cardSvg, cardText } from "/static/js/cards.js";

/** A new element with a class and children (strings become text, never HTML). */
export function el(tag, className = "", ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** A sentence ending in a full stop, as the terminal prints verdicts. */
export function sentence(text) {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A sentence with a capital and a full stop ("game 1 totals: 159–110"). */
export function capitalSentence(text) {
  return sentence(`${text[0].toUpperCase()}${text.slice(1)}`);
}

/** The message a failed request carries: a Problem's detail, or FastAPI's list of what
 * is wrong with a body, or the status when the answer is no JSON at all. */
async function problemOf(response) {
  try {
    const body = await response.json();
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) return body.detail.map((item) => item.msg).join("; ");
  } catch {
    // not JSON: fall through to the status line
  }
  return `the server answered ${response.status} ${response.statusText}`;
}

/** GET or POST JSON at the API; throws an Error whose message is the server's reason. */
export async function api(path, { body, raw } = {}) {
  const options = { headers: { Accept: "application/json" } };
  if (body !== undefined || raw !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = raw !== undefined ? raw : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Error("the server cannot be reached: check that umtali serve is running, then try again");
  }
  if (!response.ok) throw new Error(await problemOf(response));
  return response.json();
}

/** A row of cards, drawn by cards.js. `overlap` fans them sideways, as in a hand. */
export function cardRow(cards, { overlap = false, label = "" } = {}) {
  const row = el("div", overlap ? "card-row fan" : "card-row");
  if (label) row.setAttribute("aria-label", label);
  for (const card of cards) row.append(cardSvg(card));
  return row;
}

/** One column of a side of the table: overlapped cards top-down, or one solo card with
 * the card it was played off. */
function columnView(column) {
  const box = el("div", `column column-${column.kind}`);
  const stack = el("div", "card-column");
  for (const card of column.cards) stack.append(cardSvg(card));
  const names = column.cards.map(cardText).join(" ");
  box.setAttribute("aria-label", `${column.kind} ${names}`);
  box.append(stack);
  const caption = column.played_off ? `off ${cardText(column.played_off)}` : column.kind;
  box.append(el("span", "column-caption", caption));
  return box;
}

/** A side of the table: its overlapped columns side by side, then its solo cards. */
export function sideView(columns, caption) {
  const side = el("div", "side");
  side.append(el("h4", "side-caption", caption));
  if (!columns.length) {
    side.append(el("p", "muted", "Nothing on the table yet."));
    return side;
  }
  const row = el("div", "columns");
  for (const column of columns.filter((c) => c.kind !== "solo")) row.append(columnView(column));
  for (const column of columns.filter((c) => c.kind === "solo")) row.append(columnView(column));
  side.append(row);
  return side;
}

/** The discard pile, bottom to top ({card, face_down} each); a card laid face down is
 * shown all the same (whoever watches holds every card), marked as such. */
export function pileView(pile) {
  const box = el("div", "pile");
  box.append(el("h4", "side-caption", `Discard pile (${pile.length})`));
  if (!pile.length) {
    box.append(el("p", "muted", "Empty."));
    return box;
  }
  const row = el("div", "card-row fan pile-cards");
  for (const { card, face_down: down } of pile) {
    const wrap = el("div", down ? "pile-card face-down" : "pile-card");
    const svg = cardSvg(card);
    if (down) svg.setAttribute("aria-label", `${svg.getAttribute("aria-label")}, laid face down`);
    wrap.append(svg);
    if (down) wrap.append(el("span", "down-mark", "down"));
    row.append(wrap);
  }
  box.append(row);
  return box;
}

/** A whole board (both hands face up, both sides, pile and stock). `names` are the
 * players' names, Player 1 first. */
export function boardView(board, names) {
  const view = el("div", "board");
  const facts = [`Stock: ${board.stock}`, `Dealer: ${names[board.dealer]}`];
  if (board.to_move !== null) facts.push(`To move: ${names[board.to_move]}`);
  else facts.push("The hand is over");
  view.append(el("p", "board-facts", facts.join(" · ")));
  for (const player of [0, 1]) {
    const seat = el("section", "seat");
    const hand = board.hands[player];
    const count = board.points === null ? 0 : board.points[player];
    const points = board.points === null ? "" : ` · ${count} point${count === 1 ? "" : "s"} on the table`;
    seat.append(el("h4", "seat-name", `${names[player]}${points}`));
    const handBox = el("div", "hand");
    handBox.append(el("span", "hand-caption", `Hand (${hand.length})`));
    handBox.append(hand.length ? cardRow(hand, { overlap: true }) : el("span", "muted", "empty"));
    seat.append(handBox);
    seat.append(sideView(board.tables[player], "Table"));
    view.append(seat);
  }
  view.append(pileView(board.pile));
  return view;
}

/** What a question shows: a note, sides of the table, a hand, a pile (null for a card
 * that lies face down). */
export function positionView(position) {
  const view = el("div", "position");
  if (position.note) view.append(el("p", "muted", position.note));
  for (const side of position.sides) view.append(sideView(side.columns, side.caption));
  if (position.hand) {
    view.append(el("h4", "side-caption", position.hand_caption));
    view.append(cardRow(position.hand, { overlap: true }));
  }
  if (position.pile && !position.pile.length) {
    // No card discarded yet: say so, rather than a caption over nothing.
    view.append(el("h4", "side-caption", "Discard pile"), el("p", "muted", "Nothing discarded yet."));
  } else if (position.pile) {
    view.append(el("h4", "side-caption", position.pile_caption));
    const row = el("div", "card-row fan pile-cards");
    for (const card of position.pile) {
      row.append(card === null ? cardSvg("", { faceDown: true }) : cardSvg(card));
    }
    view.append(row);
  }
  return view;
}

/** A hand's score, column by column, each player's in a table of its own. */
export function scoresView(scores) {
  const view = el("div", "scores");
  for (const side of scores.sides) {
    const table = el("table", "score-table");
    table.append(el("caption", "", `${side.label}: ${side.score}`));
    const body = el("tbody");
    for (const line of side.lines) {
      const row = el("tr");
      row.append(
        el("th", "", line.what),
        el("td", "", line.cards),
        el("td", "num", line.values ? `${line.values} =` : ""),
        el("td", "num", String(line.points)),
      );
      body.append(row);
    }
    table.append(body);
    view.append(table);
  }
  view.append(el("p", "result", scores.result));
  return view;
}

/** Bullet points. */
export function bullets(lines, className = "") {
  const list = el("ul", className);
  for (const line of lines) list.append(el("li", "", sentence(line)));
  return list;
}

let formCount = 0;

/**
 * The form a question is answered in: its choices as buttons (if any), a text box, and
 * Answer and Skip buttons. `send(text, tries)` asks the server to grade; the server's
 * reply comes back to `done(reply)` once it settles the question (graded, skipped, or
 * out of tries). An answer it cannot read is shown under the box, and the box asked again.
 * `picks` are cards a click adds to the answer (the hand the question is about);
 * `groups`, whether the answer is groups of them, separated by commas.
 */
export function answerForm(question, send, done, { picks = [], groups = false } = {}) {
  formCount += 1;
  const id = `answer-${formCount}`;
  const form = el("form", "answer-form");
  form.noValidate = true;
  let tries = 0;
  const label = el("label", "answer-label", question.answer_prompt.replace(/[:\s]+$/, ""));
  label.htmlFor = id;
  const input = el("input", "answer-input");
  input.id = id;
  input.type = "text";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.maxLength = 500;
  // What an answer looks like: shown first only where the format is new to a learner
  // (the terminal shows it then, and otherwise with a message about an unreadable answer).
  const hint = el("p", "hint", question.format_first ? question.expects : "");
  hint.id = `${id}-hint`;
  input.setAttribute("aria-describedby", hint.id);
  const message = el("p", "form-message");
  message.setAttribute("role", "status");
  const answer = el("button", "primary", "Answer");
  answer.type = "submit";
  const skip = el("button", "", "Skip");
  skip.type = "button";

  if (question.choices.length) {
    const short = question.choices.every(([, text]) => !text);
    const choices = el("div", short ? "choices short" : "choices");
    for (const [key, text] of question.choices) {
      // A choice with no words besides its key (a quiz's yes or no) shows the key alone.
      const button = text
        ? el("button", "choice", el("strong", "", key), ` ${text}`)
        : el("button", "choice", key);
      button.type = "button";
      button.addEventListener("click", () => submit(key));
      choices.append(button);
    }
    form.append(choices);
  }
  if (picks.length) {
    // Toggle buttons for the cards involved; the answer is built from the pressed ones
    // in the order clicked, and shown in words as it grows. With `groups`, Next group
    // closes a group: the groups are written separated by commas.
    const row = el("div", "picks");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", "Cards to choose from");
    let chosen = [[]]; // the groups, each in the order clicked (any order is read)
    const built = el("p", "built-answer", "Your answer: (no cards chosen)");
    built.setAttribute("aria-live", "polite");
    const written = (name) => {
      const text = chosen.filter((group) => group.length).map((group) => group.map(name).join(" "));
      const open = chosen.length > 1 && !chosen[chosen.length - 1].length;
      return text.join(", ") + (open ? ", " : "");
    };
    const sync = () => {
      input.value = written((card) => card);
      const shown = written(cardText);
      built.textContent = shown ? `Your answer: ${shown}` : "Your answer: (no cards chosen)";
    };
    const toggle = (card, button) => {
      const group = chosen.find((cards) => cards.includes(card));
      if (group) {
        group.splice(group.indexOf(card), 1);
        chosen = chosen.filter((cards, i) => cards.length || i === chosen.length - 1);
      } else {
        chosen[chosen.length - 1].push(card);
      }
      button.setAttribute("aria-pressed", String(!group));
      sync();
    };
    for (const card of picks) {
      const button = el("button", "pick");
      button.type = "button";
      button.setAttribute("aria-label", cardText(card));
      button.setAttribute("aria-pressed", "false");
      button.append(cardSvg(card));
      button.addEventListener("click", () => toggle(card, button));
      row.append(button);
    }
    const actions = el("div", "actions");
    if (groups) {
      const next = el("button", "", "Next group");
      next.type = "button";
      next.addEventListener("click", () => {
        if (chosen[chosen.length - 1].length) chosen.push([]);
        sync();
      });
      actions.append(next);
    }
    const clear = el("button", "", "Clear");
    clear.type = "button";
    clear.addEventListener("click", () => {
      chosen = [[]];
      for (const button of row.querySelectorAll(".pick")) button.setAttribute("aria-pressed", "false");
      sync();
    });
    actions.append(clear);
    const how = groups
      ? "Choose the cards, one group at a time (press Next group between groups), then press Answer:"
      : "Choose the cards, then press Answer:";
    form.append(el("p", "muted", how), row, built, actions);
  }
  const line = el("div", "answer-line", input, answer, skip);
  form.append(label, line, hint, message);

  let busy = false;
  async function submit(text) {
    if (busy) return;
    busy = true;
    answer.disabled = skip.disabled = true;
    try {
      const reply = await send(text, tries);
      tries = reply.tries;
      if (reply.status === "unreadable") {
        message.textContent = reply.message;
        message.className = "form-message warning";
        input.focus();
        input.select();
        return;
      }
      for (const button of form.querySelectorAll("button, input")) button.disabled = true;
      form.classList.add("answered");
      done(reply, text);
    } catch (error) {
      message.textContent = `The answer could not be graded: ${error.message}`;
      message.className = "form-message warning";
    } finally {
      busy = false;
      if (!form.classList.contains("answered")) answer.disabled = skip.disabled = false;
    }
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(input.value);
  });
  skip.addEventListener("click", () => submit("skip"));
  form.focusFirst = () => input.focus();
  return form;
}

/** A button that resolves `promise`-style once clicked, focused so Enter presses it. */
export function continueButton(parent, text) {
  return new Promise((resolve) => {
    const button = el("button", "primary continue", text);
    button.type = "button";
    button.addEventListener("click", () => {
      button.remove();
      resolve();
    });
    parent.append(button);
    button.focus({ preventScroll: true });
    button.scrollIntoView({ block: "nearest" });
  });
}

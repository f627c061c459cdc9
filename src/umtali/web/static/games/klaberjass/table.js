// Klaberjass's table in the seat page, as the page loads a game's table by its name
// (js/main.js). It draws what the server sends the seat (a SeatState whose `game` is
// "klaberjass": the KlaberjassView in `view`, and in `klaberjass` the score sheet with
// the pot and the end of the last hand) and sends moves in notation: take, pass,
// "name ♥", exchange, keep, schmeiss, accept, refuse, "play 9♥". Its markup is
// table.html, its style sheet table.css.
//
// The server holds the truth and this page holds no rule: every button and every card
// that can be clicked is one of the seat's legal moves, exactly as the state lists them.
// What every seat's table does whatever the game (the connection, presence, the end of
// a hand, the result, the record) is SeatPage's (seat_page.js).

import { api } from "/static/js/api.js";
import { cardName, cardText, readableMove, suitPlace, suitSymbol } from "/static/js/cards.js";
import { byId, capitalSentence, el, plural } from "/static/js/dom.js";
import { showDealSeal } from "/static/js/fairness.js";
import { focusAmong, steppedTo } from "/static/js/keys.js";
import { rememberGame } from "/static/js/prefs.js";
import { SeatPage } from "/static/js/seat_page.js";
import { sheetTable } from "/static/js/sheet.js";

const NATURAL = ["A", "K", "Q", "J", "10", "9", "8", "7"]; // a suit's cards as a hand shows them
const SUIT_LETTER = { clubs: "c", diamonds: "d", hearts: "h", spades: "s" };
const SYMBOL_LETTER = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" };
const SUIT_WORD = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
export const HOW = { made: "made", failed: "failed", tied: "tied", thrown_in: "thrown in" };

/** The style sheet the table needs beside the shared ones. */
export const styleSheet = "/static/games/klaberjass/table.css";

/** A move's text as typed in ASCII ("play 9♥" -> "play 9h", "name ♥" -> "name h"). */
function asciiMove(move) {
  return move.replace(/[♣♦♥♠]/g, (symbol) => SYMBOL_LETTER[symbol]);
}

/** A hand's cards as shown: by suit (spades, hearts, diamonds, clubs), each from its ace down. */
function sortHand(cards) {
  const rank = (card) => NATURAL.indexOf(card.slice(0, -1));
  return [...cards].sort((a, b) => suitPlace(a) - suitPlace(b) || rank(a) - rank(b));
}

/** `name` and `verb` (written for "he"), in the second person for "You": "You lead", "Ann leads". */
function says(name, verb) {
  return name === "You" ? `You ${verb.replace(/s$/, "")}` : `${name} ${verb}`;
}

/** A sentence from the server, with its full stop. */
function sentence(line) {
  return /[.!?]$/.test(line) ? line : `${line}.`;
}

/** One seat's table of Klaberjass, from its secret (the path /seat/{secret}). */
export class KlaberjassTablePage extends SeatPage {
  constructor(secret, { fourColour = false } = {}) {
    super(secret, { prefix: "kj-", titleId: "kj-title", fourColour, recordName: "klaberjass-game" });
  }

  // -- lifecycle ------------------------------------------------------------------------

  wire() {
    document.addEventListener("keydown", (event) => this.shortcut(event));
    this.part("hand").addEventListener("keydown", (event) => this.handKey(event));
  }

  /** A state from the server: kept if it is not older than the one shown. */
  accept(state) {
    if (!state || state.type !== "state") return;
    if (this.state && state.version < this.state.version) return;
    this.state = state;
    rememberGame(window.location.pathname, `Klaberjass against ${this.opponentName()}`, state.over);
    this.render();
  }

  // -- what may be done now --------------------------------------------------------------

  legal() {
    const { state } = this;
    if (!state || !state.your_turn || this.pending || state.handed_over) return [];
    return state.legal;
  }

  /** The moves offered as buttons: every legal move but a card's play. */
  offered() {
    return this.legal().filter((move) => !move.startsWith("play "));
  }

  /** The legal play of `card` (ASCII, "9h"), as the state lists it, or null. */
  playOf(card) {
    return this.legal().find((move) => move.startsWith("play ") && asciiMove(move) === `play ${card}`) ?? null;
  }

  suitNamed(name) {
    const letter = SUIT_LETTER[name] ?? name;
    return `${suitSymbol(letter)} ${SUIT_WORD[letter] ?? letter}`;
  }

  label(move) {
    const view = this.state.view;
    const [verb, what] = move.split(" ");
    const turned = view.turned ?? view.turned_up;
    const turnedSuit = turned ? this.suitNamed(turned.slice(-1)) : "the turned-up suit";
    if (verb === "take") return `Take ${turnedSuit} as trump`;
    if (verb === "pass") return "Pass";
    if (verb === "name") return `Name ${this.suitNamed(SYMBOL_LETTER[what] ?? what)}`;
    if (verb === "exchange") return `Exchange for the ${cardText(turned)}`;
    if (verb === "keep") return "Keep it";
    if (verb === "schmeiss") return "Offer schmeiss";
    if (verb === "accept") return "Accept: throw the hand in";
    if (verb === "refuse") return "Refuse: he makes trump";
    return readableMove(asciiMove(move));
  }

  /** A card of the hand clicked: played if it may be, else the reason why not. */
  choose(card) {
    this.focusKey = `kj-hand:${card}`;
    if (!this.state?.your_turn) {
      this.say("info", `It is ${this.opponentName()}'s turn.`);
      return;
    }
    const move = this.playOf(card);
    if (move) {
      this.play(move, `kj-hand:${card}`);
      return;
    }
    if (this.offered().length) {
      this.say("info", "No card is played before the bidding and the exchange are over: choose one of the moves below.");
      return;
    }
    this.explain(`play ${card}`);
  }

  // A card no move uses: asked of the server, whose reason is the engine's.
  async explain(move) {
    try {
      const answer = await api.why(this.secret, move);
      if (!answer.legal) this.say("error", answer.reason ?? `${readableMove(move)} is not a move now.`, answer.rule);
    } catch (error) {
      this.say("error", error.message);
    }
  }

  /** A move played: its sentence said. */
  played(answer) {
    this.message = { kind: "info", text: sentence(answer.sentence) };
  }

  /** A hint: its button or card marked; the sentence to say. */
  takeHint(answer) {
    this.hinted = answer.move;
    return `Hint: ${readableMove(asciiMove(answer.move))}. ${capitalSentence(answer.why)}`;
  }

  // -- keys ------------------------------------------------------------------------------

  handKey(event) {
    const button = event.target.closest("button[data-card]");
    if (!button) return;
    const buttons = [...this.part("hand").querySelectorAll("button[data-card]")];
    const next = steppedTo(event.key, buttons, buttons.indexOf(button));
    if (!next) return;
    event.preventDefault();
    focusAmong(buttons, next);
  }

  shortcut(event) {
    if (!this.isShortcut(event)) return;
    const key = event.key.toLowerCase();
    const offered = this.offered();
    let handled = true;
    if (/^[1-9]$/.test(key)) {
      const move = offered[Number(key) - 1];
      if (move) this.play(move, `kj-action:${Number(key) - 1}`);
    } else if (key === "p") {
      if (this.legal().includes("pass")) this.play("pass");
      else this.say("info", "Passing is not a move now.");
    } else if (key === "h") {
      this.hint();
    } else if (key === "escape") {
      if (!this.message) handled = false;
      this.message = null;
      this.render();
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  }

  // -- drawing ---------------------------------------------------------------------------

  renderBoard() {
    this.renderTurn();
    showDealSeal(this.part("seal"), this.state, { fourColour: this.fourColour });
    this.renderOpponent();
    this.renderTrump();
    this.renderTurned();
    this.renderBottom();
    this.renderTrick();
    this.renderTally();
    this.renderRecap();
    this.renderHand();
    this.renderActions();
  }

  /** A key whose button is gone gives the focus to the hand (every key of this table). */
  focusFallsToHand(focusKey) {
    return focusKey.startsWith("kj-");
  }

  renderTurn() {
    const { state } = this;
    const view = state.view;
    const opponent = this.opponentName();
    let text;
    if (state.over) text = "The game is over."; // who won it: the result under this line
    else if (state.handed_over) text = "The computer is playing your seat.";
    else if (!state.your_turn) text = this.pending ? `${opponent} is moving…` : `${opponent} to move.`;
    else if (view.phase === "bid1") text = state.legal.includes("schmeiss") ? "Your bid: take, pass or schmeiss." : "Your bid: take the turned-up suit as trump, or pass.";
    else if (view.phase === "bid2") text = "Your bid: name another suit as trump, or pass.";
    else if (view.phase === "schmeiss") text = `${this.opponentName()} offers schmeiss: accept or refuse it.`;
    else if (view.phase === "exchange") text = "You hold the 7 of trump.";
    else text = view.trick.length ? "Your turn: play a card to the trick." : "Your lead: play a card.";
    const node = byId("kj-turn");
    node.textContent = text;
    node.classList.toggle("yours", state.your_turn && !state.over);
  }

  renderOpponent() {
    byId("kj-opponent-name").textContent = this.opponentName();
    this.renderOpponentHand(this.state.view.other_cards, []);
    // His points and tricks in the same line as his cards, wrapping beside the fan.
    const points = this.pointsOf(1 - this.state.seat);
    const note = this.part("opponent-hand").querySelector(".note");
    if (points && note) note.textContent = `${note.textContent} · ${points}`;
    this.renderPresence();
  }

  /** A player's points and tricks in the play under way ("" before it begins), shown by
   * his name, so that the score of the hand is in view beside the cards. */
  pointsOf(player) {
    const view = this.state.view;
    if (view.phase !== "play" && view.phase !== "over") return "";
    if (view.phase === "over" && !view.trump) return "";
    return `${plural(view.points[player], "point")}, ${plural(view.tricks_won[player], "trick")}`;
  }

  /** Trump and its maker, or the bidding under way; and the ranking (who deals is in the title). */
  renderTrump() {
    const { state } = this;
    const view = state.view;
    const names = state.names;
    const ranking = `${state.klaberjass?.ranking ?? view.ranking} ranking`;
    let head;
    let line;
    if (view.trump) {
      head = `Trump: ${this.suitNamed(view.trump)}`;
      line = view.maker >= 0 ? names[view.maker] : "";
    } else if (view.phase === "over") {
      head = "No trump";
      line = "the hand was thrown in";
    } else {
      head = view.phase === "bid2" ? "Bidding, second round" : "Bidding, first round";
      line = ranking;
    }
    const box = byId("kj-trump");
    box.classList.toggle("made", Boolean(view.trump));
    box.title = `${names[view.dealer]} dealt; the cards rank by the ${ranking}`;
    // "made by" is read out but, on a phone, not shown: trump then takes one line.
    const maker = view.trump && line ? [el("span", { className: "kj-verb", text: "made " }), "by "] : [];
    box.replaceChildren(el("strong", { text: head }), ...(line ? [el("span", { className: "note" }, ...maker, line)] : []));
  }

  /** The turned-up card while it lies on the table; after an exchange, the 7 given for
   * it; once it has left the table otherwise, nothing (the recap told where it went). */
  renderTurned() {
    const { state } = this;
    const view = state.view;
    const box = byId("kj-turned");
    box.hidden = false;
    box.removeAttribute("title");
    if (view.turned) {
      box.replaceChildren(this.card(view.turned), el("span", { className: "note", text: "Turned up" }));
    } else if (view.exchanged && view.given_seven) {
      const giver = view.exchanger >= 0 ? state.names[view.exchanger] : "The maker";
      box.title = `${giver} exchanged the ${cardText(view.given_seven)} for the ${cardText(view.turned_up)}`;
      box.replaceChildren(this.card(view.given_seven), el("span", { className: "note", text: `Given for the ${cardText(view.turned_up)}` }));
    } else {
      box.hidden = true;
      box.replaceChildren();
    }
  }

  /** The last card of the stock, once it is shown. */
  renderBottom() {
    const bottom = this.state.view.bottom;
    const box = byId("kj-bottom");
    box.hidden = !bottom;
    if (bottom) {
      box.title = "The last card of the stock, shown to both";
      box.replaceChildren(this.card(bottom), el("span", { className: "note", text: "Bottom card" }));
    }
  }

  /** The trick on the table, each card under the name of who played it. */
  renderTrick() {
    const { state } = this;
    const view = state.view;
    const box = byId("kj-trick");
    box.replaceChildren();
    // Before the play there is no trick: the turn's line says what the bidding asks.
    box.hidden = view.phase !== "play" && view.phase !== "over";
    if (view.phase !== "play" || !view.trick.length) {
      const text = view.phase === "play" ? `${says(state.names[view.leader], "leads")}.` : "The hand is over.";
      box.append(el("span", { className: "note", text }));
      return;
    }
    view.trick.forEach((card, index) => {
      const player = index === 0 ? view.leader : 1 - view.leader;
      const label = `${state.names[player]}${index === 0 ? " led" : ""}`;
      box.append(el("figure", { attrs: { "aria-label": `${label}: ${cardName(card)}` } }, this.card(card), el("figcaption", { text: label })));
    });
  }

  /** Each player's points and tricks in the hand, and the sequences and bella announced. */
  renderTally() {
    const { state } = this;
    const view = state.view;
    const names = this.headings();
    const table = el("table", { className: "kj-tally" });
    table.append(el("thead", {}, el("tr", {}, el("th", { text: "" }), el("th", { text: "Points" }), el("th", { text: "Tricks" }), el("th", { text: "Sequences" }), el("th", { text: "Bella" }))));
    const body = el("tbody");
    for (const player of [0, 1]) {
      body.append(el("tr", {}, el("th", { text: names[player], attrs: { scope: "row" } }), el("td", { text: String(view.points[player]) }), el("td", { text: String(view.tricks_won[player]) }), el("td", { text: String(view.sequence_points[player] || "–") }), el("td", { text: String(view.bella[player] || "–") })));
    }
    table.append(body);
    const parts = [el("h3", { text: "Points in this hand" }), table];
    const scorer = view.sequence_points[0] ? 0 : view.sequence_points[1] ? 1 : null;
    if (scorer !== null) {
      const line = el("p", { className: "kj-announce", text: `${says(state.names[scorer], "scores")} ${view.sequence_points[scorer]} for sequences` });
      if (view.sequence_cards.length) {
        const row = el("span", { className: "card-row", attrs: { role: "img", "aria-label": view.sequence_cards.map(cardName).join(", ") } });
        for (const card of sortHand(view.sequence_cards)) row.append(this.card(card));
        line.append(": ", row);
      } else {
        line.append(" (shown once the first trick is done)");
      }
      parts.push(line);
    }
    [0, 1].forEach((player) => {
      if (view.bella[player]) parts.push(el("p", { className: "kj-announce", text: `Bella: ${view.bella[player]} to ${state.names[player] === "You" ? "you" : state.names[player]}` }));
    });
    const [first, second] = view.totals;
    const pot = view.pot ? ` · pot ${view.pot}` : "";
    parts.push(el("p", { className: "note", text: `Game: ${names[0]} ${first}, ${names[1]} ${second}${pot} (to ${state.klaberjass?.sheet.target ?? 500})` }));
    byId("kj-tally").replaceChildren(...parts);
  }

  renderRecap() {
    const { state } = this;
    const theirs = state.recap.length ? state.recap : ["No move since yours."];
    const list = el("ul");
    for (const line of theirs) list.append(el("li", { text: sentence(line) }));
    byId("kj-recap").replaceChildren(el("h3", { text: `${this.opponentName()}, since your last move` }), list);
  }

  handOrder() {
    return sortHand(this.state?.view?.hand ?? []);
  }

  renderHand() {
    const { state } = this;
    const box = byId("kj-hand");
    box.replaceChildren();
    const order = this.handOrder();
    const playable = new Set(order.filter((card) => this.playOf(card)));
    const hintedCard = this.hinted?.startsWith("play ") ? asciiMove(this.hinted).split(" ")[1] : null;
    const focusCard = this.focusedCard(order);
    for (const card of order) {
      const idle = playable.size > 0 && !playable.has(card);
      const button = this.handButton(card, { chosen: card === hintedCard, idle, focusCard }, () => this.choose(card));
      if (playable.has(card)) button.title = `Play the ${cardName(card)}`;
      box.append(button);
    }
    if (!order.length) box.append(el("p", { className: "empty note", text: "No cards in hand." }));
    const count = state.view.hand.length;
    const some = playable.size > 0 && playable.size < count;
    const cards = some ? `${plural(count, "card")}, ${playable.size} you may play` : plural(count, "card");
    const points = this.pointsOf(state.seat);
    byId("kj-hand-info").textContent = points ? `${cards} · ${points}` : cards;
  }

  renderActions() {
    const { state } = this;
    const box = byId("kj-actions");
    box.replaceChildren();
    const tools = byId("kj-tools");
    tools.replaceChildren();
    if (state.over || !state.your_turn || state.handed_over) return;
    this.offered().forEach((move, index) => {
      const number = index < 9 ? `${index + 1}` : "";
      const primary = move === "take" || move.startsWith("name") || move === "exchange";
      const button = el("button", {
        className: `move${this.hinted === move ? " hinted" : ""}${primary ? " primary" : ""}`,
        attrs: { type: "button", "data-key": `kj-action:${index}`, "data-move": move, "aria-keyshortcuts": number || undefined, disabled: this.pending },
      });
      if (number) button.append(el("kbd", { text: number, attrs: { "aria-hidden": "true" } }));
      if (move.startsWith("name ")) {
        // On a phone the verb is read out but not shown: four bids then take two rows.
        button.append(el("span", { className: "kj-verb", text: "Name " }), this.label(move).replace(/^Name /, ""));
      } else {
        button.append(this.label(move));
      }
      button.addEventListener("click", () => this.play(move, `kj-action:${index}`));
      box.append(button);
    });
    if (!this.offered().length && this.legal().length) box.append(el("span", { className: "note", text: "Click a card to play it." }));
    // Hint sits by the hand's heading, so that the moves keep their row on a phone.
    const hint = el("button", { className: "quiet", text: "Hint", attrs: { type: "button", "data-key": "kj-hint", "aria-keyshortcuts": "H", disabled: this.pending } });
    hint.addEventListener("click", () => this.hint());
    tools.append(hint);
  }

  /** The score sheet: each finished hand's scores as added (a pot paid included), the totals and the pot. */
  renderScores() {
    const { state } = this;
    const sheet = state.klaberjass?.sheet;
    if (!sheet) return;
    const hands = sheet.hands.map(([points, how], index) => [`Hand ${index + 1} · ${HOW[how] ?? how}`, points]);
    const parts = [sheetTable(`To ${sheet.target}`, this.headings(), hands, [["Totals", sheet.totals]])];
    if (!sheet.hands.length) parts.push(el("p", { className: "note", text: "No hand finished yet." }));
    parts.push(el("p", { className: "note", text: sheet.pot ? `The pot: ${sheet.pot}, for the next hand's winner.` : "The pot is empty." }));
    byId("kj-scores").replaceChildren(...parts);
  }

  /** What Klaberjass adds to the end of a hand (hand_end.js draws both sides): each player's points by kind, and the pot. */
  handEnd() {
    const end = this.state.klaberjass?.hand_end;
    const extra = [];
    if (end && end.maker !== null) {
      const table = el("table", { className: "kj-end-table score-table" });
      const [first, second] = this.headings();
      table.append(el("thead", {}, el("tr", {}, el("td"), el("th", { text: first, attrs: { scope: "col" } }), el("th", { text: second, attrs: { scope: "col" } }))));
      const row = (label, [a, b]) => el("tr", {}, el("th", { text: label, attrs: { scope: "row" } }), el("td", { text: String(a) }), el("td", { text: String(b) }));
      table.append(el("tbody", {}, row("Cards and last trick", end.card_points), row("Sequences", end.sequences), row("Bella", end.bella), row("Total", end.totals), row("Scores", end.scores)));
      extra.push(el("details", { className: "kj-end-points" }, el("summary", { text: "Points by kind" }), table));
      if (end.to_pot) extra.push(el("p", { className: "note", text: `${end.to_pot} go to the pot.` }));
    }
    return { extra, soFar: this.soFar() };
  }

  soFar() {
    const sheet = this.state.klaberjass.sheet;
    const pot = sheet.pot ? ` The pot holds ${sheet.pot}.` : "";
    return `The game is played to ${sheet.target}.${pot}`;
  }

  finishedHands() {
    return this.state.klaberjass?.sheet.hands.length ?? 0;
  }
}

/** The page of a seat of Klaberjass. */
export function seatPage(secret, _first, { fourColour = false } = {}) {
  return new KlaberjassTablePage(secret, { fourColour });
}

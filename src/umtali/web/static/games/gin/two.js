// The table of one seat of Gin Rummy between two (table.js chooses it). It draws what the server sends the seat (a SeatState whose `game` is "gin": the GinView
// in `view`, and in `gin` the hand laid out in melds, the knock limit, the score sheet
// with its bonuses and the end of the last hand) and sends moves in notation: draw,
// take, pass, "discard 7c", "knock 7c".
//
// The server holds the truth and this page holds no rule: every button offers one of
// the seat's legal moves, exactly as the state lists them, and the melds and deadwood
// shown are the server's (the least deadwood, worked out exactly). What every seat's
// table does whatever the game (the connection, presence, the stock, the end of a hand,
// the result, the record) is SeatPage's (seat_page.js).
//
// Three- and four-hand Gin Rummy (party.js) is this table for the seat's own hand,
// with the party's standings in place of the score sheet: it extends GinTablePage and
// replaces the few parts marked "a party game replaces this".

import { api } from "/static/js/api.js";
import { cardName, cardText, rankValue, readableMove, suitPlace } from "/static/js/cards.js";
import { byId, capitalSentence, el, plural } from "/static/js/dom.js";
import { showDealSeal } from "/static/js/fairness.js";
import { focusAmong, steppedTo } from "/static/js/keys.js";
import { rememberGame } from "/static/js/prefs.js";
import { SeatPage } from "/static/js/seat_page.js";
import { sheetTable } from "/static/js/sheet.js";

export const HOW = { gin: "Gin", knock: "Knock", undercut: "Undercut", dead: "Dead hand" };

/** Deadwood cards in the order they are shown: by suit, then by rank, low first. */
function sortDeadwood(cards) {
  return [...cards].sort((a, b) => suitPlace(a) - suitPlace(b) || rankValue(a) - rankValue(b));
}

/** A meld in the order it is read: a run low to high, a set by suit. */
function sortMeld(cards) {
  return [...cards].sort((a, b) => rankValue(a) - rankValue(b) || suitPlace(a) - suitPlace(b));
}

/** One seat's table of Gin Rummy, from its secret (the path /seat/{secret}). */
export class GinTablePage extends SeatPage {
  constructor(secret, { fourColour = false } = {}) {
    super(secret, { prefix: "gin-", titleId: "gin-title", fourColour, recordName: "gin-game" });
    this.selected = null; // the card chosen to discard or knock with
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
    if (!state.your_turn || !state.view?.hand.includes(this.selected)) this.selected = null;
    rememberGame(window.location.pathname, this.gameTitle(), state.over);
    this.render();
  }

  /** What the home page's list of recent games calls this game (a party game replaces this). */
  gameTitle() {
    return `${this.state.gin.variant} against ${this.opponentName()}`;
  }

  opponentName() {
    // The view's seat is the seat at this hand: in a party game, the state's own is the party's.
    return this.state.names[1 - (this.state.view?.seat ?? this.state.seat)];
  }

  // -- what may be done now --------------------------------------------------------------

  legal() {
    const { state } = this;
    if (!state || !state.your_turn || this.pending || state.handed_over) return [];
    return state.legal;
  }

  /** The moves offered as buttons: those that use no card, then the chosen card's. */
  offered() {
    const legal = this.legal();
    const free = legal.filter((move) => !move.includes(" "));
    const chosen = this.selected ? legal.filter((move) => move.endsWith(` ${this.selected}`)) : [];
    return [...free, ...chosen];
  }

  label(move) {
    const [verb, card] = move.split(" ");
    const top = this.state.view?.pile.at(-1);
    if (verb === "draw") return "Draw from the stock";
    if (verb === "take") return top ? `Take ${cardText(top)}` : "Take the top discard";
    if (verb === "pass") return top ? `Pass on ${cardText(top)}` : "Pass on the upcard";
    if (verb === "discard") return `Discard ${cardText(card)}`;
    if (verb === "knock") return `Knock, discarding ${cardText(card)} face down`;
    return readableMove(move);
  }

  choose(card) {
    if (!this.state?.your_turn) {
      this.say("info", `It is ${this.opponentName()}'s turn: you choose a card on yours.`);
      return;
    }
    this.selected = this.selected === card ? null : card;
    this.message = null;
    this.hinted = null;
    this.focusKey = `gin-hand:${card}`;
    if (this.selected && !this.legal().some((move) => move.endsWith(` ${card}`))) {
      this.message = { kind: "info", text: this.whyNotCard(card) };
    }
    this.render();
  }

  // A card no move uses: asked of the server, whose reason is the engine's.
  whyNotCard(card) {
    const legal = this.legal();
    if (legal.some((move) => move === "draw" || move === "take" || move === "pass")) {
      return "First draw from the stock or take the top discard; then choose a card to discard.";
    }
    this.explain(`discard ${card}`);
    return `Asking why ${cardText(card)} cannot be discarded…`;
  }

  async explain(move) {
    try {
      const answer = await api.why(this.secret, move);
      if (!answer.legal) this.say("error", answer.reason ?? `${readableMove(move)} is not a move now.`, answer.rule);
    } catch (error) {
      this.say("error", error.message);
    }
  }

  /** A move played: its sentence said, the card chosen cleared. */
  played(answer) {
    this.selected = null;
    this.message = { kind: "info", text: `${answer.sentence}.` };
  }

  /** A hint: its card chosen, its button marked; the sentence to say. */
  takeHint(answer) {
    const card = answer.move.split(" ")[1] ?? null;
    this.selected = card && this.state.view.hand.includes(card) ? card : null;
    this.hinted = answer.move;
    return `Hint: ${readableMove(answer.move)}. ${capitalSentence(answer.why)}`;
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
    const legal = this.legal();
    let handled = true;
    if (/^[1-9]$/.test(key)) {
      const move = offered[Number(key) - 1];
      if (move) this.play(move, `gin-action:${Number(key) - 1}`);
    } else if (key === "d" || key === "t" || key === "p") {
      const verb = { d: "draw", t: "take", p: "pass" }[key];
      if (legal.includes(verb)) this.play(verb);
      else this.say("info", `${this.label(verb)} is not a move now.`);
    } else if (key === "k") {
      const knock = this.selected ? `knock ${this.selected}` : null;
      if (knock && legal.includes(knock)) this.play(knock);
      else if (knock) this.explain(knock);
      else this.say("info", "Choose the card to discard face down first, then knock.");
    } else if (key === "h") {
      this.hint();
    } else if (key === "escape") {
      if (this.selected === null && !this.message) handled = false;
      this.selected = null;
      this.message = null;
      this.render();
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  }

  // -- drawing ---------------------------------------------------------------------------

  renderBoard() {
    const { state } = this;
    this.renderTurn();
    showDealSeal(this.part("seal"), this.state, { fourColour: this.fourColour });
    // A seat of a party game that has played no hand yet has no view: no board to draw.
    byId("gin-board").hidden = !state.view;
    if (state.view) {
      this.renderOpponent();
      this.renderStock(state.view.stock_size, this.legal().includes("draw") ? "draw" : null);
      this.renderPile();
      this.renderLimit();
      this.renderRecap();
      this.renderHand();
      this.renderActions();
    }
  }

  /** A key whose button is gone gives the focus to the hand (every key of this table). */
  focusFallsToHand(focusKey) {
    return focusKey.startsWith("gin-");
  }

  renderTurn() {
    const { state } = this;
    const legal = state.legal;
    const opponent = this.opponentName();
    let text;
    if (state.over) text = "The game is over."; // who won it: the result under this line
    else if (state.handed_over) text = "The computer is playing your seat.";
    else if (!state.your_turn) text = this.pending ? `${opponent} is moving…` : `${opponent} to move.`;
    else if (legal.includes("pass")) text = "Your turn: take the upcard or pass on it.";
    else if (legal.includes("draw")) text = "Your turn: draw from the stock or take the top discard.";
    else if (legal.some((move) => move.startsWith("knock"))) text = "Your turn: discard a card, or knock.";
    else text = "Your turn: choose a card to discard.";
    const node = byId("gin-turn");
    node.textContent = text;
    node.classList.toggle("yours", state.your_turn && !state.over);
  }

  renderOpponent() {
    const { state } = this;
    const view = state.view;
    byId("gin-opponent-name").textContent = this.opponentName();
    this.renderOpponentHand(view.opponent_cards, view.opponent_known ?? []);
    this.renderPresence();
  }

  renderPile() {
    const pile = this.state.view.pile;
    const box = byId("gin-pile");
    box.replaceChildren();
    const fan = el("div", { className: "fan pile-fan" });
    const shown = pile.slice(-3);
    if (shown.length === 0) fan.append(el("div", { className: "card-space", text: "empty" }));
    // A null card lies face down: the other player's knock discard.
    for (const card of shown) fan.append(card === null ? this.card(null, { faceDown: true }) : this.card(card));
    const top = pile.at(-1);
    const topName = top === undefined ? "empty" : top === null ? "a card face down on top" : `the ${cardName(top)} on top`;
    const label = el("span", { className: "note", text: `Discards: ${pile.length}` });
    if (this.legal().includes("take")) {
      const button = el("button", { className: "pile-button playable", attrs: { type: "button", "data-key": "gin-pile", "aria-label": `${this.label("take")} (${topName})` } }, fan, label);
      button.addEventListener("click", () => this.play("take", "gin-pile"));
      box.append(button);
    } else {
      box.append(el("div", { className: "pile-button", attrs: { role: "img", "aria-label": `The discard pile: ${plural(pile.length, "card")}, ${topName}` } }, fan, label));
    }
  }

  renderLimit() {
    const { state } = this;
    const view = state.view;
    const box = byId("gin-limit");
    const limit = view.knock_limit;
    const lines = [el("strong", { text: limit === 0 ? "Gin only" : `Knock with ${limit} or less` })];
    if (state.rules === "oklahoma") {
      lines.push(el("span", { className: "note", text: "set by the first upcard" }));
      if (view.multiplier > 1) lines.push(el("span", { className: "note doubled", text: "Spade upcard: points doubled" }));
    }
    box.replaceChildren(...lines);
  }

  renderRecap() {
    const { state } = this;
    const box = byId("gin-recap");
    const theirs = state.recap.length ? state.recap : ["No move since yours."];
    const list = el("ul");
    // The server's sentences come without a full stop.
    for (const line of theirs) list.append(el("li", { text: /[.!?]$/.test(line) ? line : `${line}.` }));
    box.replaceChildren(el("h3", { text: `${this.opponentName()}, since your last move` }), list);
  }

  /** The cards of the hand in the order shown: the melds, then the deadwood. */
  handOrder() {
    const gin = this.state.gin;
    return [...gin.melds.flatMap(sortMeld), ...sortDeadwood(gin.deadwood)];
  }

  renderHand() {
    const { state } = this;
    const gin = state.gin;
    const box = byId("gin-hand");
    box.replaceChildren();
    const usable = new Set(this.legal().filter((move) => move.includes(" ")).map((move) => move.split(" ")[1]));
    const focusCard = this.focusedCard(this.handOrder());
    const group = (title, cards, className) => {
      const row = el("div", { className: "card-row" });
      for (const card of cards) row.append(this.handCard(card, usable, focusCard));
      return el("div", { className: `gin-group ${className}`, attrs: { role: "group", "aria-label": title } }, el("span", { className: "group-title", text: title }), row);
    };
    gin.melds.forEach((meld, index) => box.append(group(`Meld ${index + 1}`, sortMeld(meld), "meld")));
    if (gin.deadwood.length) box.append(group(`Deadwood: ${gin.deadwood_points}`, sortDeadwood(gin.deadwood), "deadwood"));
    const count = state.view.hand.length;
    byId("gin-deadwood").textContent = gin.deadwood_points === 0 ? `${plural(count, "card")}, no deadwood` : `${plural(count, "card")}, deadwood ${gin.deadwood_points}`;
  }

  handCard(card, usable, focusCard) {
    const idle = usable.size > 0 && !usable.has(card);
    return this.handButton(card, { chosen: this.selected === card, idle, focusCard }, () => this.choose(card));
  }

  renderActions() {
    const { state } = this;
    const box = byId("gin-actions");
    box.replaceChildren();
    if (state.over || !state.your_turn || state.handed_over) return;
    this.offered().forEach((move, index) => {
      const number = index < 9 ? `${index + 1}` : "";
      const knock = move.startsWith("knock");
      const button = el("button", {
        className: `move${this.hinted === move ? " hinted" : ""}${knock ? " primary" : ""}`,
        attrs: { type: "button", "data-key": `gin-action:${index}`, "data-move": move, "aria-keyshortcuts": number || undefined, disabled: this.pending },
      });
      if (number) button.append(el("kbd", { text: number, attrs: { "aria-hidden": "true" } }));
      button.append(this.label(move));
      button.addEventListener("click", () => this.play(move, `gin-action:${index}`));
      box.append(button);
    });
    const discarding = state.legal.some((move) => move.startsWith("discard"));
    if (discarding && this.selected === null) {
      const knocks = state.legal.filter((move) => move.startsWith("knock")).length;
      const text = knocks ? "Choose a card: discard it, or knock with it." : "Choose a card to discard.";
      box.append(el("span", { className: "note", text }));
    }
    const hint = el("button", { className: "quiet", text: "Hint", attrs: { type: "button", "data-key": "gin-hint", "aria-keyshortcuts": "H", disabled: this.pending } });
    hint.addEventListener("click", () => this.hint());
    box.append(el("span", { className: "tools" }, hint));
  }

  // The score sheet of a game of two (a party game replaces this with its standings).
  renderScores() {
    const { state } = this;
    const sheet = state.gin.sheet;
    const hands = sheet.hands.map(([points, how], index) => [`Hand ${index + 1} · ${HOW[how] ?? how}`, points]);
    const footer = [["Points", sheet.totals]];
    const result = sheet.result;
    if (result) {
      const bonus = [0, 0];
      bonus[result.winner] = result.game_bonus;
      footer.push(["Line bonuses", result.line], [result.shutout ? "Game bonus (shutout)" : "Game bonus", bonus], ["Final", result.final]);
    }
    const parts = [sheetTable(`${state.gin.variant} to ${sheet.target}`, this.headings(), hands, footer)];
    if (!sheet.hands.length) parts.push(el("p", { className: "note", text: "No hand finished yet." }));
    if (result?.shutout) parts.push(el("p", { className: "note", text: "A shutout: the loser scored no hand, so the points and the game bonus are doubled." }));
    byId("gin-scores").replaceChildren(...parts);
  }

  /** What Gin Rummy adds to the end of a hand (hand_end.js draws both sides): a doubled hand's note, and the totals. */
  handEnd() {
    const end = this.state.gin?.hand_end;
    const extra = end?.multiplier > 1 ? [el("p", { className: "note", text: "The first upcard was a spade: the points of this hand were doubled." })] : [];
    return { extra, soFar: this.soFar() };
  }

  /** The totals under the end of a hand (a party game replaces this). */
  soFar() {
    return `The game is played to ${this.state.gin.sheet.target}.`;
  }

  /** How many hands are over, so in the record a player may have (a party game replaces this). */
  finishedHands() {
    return this.state.gin.sheet.hands.length;
  }
}

// The table of one seat of Gin Rummy: the sibling of table.js for the other game. It
// draws what the server sends the seat (a SeatState whose `game` is "gin": the GinView
// in `view`, and in `gin` the hand laid out in melds, the knock limit, the score sheet
// with its bonuses and the end of the last hand) and sends moves in notation: draw,
// take, pass, "discard 7c", "knock 7c".
//
// The server holds the truth and this page holds no rule: every button offers one of
// the seat's legal moves, exactly as the state lists them, and the melds and deadwood
// shown are the server's (the least deadwood, worked out exactly).
//
// Three- and four-hand Gin Rummy (gin_party.js) is this table for the seat's own hand,
// with the party's standings in place of the score sheet: it extends GinTablePage and
// replaces the few parts marked "a party game replaces this".

import { api, ApiError } from "./api.js";
import { cardName, cardSvg, cardText } from "./cards.js";
import { LiveSeat } from "./live.js";
import { rememberGame } from "./prefs.js";

const SUIT_ORDER = { s: 0, h: 1, d: 2, c: 3 }; // the order every screen of the project shows
const RANK_VALUE = { A: 1, J: 11, Q: 12, K: 13 };
const STATUS_TEXT = {
  connecting: "Connecting…",
  live: "Live",
  waiting: "Connection lost",
  "no-seat": "No seat",
  stopped: "Closed",
};
export const HOW = { gin: "Gin", knock: "Knock", undercut: "Undercut", dead: "Dead hand" };

const rankOf = (card) => card.slice(0, -1);
const suitOf = (card) => card.slice(-1);
const rankValue = (card) => RANK_VALUE[rankOf(card)] ?? Number(rankOf(card));

/** Deadwood cards in the order they are shown: by suit, then by rank, low first. */
function sortDeadwood(cards) {
  return [...cards].sort((a, b) => SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)] || rankValue(a) - rankValue(b));
}

/** A meld in the order it is read: a run low to high, a set by suit. */
function sortMeld(cards) {
  return [...cards].sort((a, b) => rankValue(a) - rankValue(b) || SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)]);
}

/** Notation with Unicode suits, for reading: "knock 7s" -> "knock 7♠". */
function readable(text) {
  return text.replace(/\b(A|[2-9]|10|J|Q|K)([cdhs])\b/g, (_, rank, suit) => cardText(rank + suit));
}

export function el(tag, { className, text, attrs } = {}, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
  }
  node.append(...children);
  return node;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

function session(key) {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function setSession(key, value) {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage refused: remembered for this page only
  }
}

export const byId = (id) => document.getElementById(id);

/** One seat's table of Gin Rummy, from its secret (the path /seat/{secret}). */
export class GinTablePage {
  constructor(secret, { fourColour = false } = {}) {
    this.secret = secret;
    this.state = null;
    this.selected = null; // the card chosen to discard or knock with
    this.pending = false;
    this.message = null; // {kind: "error" | "hint" | "info", text}
    this.hinted = null;
    this.focusKey = null;
    this.fourColour = fourColour;
    this.live = new LiveSeat(api.socketUrl(secret), {
      onState: (state) => this.accept(state),
      onStatus: (status) => this.showConnection(status),
    });
  }

  // -- lifecycle ------------------------------------------------------------------------

  /** Show the table, from the state already read (or read it now). */
  async start(first = null) {
    byId("gin-table").hidden = false;
    document.addEventListener("keydown", (event) => this.shortcut(event));
    byId("gin-hand").addEventListener("keydown", (event) => this.handKey(event));
    try {
      this.accept(first ?? (await api.state(this.secret)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        this.noSeat(error.message);
        return;
      }
      this.say("error", `The table could not be read: ${error.message}. It will load when the connection comes back.`);
    }
    this.live.start();
  }

  noSeat(detail) {
    this.live.stop();
    byId("gin-table").hidden = true;
    byId("no-seat").hidden = false;
    byId("no-seat-detail").textContent = `The server says: ${detail}.`;
  }

  setFourColour(on) {
    this.fourColour = on;
    this.render();
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
    return readable(move);
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
      if (!answer.legal) this.say("error", answer.reason ?? `${readable(move)} is not a move now.`);
    } catch (error) {
      this.say("error", error.message);
    }
  }

  async play(move, focusAfter = null) {
    if (this.pending) return;
    this.pending = true;
    this.message = null;
    this.hinted = null;
    this.render();
    try {
      const answer = await api.move(this.secret, move);
      this.pending = false;
      this.selected = null;
      this.focusKey = focusAfter;
      this.message = { kind: "info", text: `${answer.sentence}.` };
      this.accept(answer.state);
    } catch (error) {
      this.pending = false;
      this.say("error", error.message);
    }
  }

  async hint() {
    if (!this.state?.your_turn) {
      this.say("info", "A hint is given on your turn.");
      return;
    }
    try {
      const answer = await api.hint(this.secret);
      const card = answer.move.split(" ")[1] ?? null;
      this.selected = card && this.state.view.hand.includes(card) ? card : null;
      this.hinted = answer.move;
      this.say("hint", `Hint: ${readable(answer.move)}: ${answer.why}.`);
    } catch (error) {
      this.say("error", error.message);
    }
  }

  async seatCall(call) {
    try {
      this.accept(await call(this.secret));
    } catch (error) {
      this.say("error", error.message);
    }
  }

  async rematch() {
    try {
      const answer = await api.rematch(this.secret);
      const secret = answer?.seats?.[0]?.secret;
      if (typeof secret === "string") window.location.assign(`/seat/${encodeURIComponent(secret)}`);
      else this.say("error", "The rematch was made, but its link did not come back: reload the page.");
    } catch (error) {
      this.say("error", error.message);
    }
  }

  say(kind, text) {
    this.message = { kind, text };
    this.render();
  }

  // -- keys ------------------------------------------------------------------------------

  handKey(event) {
    const button = event.target.closest("button[data-card]");
    if (!button) return;
    const order = this.handOrder();
    const at = order.indexOf(button.dataset.card);
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[event.key];
    let next = null;
    if (step !== undefined) next = order[Math.max(0, Math.min(order.length - 1, at + step))];
    else if (event.key === "Home") next = order[0];
    else if (event.key === "End") next = order.at(-1);
    if (next === null) return;
    event.preventDefault();
    for (const other of byId("gin-hand").querySelectorAll("button[data-card]")) {
      other.tabIndex = other.dataset.card === next ? 0 : -1;
      if (other.dataset.card === next) other.focus();
    }
  }

  shortcut(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("input, textarea, select, dialog")) return;
    if (byId("gin-table").hidden || !this.state) return;
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

  showConnection({ status, retryIn }) {
    if (status === "no-seat") {
      this.noSeat("no seat has this link");
      return;
    }
    const node = byId("gin-connection");
    node.dataset.status = status;
    node.replaceChildren(el("span", { className: "dot", attrs: { "aria-hidden": "true" } }));
    if (status === "waiting") {
      node.append(`Connection lost: retrying in ${Math.max(1, Math.round(retryIn / 1000))} s `);
      const retry = el("button", { className: "quiet", text: "Retry now", attrs: { type: "button" } });
      retry.addEventListener("click", () => this.live.connectNow());
      node.append(retry);
    } else {
      node.append(STATUS_TEXT[status] ?? status);
    }
  }

  card(card, options = {}) {
    return cardSvg(card, { fourColour: this.fourColour, ...options });
  }

  render() {
    if (!this.state) {
      this.renderMessage();
      return;
    }
    const focusKey = this.focusKey ?? document.activeElement?.dataset?.key ?? null;
    this.focusKey = null;
    const { state } = this;
    const table = byId("gin-table");
    table.dataset.version = String(state.version);
    table.dataset.pending = this.pending ? "true" : "false";
    byId("gin-title").textContent = state.title;
    document.title = `${state.title} · Umtali`;
    this.renderTurn();
    // A seat of a party game that has played no hand yet has no view: no board to draw.
    byId("gin-board").hidden = !state.view;
    if (state.view) {
      this.renderOpponent();
      this.renderStock();
      this.renderPile();
      this.renderLimit();
      this.renderRecap();
      this.renderHand();
      this.renderActions();
    }
    this.renderMessage();
    this.renderScores();
    this.renderPrevious();
    this.renderHandEnd();
    this.renderResult();
    this.renderRecords();
    if (focusKey) {
      const again = document.querySelector(`#gin-table [data-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
      else if (focusKey.startsWith("gin-")) byId("gin-hand").querySelector("button[tabindex='0']")?.focus({ preventScroll: true });
    }
  }

  renderTurn() {
    const { state } = this;
    const legal = state.legal;
    const opponent = this.opponentName();
    let text;
    if (state.over) text = `The game is over. ${state.result ?? ""}`;
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
    const box = byId("gin-opponent-hand");
    box.replaceChildren();
    const known = view.opponent_known ?? [];
    const fan = el("div", { className: "fan small", attrs: { "aria-hidden": "true" } });
    for (let i = known.length; i < view.opponent_cards; i += 1) fan.append(this.card(null, { faceDown: true }));
    for (const card of known) fan.append(this.card(card));
    let text = `${plural(view.opponent_cards, "card")} in hand`;
    if (known.length > 0) text += `, of them ${known.map(cardText).join(" ")} (taken from the pile)`;
    box.append(fan, el("span", { className: "note", text }));
    this.renderPresence();
  }

  renderPresence() {
    const { state } = this;
    const presence = byId("gin-opponent-presence");
    presence.replaceChildren();
    const opponent = state.opponent;
    if (opponent?.kind === "person") {
      const away = opponent.present === false;
      let text = away ? "away" : "here";
      if (opponent.handed_over) text = "the computer plays for them";
      presence.append(el("span", { className: `presence-tag ${away ? "away" : "here"}`, text }));
      if (opponent.can_hand_over && !opponent.handed_over) {
        const button = el("button", { className: "quiet", text: "Let the computer play for them", attrs: { type: "button", "data-key": "gin-hand-over" } });
        button.addEventListener("click", () => this.seatCall(api.handOver));
        presence.append(" ", button);
      }
    }
    const banner = byId("gin-away-banner");
    banner.hidden = !state.handed_over;
    banner.replaceChildren();
    if (state.handed_over) {
      const button = el("button", { className: "primary", text: "Take my seat back", attrs: { type: "button", "data-key": "gin-reclaim" } });
      button.addEventListener("click", () => this.seatCall(api.reclaim));
      banner.append(el("span", { text: "You were away, so the computer plays your seat. " }), button);
    }
  }

  renderStock() {
    const size = this.state.view.stock_size;
    const box = byId("gin-stock");
    box.replaceChildren();
    const picture = size > 0 ? this.card(null, { faceDown: true }) : el("div", { className: "card-space" });
    const label = el("span", { className: "note", text: `Stock: ${size}` });
    if (this.legal().includes("draw")) {
      const button = el("button", { className: "pile-button playable", attrs: { type: "button", "data-key": "gin-stock", "aria-label": `Draw from the stock (${plural(size, "card")})` } }, picture, label);
      button.addEventListener("click", () => this.play("draw", "gin-stock"));
      box.append(button);
    } else {
      box.append(el("div", { className: "pile-button", attrs: { role: "img", "aria-label": `The stock: ${plural(size, "card")}` } }, picture, label));
    }
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
    const focusCard = this.handOrder().includes(document.activeElement?.dataset?.card) ? document.activeElement.dataset.card : this.handOrder()[0];
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
    const classes = ["hand-card"];
    if (this.selected === card) classes.push("selected");
    if (usable.size > 0 && !usable.has(card)) classes.push("idle");
    const button = el(
      "button",
      {
        className: classes.join(" "),
        attrs: {
          type: "button",
          "data-card": card,
          "data-key": `gin-hand:${card}`,
          "aria-pressed": this.selected === card ? "true" : "false",
          tabindex: card === focusCard ? "0" : "-1",
          title: cardName(card),
        },
      },
      this.card(card),
    );
    button.addEventListener("click", () => this.choose(card));
    return button;
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

  renderMessage() {
    const node = byId("gin-message");
    node.textContent = this.message ? this.message.text : "";
    node.dataset.kind = this.message ? this.message.kind : "";
  }

  // The score sheet of a game of two (a party game replaces this with its standings).
  renderScores() {
    const { state } = this;
    const sheet = state.gin.sheet;
    const [first, second] = state.names;
    const box = byId("gin-scores");
    const table = el("table", { className: "score-table" });
    table.append(el("caption", { text: `${state.gin.variant} to ${sheet.target}` }));
    table.append(el("thead", {}, el("tr", {}, el("th", { text: "", attrs: { scope: "col" } }), el("th", { text: first, attrs: { scope: "col" } }), el("th", { text: second, attrs: { scope: "col" } }))));
    const body = el("tbody");
    sheet.hands.forEach(([[a, b], how], index) => {
      body.append(el("tr", {}, el("th", { text: `Hand ${index + 1} · ${HOW[how] ?? how}`, attrs: { scope: "row" } }), el("td", { text: String(a) }), el("td", { text: String(b) })));
    });
    table.append(body);
    const foot = el("tfoot", {}, this.row("Points", sheet.totals));
    const result = sheet.result;
    if (result) {
      const bonus = [0, 0];
      bonus[result.winner] = result.game_bonus;
      foot.append(
        this.row("Line bonuses", result.line),
        this.row(result.shutout ? "Game bonus (shutout)" : "Game bonus", bonus),
        this.row("Final", result.final),
      );
    }
    table.append(foot);
    const parts = [table];
    if (!sheet.hands.length) parts.push(el("p", { className: "note", text: "No hand finished yet." }));
    if (result?.shutout) parts.push(el("p", { className: "note", text: "A shutout: the loser scored no hand, so the points and the game bonus are doubled." }));
    box.replaceChildren(...parts);
  }

  row(label, [a, b]) {
    return el("tr", {}, el("th", { text: label, attrs: { scope: "row" } }), el("td", { text: String(a) }), el("td", { text: String(b) }));
  }

  /** The end of a hand: both sides as they were laid, and what it scored. */
  handEndBody(end) {
    const parts = [el("p", { className: "how", text: end.result })];
    for (const side of end.sides) {
      const title = `${side.name}${side.knocked ? (end.how === "gin" ? " · gin" : " · knocked") : ""}: ${plural(side.score, "point")}`;
      const block = el("div", { className: "gin-side" }, el("h3", { text: title }));
      const row = el("div", { className: "gin-laid" });
      for (const meld of side.melds) {
        const cards = el("div", { className: "card-row meld", attrs: { role: "img", "aria-label": `meld: ${sortMeld(meld).map(cardName).join(", ")}` } });
        // A card laid off on the knocker's meld is marked as the other player's.
        for (const card of sortMeld(meld)) {
          cards.append(side.laid_off.includes(card) ? el("span", { className: "laid-off" }, this.card(card)) : this.card(card));
        }
        row.append(cards);
      }
      if (side.deadwood.length) {
        const cards = el("div", { className: "card-row deadwood", attrs: { role: "img", "aria-label": `deadwood: ${sortDeadwood(side.deadwood).map(cardName).join(", ")}` } });
        for (const card of sortDeadwood(side.deadwood)) cards.append(this.card(card));
        row.append(cards);
      }
      block.append(row);
      const notes = [`deadwood ${side.deadwood_points}`];
      if (side.laid_off.length) notes.push(`laid off ${side.laid_off.map(cardText).join(" ")}`);
      block.append(el("p", { className: "note", text: notes.join(" · ") }));
      parts.push(block);
    }
    if (end.multiplier > 1) parts.push(el("p", { className: "note", text: "The first upcard was a spade: the points of this hand were doubled." }));
    return parts;
  }

  renderPrevious() {
    const end = this.state.gin?.hand_end;
    byId("gin-previous-panel").hidden = !end;
    byId("gin-previous").replaceChildren(...(end ? [el("h3", { text: `Hand ${end.hand_index + 1}` }), ...this.handEndBody(end)] : []));
  }

  // The end of a hand that has just ended, shown once over the table until the player
  // closes it (remembered for this tab, so that a reload does not show it again).
  renderHandEnd() {
    const { state } = this;
    const box = byId("gin-hand-end");
    const end = state.gin?.hand_end;
    const seenKey = `umtali.seen.${state.game_id}`;
    if (!end || end.hand_index <= Number(session(seenKey) ?? "-1")) {
      box.hidden = true;
      return;
    }
    const wasHidden = box.hidden;
    box.replaceChildren(
      el("h2", { text: `Hand ${end.hand_index + 1}: ${HOW[end.how] ?? end.how}`, attrs: { id: "gin-hand-end-title" } }),
      ...this.handEndBody(end),
      el("p", { className: "hand-scores", text: this.soFar() }),
    );
    const close = el("button", { className: "primary", text: state.over ? "See the result" : "Next hand", attrs: { type: "button", "data-key": "gin-hand-end-close" } });
    close.addEventListener("click", () => {
      setSession(seenKey, String(end.hand_index));
      box.hidden = true;
      this.focusKey = `gin-hand:${this.handOrder()[0] ?? ""}`;
      this.render();
    });
    box.append(close);
    box.hidden = false;
    if (wasHidden) close.focus({ preventScroll: false });
  }

  /** The totals under the end of a hand (a party game replaces this). */
  soFar() {
    const [first, second] = this.state.names;
    const sheet = this.state.gin.sheet;
    return `So far: ${first} ${sheet.totals[0]}, ${second} ${sheet.totals[1]} (to ${sheet.target})`;
  }

  /** How many hands are over, so in the record a player may have (a party game replaces this). */
  finishedHands() {
    return this.state.gin.sheet.hands.length;
  }

  renderResult() {
    const { state } = this;
    const box = byId("gin-result");
    box.hidden = !state.over;
    if (!state.over) return;
    box.replaceChildren(el("h2", { text: "The game is over" }), el("p", { className: "result-text", text: state.result ?? "" }));
    const again = el("div", { className: "result-actions" });
    const rematchSecret = state.rematch?.seats?.[0]?.secret;
    if (typeof rematchSecret === "string") {
      again.append(el("a", { className: "button primary", text: "Play the rematch", attrs: { href: `/seat/${encodeURIComponent(rematchSecret)}` } }));
    } else {
      const button = el("button", { className: "primary", text: "Rematch", attrs: { type: "button", "data-key": "gin-rematch" } });
      button.addEventListener("click", () => this.rematch());
      again.append(button);
    }
    again.append(el("a", { className: "button", text: "New game", attrs: { href: "/" } }));
    box.append(again);
  }

  renderRecords() {
    const { state } = this;
    const box = byId("gin-records");
    const finished = this.finishedHands();
    if (state.over) {
      box.replaceChildren(
        el("a", { className: "button", text: "Download the whole record", attrs: { href: api.fullRecordPath(state.game_id), download: `gin-game-${state.game_id}.json` } }),
        el("p", { className: "note", text: "Open it with umtali replay." }),
      );
    } else if (finished > 0) {
      box.replaceChildren(
        el("a", { className: "button", text: `Download the finished hands (${finished})`, attrs: { href: api.recordPath(this.secret), download: `gin-game-${state.game_id}-so-far.json` } }),
        el("p", { className: "note", text: "The whole record can be downloaded when the game is over." }),
      );
    } else {
      box.replaceChildren(el("p", { className: "note", text: "The record can be downloaded once a hand is finished." }));
    }
  }
}

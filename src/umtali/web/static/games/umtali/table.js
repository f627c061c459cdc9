// The table of one seat of Umtali: what the server sends it (SeatState), drawn as the
// book lays a game out, and the moves it may make, offered as clicks and keys. The seat
// page loads it by the game's name (js/main.js: seatPage() below), with its markup
// (table.html).
//
// The server holds the truth. This module renders the latest state it was sent (over
// the WebSocket, or in the answer to a move) and sends moves in notation; every choice
// it offers is one of the legal moves listed in the state (moves.js), so a click can
// never ask for a move the rules refuse without the page saying why. What every seat's
// table does whatever the game (the connection, presence, the stock, the end of a hand,
// the result, the record) is SeatPage's (seat_page.js); this module holds Umtali's own.

import { api, isMissingEndpoint } from "/static/js/api.js";
import { cardName, cardText, rankValue, readableMove, suitPlace } from "/static/js/cards.js";
import { byId, capitalSentence, el, keepInTab, plural, tabValue } from "/static/js/dom.js";
import { showDealSeal } from "/static/js/fairness.js";
import { arrowStep, focusAmong, steppedTo } from "/static/js/keys.js";
import {
  deepTakes,
  guessedMove,
  isDeepTake,
  moveLabel,
  movesForSelection,
  movesWithoutHand,
  readMove,
  readMoves,
  targetsOf,
} from "./moves.js";
import { prefs, rememberGame } from "/static/js/prefs.js";
import { SeatPage } from "/static/js/seat_page.js";
import { sheetTable } from "/static/js/sheet.js";

const UNICODE_SUITS = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" };

/** Cards in the order a hand is shown: by suit (the book's order) or by rank; high first. */
export function sortCards(cards, mode) {
  const bySuit = (a, b) => suitPlace(a) - suitPlace(b);
  const byRank = (a, b) => rankValue(b) - rankValue(a);
  return [...cards].sort(mode === "rank" ? (a, b) => byRank(a, b) || bySuit(a, b) : (a, b) => bySuit(a, b) || byRank(a, b));
}

/** The points each player has laid on the table in the hand under way, as a card
 * player says it: "So far this hand, you have 35 points and Ann has 20 points on the table." */
export function thisHandSentence(names, points) {
  const has = (name, count) => `${name === "You" ? "you have" : `${name} has`} ${plural(count, "point")}`;
  return `So far this hand, ${has(names[0], points[0])} and ${has(names[1], points[1])} on the table.`;
}

/** Move text as the server writes it (Unicode suits) in the page's ASCII notation. */
function asciiMove(text) {
  return text.replace(/[♣♦♥♠]/g, (symbol) => UNICODE_SUITS[symbol]);
}

/** The page of a seat of Umtali (what the seat page asks every game's table for). */
export function seatPage(secret) {
  return new TablePage(secret);
}

/** One seat's table page, from its secret (the path /seat/{secret}). */
export class TablePage extends SeatPage {
  constructor(secret) {
    super(secret, { prefix: "", titleId: "table-title", fourColour: prefs.fourColour, recordName: "umtali-game" });
    this.selected = [];
    this.pileChoice = null; // the pile card chosen for a deep take (practical rules)
    this.order = [];
    this.customOrder = false;
    this.newCards = new Set();
    this.ownLast = { hand: -1, turn: -1, sentences: [] };
    this.drag = null; // a card being dragged in the hand
    this.suppressClick = false; // the click that ends a drag selects nothing
    this.renderAfterDrag = false; // a state came during a drag: draw it on the drop
  }

  // -- lifecycle ------------------------------------------------------------------------

  /** A state from the server: kept if it is not older than the one shown. */
  accept(state) {
    if (!state || state.type !== "state") return;
    const old = this.state;
    if (old && state.version < old.version) return;
    const newHand = !old || old.hand_index !== state.hand_index;
    const hand = state.view.hand;
    // Cards are new when they come into a hand already held, not when it is dealt.
    if (old && !newHand && old.view.hand.length > 0) {
      const before = new Set(old.view.hand);
      for (const card of hand) if (!before.has(card)) this.newCards.add(card);
    } else {
      this.newCards.clear();
    }
    for (const card of this.newCards) if (!hand.includes(card)) this.newCards.delete(card);
    if (newHand) {
      this.loadOrder(state);
      this.ownLast = { hand: state.hand_index, turn: -1, sentences: [] };
    }
    this.state = state;
    this.selected = state.your_turn ? this.selected.filter((card) => hand.includes(card)) : [];
    if (!deepTakes(this.moves()).has(this.pileChoice)) this.pileChoice = null;
    this.syncOrder();
    rememberGame(window.location.pathname, this.gameLabel(), state.over);
    this.draw();
  }

  /** Draw the table now, or once the card being dragged is dropped (it keeps its button). */
  draw() {
    if (this.drag) this.renderAfterDrag = true;
    else this.render();
  }

  gameLabel() {
    const { state } = this;
    const kind = { hand: "One hand", game: "A game", session: "A session" }[state.kind] ?? "A game";
    return `${kind} against ${this.opponentName()}`;
  }

  // -- the order of the hand -------------------------------------------------------------

  orderKey() {
    return `umtali.order.${this.state?.game_id}`;
  }

  loadOrder(state) {
    this.customOrder = false;
    this.order = [];
    try {
      const saved = JSON.parse(tabValue(`umtali.order.${state.game_id}`) ?? "null");
      if (saved && saved.hand === state.hand_index && Array.isArray(saved.order)) {
        this.order = saved.order.filter((card) => typeof card === "string");
        this.customOrder = true;
      }
    } catch {
      // nothing usable saved: the hand is shown sorted
    }
  }

  saveOrder() {
    if (!this.state || !this.customOrder) return;
    keepInTab(this.orderKey(), JSON.stringify({ hand: this.state.hand_index, order: this.order }));
  }

  syncOrder() {
    const hand = this.state.view.hand;
    if (!this.customOrder) {
      this.order = sortCards(hand, prefs.sort);
      return;
    }
    const inHand = new Set(hand);
    const kept = this.order.filter((card) => inHand.has(card));
    const keptSet = new Set(kept);
    this.order = [...kept, ...sortCards(hand.filter((card) => !keptSet.has(card)), prefs.sort)];
  }

  moveCard(card, offset) {
    const from = this.order.indexOf(card);
    const to = Math.max(0, Math.min(this.order.length - 1, from + offset));
    if (from < 0 || from === to) return;
    this.placeCard(card, to);
  }

  placeCard(card, index) {
    const rest = this.order.filter((other) => other !== card);
    rest.splice(index, 0, card);
    this.order = rest;
    this.customOrder = true;
    this.saveOrder();
    this.focusKey = `hand:${card}`;
    this.renderAfterDrag = false;
    this.render();
  }

  toggleSort() {
    prefs.sort = prefs.sort === "suit" ? "rank" : "suit";
    this.customOrder = false;
    keepInTab(this.orderKey(), "null");
    this.syncOrder();
    this.render();
  }

  // -- what may be done now --------------------------------------------------------------

  moves() {
    const { state } = this;
    if (!state || !state.your_turn || this.pending || state.handed_over) return [];
    return readMoves(state.view.legal ?? [], state.view.discard_pile ?? []);
  }

  // The moves listed as buttons: those without cards of the hand, and those that use
  // exactly the cards selected. A deep take is listed only once its pile card is chosen,
  // first, since choosing it asked for it.
  offered() {
    const moves = this.moves();
    const deep = deepTakes(moves).get(this.pileChoice);
    const free = movesWithoutHand(moves).filter((move) => !isDeepTake(move));
    const chosen = movesForSelection(moves, this.selected);
    return [...(deep ? [deep] : []), ...free, ...chosen];
  }

  /** Choose (or, chosen again, unchoose) the pile card of a deep take. */
  choosePile(card) {
    this.pileChoice = this.pileChoice === card ? null : card;
    this.message = null;
    this.hinted = null;
    this.focusKey = `pile:${card}`;
    this.render();
  }

  toggle(card) {
    if (!this.state?.your_turn) {
      this.say("info", `It is ${this.opponentName()}'s turn: your cards can be chosen when it is yours.`);
      return;
    }
    const at = this.selected.indexOf(card);
    if (at >= 0) this.selected.splice(at, 1);
    else this.selected.push(card);
    this.message = null;
    this.hinted = null;
    this.focusKey = `hand:${card}`;
    this.render();
  }

  clearSelection() {
    this.selected = [];
    this.pileChoice = null;
    this.message = null;
    this.render();
  }

  /** A move played: its sentence kept for "Your last turn" (the turn it was sent in), the choice cleared. */
  played(answer, before) {
    const turn = before.view.turn;
    const hand = before.hand_index;
    if (this.ownLast.turn !== turn || this.ownLast.hand !== hand) this.ownLast = { hand, turn, sentences: [] };
    this.ownLast.sentences.push(answer.sentence);
    this.selected = [];
    this.pileChoice = null;
  }

  async why(target = null) {
    const text = guessedMove(this.selected, target);
    if (text === null) {
      this.say("info", "Select cards from your hand first, then ask why they are not a move.");
      return;
    }
    const legal = new Set(this.state.view.legal ?? []);
    if (legal.has(text)) {
      await this.play(text);
      return;
    }
    try {
      const answer = await api.why(this.secret, text);
      if (answer.legal) await this.play(text);
      else this.say("error", answer.reason ?? `${readableMove(text)} is not a move now.`, answer.rule);
    } catch (error) {
      if (!isMissingEndpoint(error)) {
        this.say("error", error.message);
        return;
      }
      // Without the why endpoint, the move itself is sent: a refused move changes
      // nothing, and its refusal carries the engine's reason.
      try {
        await api.move(this.secret, text);
        this.say("error", `${readableMove(text)} was accepted after all.`);
      } catch (refusal) {
        this.say("error", refusal.message);
      }
    }
  }

  /** A hint: its cards selected, its button marked; the sentence to say. */
  takeHint(answer) {
    const move = readMove(asciiMove(answer.move));
    this.selected = move ? [...move.hand] : [];
    this.hinted = move ? move.text : null;
    // A hinted deep take shows as its pile card chosen, its button marked.
    this.pileChoice = move && deepTakes(this.moves()).has(move.pile[0]) ? move.pile[0] : null;
    return `Hint: ${answer.move}. ${capitalSentence(answer.why)}`;
  }

  // -- input -----------------------------------------------------------------------------

  wire() {
    byId("sort").addEventListener("click", () => this.toggleSort());
    const hand = byId("hand");
    hand.addEventListener("keydown", (event) => this.handKey(event));
    hand.addEventListener("pointerdown", (event) => this.dragStart(event));
    hand.addEventListener("pointermove", (event) => this.dragMove(event));
    hand.addEventListener("pointerup", (event) => this.dragEnd(event));
    hand.addEventListener("pointercancel", () => this.dragCancel());
    byId("pile").addEventListener("keydown", (event) => this.pileKey(event));
    document.addEventListener("keydown", (event) => this.shortcut(event));
  }

  handKey(event) {
    const button = event.target.closest("button[data-card]");
    if (!button) return;
    const card = button.dataset.card;
    const at = this.order.indexOf(card);
    const step = arrowStep(event.key);
    if (step !== undefined && (event.shiftKey || event.altKey)) {
      event.preventDefault();
      this.moveCard(card, step);
      return;
    }
    const next = steppedTo(event.key, this.order, at);
    if (!next) return;
    event.preventDefault();
    this.focusHandCard(next);
  }

  // The arrows move between the cards of a spread pile, as in the hand.
  pileKey(event) {
    const button = event.target.closest("button[data-pile-card]");
    if (!button) return;
    const buttons = [...document.querySelectorAll("#pile button[data-pile-card]")];
    const next = steppedTo(event.key, buttons, buttons.indexOf(button));
    if (!next) return;
    event.preventDefault();
    focusAmong(buttons, next);
  }

  focusHandCard(card) {
    const buttons = [...byId("hand").querySelectorAll("button[data-card]")];
    focusAmong(buttons, buttons.find((button) => button.dataset.card === card));
    this.focusKey = `hand:${card}`;
  }

  shortcut(event) {
    if (!this.isShortcut(event)) return;
    const key = event.key;
    const offered = this.offered();
    const find = (kind) => offered.find((move) => move.kind === kind);
    let handled = true;
    if (/^[1-9]$/.test(key)) {
      const move = offered[Number(key) - 1];
      if (move) this.play(move.text, `action-index:${Number(key) - 1}`);
    } else if (key === "d" || key === "D") {
      const move = find("draw");
      if (move) this.play(move.text);
      else this.say("info", "Drawing from the stock is not a move now.");
    } else if (key === "t" || key === "T") {
      const move = offered.find((one) => one.kind === "take" && !isDeepTake(one));
      if (move) this.play(move.text);
      else this.say("info", "Taking the top discard is not a move now.");
    } else if (key === "h" || key === "H") {
      this.hint();
    } else if (key === "w" || key === "W") {
      this.why();
    } else if (key === "s" || key === "S") {
      this.toggleSort();
    } else if (key === "Escape") {
      if (this.selected.length === 0 && !this.message && !this.pileChoice) handled = false;
      else this.clearSelection();
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  }

  // Dragging a card of the hand to a new place (mouse, pen or touch). A press that
  // moves less than a few pixels is a click, which selects the card.
  dragStart(event) {
    const button = event.target.closest("button[data-card]");
    if (!button || event.button !== 0) return;
    this.drag = { card: button.dataset.card, button, x: event.clientX, y: event.clientY, moving: false, id: event.pointerId };
  }

  dragMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < 8) return;
    if (!drag.moving) {
      drag.moving = true;
      drag.button.setPointerCapture(drag.id);
      drag.button.classList.add("dragging");
    }
    drag.button.style.transform = `translate(${dx}px, ${dy}px)`;
    drag.index = this.dropIndex(event.clientX, event.clientY, drag.card);
  }

  dropIndex(x, y, card) {
    // The place among the other cards whose middle lies before the pointer, row by row.
    const others = [...document.querySelectorAll("#hand button[data-card]")].filter(
      (button) => button.dataset.card !== card,
    );
    let index = 0;
    for (const button of others) {
      const box = button.getBoundingClientRect();
      const sameRow = y >= box.top && y <= box.bottom;
      if (box.bottom < y || (sameRow && x > box.left + box.width / 2)) index += 1;
    }
    return index;
  }

  dragEnd(event) {
    const drag = this.drag;
    this.drag = null;
    if (!drag || event.pointerId !== drag.id || !drag.moving) {
      // A press that did not move is a click, dispatched after this release: a state
      // that came during the press is drawn after it, so that the click finds its button.
      setTimeout(() => this.renderDeferred(), 0);
      return;
    }
    drag.button.classList.remove("dragging");
    drag.button.style.transform = "";
    this.suppressClick = true;
    setTimeout(() => {
      this.suppressClick = false;
    }, 0);
    if (drag.index !== undefined) this.placeCard(drag.card, drag.index);
    else this.renderDeferred();
  }

  /** Draw the table if a state came while a card was dragged. */
  renderDeferred() {
    if (!this.renderAfterDrag) return;
    this.renderAfterDrag = false;
    this.render();
  }

  dragCancel() {
    if (this.drag?.moving) {
      this.drag.button.classList.remove("dragging");
      this.drag.button.style.transform = "";
    }
    this.drag = null;
    this.renderDeferred();
  }

  // -- drawing ---------------------------------------------------------------------------

  renderBoard() {
    const { state } = this;
    this.renderTurn();
    showDealSeal(this.part("seal"), this.state, { fourColour: this.fourColour });
    this.renderPresence();
    this.renderSide(1 - state.seat, "opponent");
    this.renderSide(state.seat, "own");
    this.renderOpponentHand(state.view.opponent_hand_size, state.view.opponent_known ?? []);
    this.renderStock(state.view.stock_size, this.moves().find((move) => move.kind === "draw")?.text);
    this.renderPile();
    this.renderRecap();
    this.renderHand();
    this.renderActions();
    byId("sort").textContent = prefs.sort === "suit" ? "Sort by rank" : "Sort by suit";
  }

  /** The card was played or the move is gone: the keyboard stays in the hand. */
  focusFallsToHand(focusKey) {
    return focusKey.startsWith("hand:") || focusKey.startsWith("action");
  }

  handOrder() {
    return this.order;
  }

  renderTurn() {
    const { state } = this;
    const view = state.view;
    const opponent = this.opponentName();
    let text;
    if (state.over) text = `The ${state.kind} is over.`; // who won it: the result under this line
    else if (state.handed_over) text = `The computer is playing your seat.`;
    else if (!state.your_turn) text = this.pending ? `${opponent} is moving…` : `${opponent} to move.`;
    else if (view.phase === "choose") text = `You deal: keep the 11th card and start, or give it to ${opponent}.`;
    else if (view.phase === "draw") text = "Your turn: draw from the stock or take from the discard pile.";
    else text = "Your turn: play your cards, then discard or go out.";
    if (!state.over && view.last_turn && state.your_turn) {
      text += ` This is your last turn: ${opponent} has gone out.`;
    }
    const node = byId("turn");
    node.textContent = text;
    node.classList.toggle("yours", state.your_turn && !state.over);
  }

  renderSide(player, which) {
    const { state } = this;
    const view = state.view;
    byId(`${which}-name`).textContent = this.headings()[player];
    byId(`${which}-points`).textContent = `${plural(view.points[player], "point")} on the table`;
    const box = byId(`${which}-melds`);
    box.replaceChildren();
    const columns = view.tables[player] ?? [];
    if (columns.length === 0) {
      box.append(el("p", { className: "empty", text: "Nothing laid yet", attrs: { role: "listitem" } }));
      return;
    }
    const canTarget = this.selected.length === 1 && this.moves().length > 0;
    const targets = canTarget ? targetsOf(this.moves(), this.selected) : new Map();
    for (const column of columns) {
      box.append(this.tableItem(column, targets, canTarget));
    }
  }

  tableItem(column, targets, canTarget) {
    // A column is laid out as the book does: its highest card at the top, the others
    // descending, each overlapping the one above.
    const cards = sortCards(column.cards, "rank");
    const solo = column.kind === "solo" || cards.length === 1;
    const description = `${column.kind}: ${cards.map(cardName).join(", ")}${
      column.played_off ? `, played off the ${cardName(column.played_off)}` : ""
    }`;
    const stack = el("div", { className: solo ? "card-solo" : "card-column" });
    for (const card of cards) stack.append(this.card(card));
    const parts = [stack];
    if (column.played_off) {
      parts.push(el("span", { className: "off", text: `off ${cardText(column.played_off)}`, attrs: { "aria-hidden": "true" } }));
    } else if (!solo) {
      parts.push(el("span", { className: "off", text: column.kind, attrs: { "aria-hidden": "true" } }));
    }
    const item = el("div", { className: `table-item kind-${column.kind}`, attrs: { role: "listitem" } });
    const target = cards.map((card) => targets.get(card)).find(Boolean);
    if (canTarget) {
      const selected = this.selected[0];
      const button = el(
        "button",
        {
          className: target ? "table-target" : "table-target not-a-target",
          attrs: {
            type: "button",
            "data-key": `table:${cards[0]}`,
            "aria-label": target
              ? `${moveLabel(target)} (${description})`
              : `Why can ${cardText(selected)} not be played off ${cardText(cards[0])}? (${description})`,
          },
        },
        ...parts,
      );
      button.addEventListener("click", () => (target ? this.play(target.text) : this.why(cards[0])));
      item.append(button);
    } else {
      item.setAttribute("aria-label", description);
      item.append(...parts);
    }
    return item;
  }

  renderPile() {
    const { state } = this;
    const pile = state.view.discard_pile;
    const box = byId("pile");
    box.replaceChildren();
    const deep = deepTakes(this.moves());
    box.classList.toggle("spread", deep.size > 0);
    if (deep.size > 0) {
      this.renderSpreadPile(box, pile, deep);
      return;
    }
    const shown = pile.slice(-3);
    const fan = el("div", { className: "fan pile-fan" });
    if (shown.length === 0) fan.append(el("div", { className: "card-space", text: "empty" }));
    for (const card of shown) fan.append(card === null ? this.card(null, { faceDown: true }) : this.card(card));
    const top = pile.length ? pile[pile.length - 1] : undefined;
    const topName = top === undefined ? "empty" : top === null ? "a face-down card on top" : `the ${cardName(top)} on top`;
    const label = el("span", { className: "note", text: `Pile: ${pile.length}` });
    const take = this.moves().find((move) => move.kind === "take");
    if (take) {
      const button = el(
        "button",
        { className: "pile-button playable", attrs: { type: "button", "data-key": "pile", "aria-label": `${moveLabel(take)} (${plural(pile.length, "card")} in the pile)` } },
        fan,
        label,
      );
      button.addEventListener("click", () => this.play(take.text, "pile"));
      box.append(button);
    } else {
      box.append(el("div", { className: "pile-button", attrs: { role: "img", "aria-label": `The discard pile: ${plural(pile.length, "card")}, ${topName}` } }, fan, label));
    }
  }

  // The whole pile laid out, bottom to top, when some card under the top may be taken
  // (the practical rules' deep take): each card a legal take names is a button. The top
  // card is taken at a click; a deeper one is chosen, which lifts it with the cards
  // above it and offers its take, in words that say how many come with it.
  renderSpreadPile(box, pile, deep) {
    const plain = this.moves().find((move) => move.kind === "take" && !isDeepTake(move));
    const chosenAt = this.pileChoice === null ? -1 : pile.lastIndexOf(this.pileChoice);
    const row = el("div", { className: "pile-spread", attrs: { role: "group", "aria-label": `The discard pile, bottom to top: ${plural(pile.length, "card")}` } });
    const focusable = this.pileChoice ?? plain?.pile[0] ?? [...deep.keys()].at(-1);
    pile.forEach((card, index) => {
      const picture = card === null ? this.card(null, { faceDown: true }) : this.card(card);
      const coming = chosenAt >= 0 && index >= chosenAt;
      const move = card === null ? undefined : deep.get(card) ?? (plain && plain.pile[0] === card ? plain : undefined);
      if (!move) {
        const classes = `pile-spread-card${coming ? " coming" : ""}`;
        row.append(el("div", { className: classes, attrs: { "aria-hidden": "true" } }, picture));
        return;
      }
      const chosen = card === this.pileChoice;
      const button = el(
        "button",
        {
          className: `pile-spread-card playable${coming ? " coming" : ""}${chosen ? " chosen" : ""}`,
          attrs: {
            type: "button",
            "data-key": `pile:${card}`,
            "data-pile-card": card,
            "aria-label": moveLabel(move),
            "aria-pressed": isDeepTake(move) ? String(chosen) : undefined,
            tabindex: card === focusable ? "0" : "-1",
            title: moveLabel(move),
          },
        },
        picture,
      );
      if (isDeepTake(move)) button.addEventListener("click", () => this.choosePile(card));
      else button.addEventListener("click", () => this.play(move.text, "pile"));
      row.append(button);
    });
    const chosen = deep.get(this.pileChoice);
    const note = chosen
      ? `${moveLabel(chosen)}: press its button below your hand (or 1).`
      : "Choose a card to take it with every card above it; the one you choose must be played this turn.";
    box.append(row, el("span", { className: "note", text: `Pile: ${pile.length}. ${note}` }));
  }

  // The last moves of both players, beside the pile where the eye already is: the
  // other player's since this seat's last move (told as this seat saw them), and this
  // seat's own last turn.
  renderRecap() {
    const { state } = this;
    const box = byId("recap");
    box.replaceChildren();
    const opponent = this.opponentName();
    const theirs = state.recap.length ? state.recap : ["No move since yours."];
    box.append(el("h3", { text: `${opponent}, since your last move` }), this.lines(theirs));
    const own = this.ownLastTurn();
    box.append(el("h3", { text: "Your last turn" }), this.lines(own.length ? own : ["You have not moved in this hand yet."]));
  }

  lines(texts) {
    const list = el("ul");
    for (const line of texts) list.append(el("li", { text: line }));
    return list;
  }

  // The server's sentences when this page made the moves, else the moves of this seat's
  // last turn as the view's history writes them (after a reload).
  ownLastTurn() {
    const { state } = this;
    if (this.ownLast.hand === state.hand_index && this.ownLast.sentences.length) return this.ownLast.sentences;
    const history = state.view.history ?? [];
    const mine = [];
    let index = history.length - 1;
    while (index >= 0 && history[index][0] !== state.seat) index -= 1;
    while (index >= 0 && history[index][0] === state.seat) {
      mine.unshift(readableMove(history[index][1]));
      index -= 1;
    }
    return mine;
  }

  renderHand() {
    const { state } = this;
    const box = byId("hand");
    box.replaceChildren();
    const moves = this.moves();
    const usable = new Set(moves.flatMap((move) => move.hand));
    const selected = new Set(this.selected);
    const focusCard = this.focusedCard(this.order);
    for (const card of this.order) {
      const looks = { chosen: selected.has(card), isNew: this.newCards.has(card), idle: usable.size > 0 && !usable.has(card), focusCard };
      box.append(
        this.handButton(card, looks, () => {
          if (!this.suppressClick) this.toggle(card);
        }),
      );
    }
    if (this.order.length === 0) {
      const why = state.view.phase === "choose" ? "The cards are dealt once the dealer has chosen who gets the 11th." : "No cards in hand.";
      box.append(el("p", { className: "empty", text: why }));
    }
    box.setAttribute("aria-label", `Your hand: ${plural(state.view.hand.length, "card")}`);
  }

  renderActions() {
    const { state } = this;
    const box = byId("actions");
    box.replaceChildren();
    if (state.over || !state.your_turn || state.handed_over) return;
    const handSize = state.view.hand.length;
    const opponent = this.opponentName();
    const offered = this.offered();
    offered.forEach((move, index) => {
      const number = index < 9 ? `${index + 1}` : "";
      const isOut = (move.kind === "discard" && handSize === 1) || move.kind === "pair";
      const button = el(
        "button",
        {
          className: `move${this.hinted === move.text ? " hinted" : ""}${isOut ? " primary" : ""}`,
          attrs: {
            type: "button",
            "data-key": `action-index:${index}`,
            "data-move": move.text,
            "aria-keyshortcuts": number || undefined,
            disabled: this.pending,
          },
        },
      );
      if (number) button.append(el("kbd", { text: number, attrs: { "aria-hidden": "true" } }));
      button.append(moveLabel(move, { opponent, handSize }));
      button.dataset.actionIndex = String(index);
      button.addEventListener("click", () => this.play(move.text, `action-index:${index}`));
      box.append(button);
    });
    if (this.selected.length > 0 && movesForSelection(this.moves(), this.selected).length === 0) {
      const why = el("button", { className: "move why", text: "Why not?", attrs: { type: "button", "data-key": "why", "aria-keyshortcuts": "W" } });
      why.addEventListener("click", () => this.why());
      box.append(el("span", { className: "note no-match", text: `No move uses exactly ${this.selected.map(cardText).join(" ")}.` }), why);
    } else if (this.selected.length === 0 && state.view.phase === "play") {
      box.append(el("span", { className: "note", text: "Select the cards of a meld, a card to play off the table, or a card to discard." }));
    }
    const tools = el("span", { className: "tools" });
    if (this.selected.length > 0) {
      const clear = el("button", { className: "quiet", text: "Clear", attrs: { type: "button", "data-key": "clear", "aria-keyshortcuts": "Escape" } });
      clear.addEventListener("click", () => this.clearSelection());
      tools.append(clear);
    }
    const hint = el("button", { className: "quiet", text: "Hint", attrs: { type: "button", "data-key": "hint", "aria-keyshortcuts": "H", disabled: this.pending } });
    hint.addEventListener("click", () => this.hint());
    tools.append(hint);
    box.append(tools);
  }

  renderScores() {
    const { state } = this;
    const sheet = state.scores;
    const box = byId("scores");
    const [first, second] = state.names;
    box.replaceChildren(
      ...sheet.games.map(([number, hands, totals]) =>
        sheetTable(`Game ${number}`, this.headings(), hands.map((points, index) => [`Hand ${index + 1}`, points]), [["Total", totals]]),
      ),
    );
    if (sheet.this_hand && !state.over) {
      box.append(el("p", { className: "note this-hand", text: thisHandSentence(state.names, sheet.this_hand) }));
    }
    if (sheet.games_won) {
      box.append(el("p", { className: "games-won", text: `Games won: ${first} ${sheet.games_won[0]}, ${second} ${sheet.games_won[1]}` }));
    }
    if (!sheet.games.length && !sheet.this_hand) box.append(el("p", { className: "note", text: "No hand finished yet." }));
  }

  /** What Umtali adds to the end of a hand (hand_end.js draws both sides): the other player's last moves in it, folded. */
  handEnd() {
    const previous = this.state.previous;
    if (!previous?.recap.length) return { extra: [] };
    const list = el("ul");
    for (const line of previous.recap) list.append(el("li", { text: line }));
    return { extra: [el("details", { className: "hand-end-recap" }, el("summary", { text: `${this.opponentName()}'s last moves` }), list)] };
  }

  finishedHands() {
    return this.state.scores.games.reduce((count, game) => count + game[1].length, 0);
  }
}

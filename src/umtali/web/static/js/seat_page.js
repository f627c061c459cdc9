// What every seat's table does whatever the game: it reads the seat's state and keeps it
// live, says what the server answers, and draws the parts around the board that both
// games show alike: the connection, whether the other player is here, the other
// player's cards face down, the stock, the end of a hand over the table, the result and
// the record to download, and the player's name (names.js).
//
// Each game's table (/static/games/<game>/table.js, with its markup table.html) extends
// SeatPage. Their elements have the same ids but for the game's prefix: `part("stock")`
// is #stock at a table of prefix "" and #x-stock at one of prefix "x-", and the
// keys of the buttons (data-key, by which the focus is kept across a redraw) take the
// same prefix.
//
// While the connection is lost, a banner at the top of the window says so (and when
// the next try is), and every button of the board is disabled, so that no move is sent
// into the void; the first state the socket brings once it is back lifts both, and an
// error said during the outage goes with them. The tab's title and icon mark the
// player's turn, for a player in another tab, and the sounds (sound.js) tell a deal,
// his own draw or play, and his turn. The cards move (motion.js): each redraw is
// measured before and after, and the moves since the state drawn before fly one at a
// time, the table's places and cards being marked in its markup (data-place, data-card).
//
// A table fills in what is its game's own: wire() (its keys and pointer), accept(state)
// (a state newer than the one shown, or changed), draw() if drawing may wait,
// renderBoard(), renderScores(), played(answer, before), takeHint(answer),
// handEnd() (what it adds to the end of a hand), handOrder(), finishedHands() and
// focusFallsToHand(key).

import { api, ApiError, isMissingEndpoint } from "./api.js";
import { cardName, cardSvg, cardText } from "./cards.js";
import { handEndParts } from "./hand_end.js";
import { byId, confirmHotSeat, el, hotSeatPartner, keepHotSeat, keepInTab, plural, tabValue, takeHotSeatConfirmation } from "./dom.js";
import { isTableShortcut } from "./keys.js";
import { LiveSeat } from "./live.js";
import { Motion, movesSince } from "./motion.js";
import { NameOffer } from "./names.js";
import { playSound } from "./sound.js";

const ICON = "/static/img/icon.svg";
const TURN_ICON = "/static/img/icon-turn.svg"; // the icon with a dot: your turn
const TURN_MARK = "● Your turn — "; // before the tab's title on the player's turn

const STATUS_TEXT = {
  connecting: "Connecting…",
  live: "Live",
  waiting: "Connection lost",
  "no-seat": "No seat",
  "too-many": "Open in too many tabs: close one",
  stopped: "Closed",
};

/** Show that no seat has the page's link, and why (`detail`, the server's words). */
export function showNoSeat(detail) {
  byId("hot-seat-cover").hidden = true;
  byId("seat-waiting").hidden = true;
  byId("no-seat").hidden = false;
  byId("no-seat-detail").textContent = `The server says: ${detail}.`;
}

/** One seat's table, from its secret (the path /seat/{secret}). */
/** `names` as a table's headings show them: the reader's own, at `own` and sent as "You",
 * is "Ann (you)" once he gave his name (sentences still speak to him as "You"). */
export function headingNames(state, names, own) {
  return names.map((name, index) => (index === own && name === "You" && state.name_given ? `${state.your_name} (you)` : name));
}

export class SeatPage {
  constructor(secret, { prefix, titleId, fourColour, recordName }) {
    this.secret = secret;
    this.prefix = prefix;
    this.titleId = titleId;
    this.recordName = recordName; // a downloaded record's file is named `${recordName}-{id}.json`
    this.state = null;
    this.pending = false; // a move is on its way
    this.message = null; // {kind: "error" | "hint" | "info", text, offline: said while offline}
    this.hinted = null; // the hint's move text, to mark its button
    this.focusKey = null; // the data-key to give the focus to once drawn
    this.fourColour = fourColour;
    // Hot-seat (both seats played in this tab): the other seat's secret, and whether this
    // seat's player has said he is the one at the device (on the other seat's page, just
    // before this one opened).
    this.partnerSecret = hotSeatPartner(secret);
    this.confirmed = this.partnerSecret !== null && takeHotSeatConfirmation(secret);
    this.offline = false; // the connection was lost, and the table is not yet read again
    this.socketLive = false; // the socket is open
    this.countdown = null; // the banner's timer, counting down to the next try
    this.offlineWatch = null; // disables the buttons a redraw adds while offline
    this.motion = new Motion(); // the cards' flights between redraws (motion.js)
    this.drawn = null; // the state last drawn: the moves since it are the ones to show
    this.names = new NameOffer(this); // the player's name, and the field to give it
    this.live = new LiveSeat(api.socketUrl(secret), {
      onState: (state) => this.fromSocket(state),
      onStatus: (status) => this.showConnection(status),
    });
  }

  /**
   * A state from the server, handed to the game's accept() unless it is older than the
   * one shown or the very same: the WebSocket's copy of this page's own move comes after
   * the move's answer, and drawing it again would replace every button, losing a click
   * whose press and release fall either side of the redraw. `redraw`: draw the table
   * even so, since something of the page's own changed.
   */
  receive(state, { redraw = false } = {}) {
    if (!state || state.type !== "state") return;
    const old = this.state;
    if (old && (state.version < old.version || JSON.stringify(state) === JSON.stringify(old))) {
      if (redraw) this.draw();
      return;
    }
    this.accept(state);
    if (old && this.state === state) this.soundChange(old, state);
  }

  /** A state from the socket: the first after the connection came back ends the outage. */
  fromSocket(state) {
    if (this.offline && this.socketLive) {
      this.offline = false;
      this.dropError();
      this.renderBanner();
      this.receive(state, { redraw: true }); // drawn even if nothing changed: the buttons come back
      return;
    }
    this.receive(state);
  }

  /** The sound of a change of the game seen from here: a new hand dealt, or the player's turn come. */
  soundChange(old, state) {
    const dealt = state.hand_index !== old.hand_index && !state.over;
    if (dealt) playSound("deal");
    if (this.isYourTurn(state) && !this.isYourTurn(old)) playSound("turn", dealt ? 0.3 : 0);
  }

  /** Whether `state` waits for this seat's player (not when the computer plays his seat). */
  isYourTurn(state) {
    return Boolean(state?.your_turn && !state.over && !state.handed_over);
  }

  /** Draw the table now (a table that must hold a redraw back overrides this). */
  draw() {
    this.render();
  }

  /** The element of this table named `name` (its id without the game's prefix). */
  part(name) {
    return byId(`${this.prefix}${name}`);
  }

  // -- lifecycle ------------------------------------------------------------------------

  /** Show the table, from the state already read (or read it now). */
  async start(first = null) {
    // In hot-seat, nothing of the table shows until the state says whose it is.
    this.part("table").hidden = this.partnerSecret !== null;
    this.wire();
    try {
      this.receive(first ?? (await api.state(this.secret)));
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
    this.part("table").hidden = true;
    showNoSeat(detail);
  }

  setFourColour(on) {
    this.fourColour = on;
    this.render();
  }

  /** Whether a key pressed on the page is for this table (see keys.js), once it has a state. */
  isShortcut(event) {
    return isTableShortcut(event, this.part("table")) && this.state !== null;
  }

  opponentName() {
    return this.state.names[1 - this.state.seat];
  }

  /** The two names as the seats and the score sheet's columns are headed (sentences say "You"). */
  headings() {
    const { state } = this;
    return headingNames(state, state.names, state.view?.seat ?? state.seat);
  }

  // -- asking the server -----------------------------------------------------------------

  /** Say `text`; `rule` ({id, title, url}, a refused move's): the rule it breaks, shown as a link to its page. */
  say(kind, text, rule = null) {
    this.message = { kind, text, rule, offline: this.offline };
    this.render();
  }

  /** Hand this seat's opponent over to the computer, or take this seat back: `call` is the api's. */
  async seatCall(call) {
    try {
      this.receive(await call(this.secret));
    } catch (error) {
      this.say("error", error.message);
    }
  }

  /** Send a move; once it is played, `focusAfter` is the data-key the focus goes to. */
  async play(move, focusAfter = null) {
    if (this.pending) return;
    if (this.offline) {
      this.nudgeBanner(); // nothing is sent while the connection is lost
      return;
    }
    this.pending = true;
    this.message = null;
    this.hinted = null;
    this.render();
    const before = this.state;
    try {
      const answer = await api.move(this.secret, move);
      this.pending = false;
      playSound(/^(draw|take)\b/.test(move) ? "draw" : "play");
      this.focusKey = focusAfter;
      this.played(answer, before); // the game's own: what it clears and what it keeps
      this.receive(answer.state, { redraw: true }); // no move is on its way now
    } catch (error) {
      this.pending = false;
      this.say("error", error.message, error.body?.rule);
    }
  }

  /** Ask for a hint: the game marks the move hinted (takeHint(answer)) and says the sentence it returns. */
  async hint() {
    if (this.offline) {
      this.nudgeBanner();
      return;
    }
    if (!this.state?.your_turn) {
      this.say("info", "A hint is given on your turn.");
      return;
    }
    try {
      this.say("hint", this.takeHint(await api.hint(this.secret)));
    } catch (error) {
      this.say("error", error.message);
    }
  }

  // A rematch answers the new game's link for this seat (GameCreated with one seat).
  // In hot-seat both seats ask (the second lands in the game the first made), so that
  // the tab keeps both new links, and the seat to move opens.
  async rematch() {
    try {
      const answer = await api.rematch(this.secret);
      let secret = answer?.seats?.[0]?.secret;
      if (typeof secret === "string" && this.partnerSecret !== null) {
        const partner = (await api.rematch(this.partnerSecret))?.seats?.[0]?.secret;
        if (typeof partner === "string") {
          keepHotSeat(secret, partner);
          if (!(await api.state(secret)).your_turn) secret = partner;
        }
      }
      if (typeof secret === "string") window.location.assign(`/seat/${encodeURIComponent(secret)}`);
      else this.say("error", "The rematch was made, but its link did not come back: reload the page.");
    } catch (error) {
      if (isMissingEndpoint(error)) window.location.assign("/");
      else this.say("error", error.message);
    }
  }

  // -- drawing ---------------------------------------------------------------------------

  card(card, options = {}) {
    return cardSvg(card, { fourColour: this.fourColour, ...options });
  }

  /** Draw the state: the title, the game's own board, then the panels under and over it; the focus stays where it was. */
  render() {
    if (!this.state) {
      this.renderMessage();
      this.part("table").hidden = false; // no state: no cards, only the message why
      return;
    }
    const focusKey = this.focusKey ?? document.activeElement?.dataset?.key ?? null;
    this.focusKey = null;
    const { state } = this;
    // The same state drawn again (a move's answer the socket brought first): whatever
    // is in the air keeps flying.
    const before = this.motion.snapshot(this.part("board"), { same: state === this.drawn });
    const steps = movesSince(this.drawn, state);
    this.drawn = state;
    // What the page shows, for tests and tools: the version drawn, and whether a move
    // is on its way.
    const table = this.part("table");
    table.dataset.version = String(state.version);
    table.dataset.pending = this.pending ? "true" : "false";
    byId(this.titleId).textContent = state.title;
    this.renderTabTurn();
    this.renderBoard();
    this.renderMessage();
    this.renderScores();
    this.renderPrevious();
    this.renderHandEnd();
    this.renderResult();
    this.renderRecords();
    this.names.render();
    this.renderOffline();
    if (!this.renderCover()) this.restoreFocus(focusKey);
    if (!this.part("hand-end").hidden || this.part("table").hidden) return; // a panel over the board: nothing flies
    this.motion.play(before, steps);
  }

  /** The tab's title and icon: marked while it is the player's turn, for a player in another tab. */
  renderTabTurn() {
    const yours = this.isYourTurn(this.state);
    document.title = `${yours ? TURN_MARK : ""}${this.state.title} · Umtali`;
    const icon = document.querySelector("link[rel~='icon']");
    const href = yours ? TURN_ICON : ICON;
    if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  }

  // -- the connection lost ---------------------------------------------------------------

  /**
   * While offline, every button of the board is disabled (and said so to a screen
   * reader), the board dimmed, and a button a redraw adds is disabled as it comes; once
   * back, the buttons this disabled are enabled again (a redraw makes most anew).
   */
  renderOffline() {
    const table = this.part("table");
    const board = this.part("board");
    table.classList.toggle("offline", this.offline);
    if (this.offline) {
      this.disableBoard(board);
      if (this.offlineWatch === null) {
        this.offlineWatch = new MutationObserver(() => this.disableBoard(board));
        this.offlineWatch.observe(board, { childList: true, subtree: true });
      }
      return;
    }
    this.offlineWatch?.disconnect();
    this.offlineWatch = null;
    for (const button of board.querySelectorAll("button[data-offline]")) {
      button.disabled = false;
      button.removeAttribute("aria-disabled");
      delete button.dataset.offline;
    }
  }

  disableBoard(board) {
    for (const button of board.querySelectorAll("button:not(:disabled)")) {
      button.disabled = true;
      button.setAttribute("aria-disabled", "true");
      button.dataset.offline = "true";
    }
  }

  /** An error said before or during the outage, or anything said during it, is stale once the connection is lost or back. */
  dropError() {
    if (this.message?.kind === "error" || this.message?.offline) this.message = null;
  }

  /** The banner over the window while the connection is lost: why the moves wait, when the next try is, and a button to try now. */
  renderBanner(status = null, retryIn = 0) {
    const banner = byId("connection-banner");
    clearInterval(this.countdown);
    this.countdown = null;
    if (!banner) return;
    if (!this.offline) {
      banner.hidden = true;
      banner.replaceChildren();
      return;
    }
    const next = el("span", { attrs: { "aria-hidden": "true" } });
    let text;
    if (status === "waiting") {
      const at = Date.now() + retryIn;
      text = () => `Retrying in ${Math.max(1, Math.ceil((at - Date.now()) / 1000))} s.`;
      this.countdown = setInterval(() => {
        next.textContent = text();
      }, 1000);
    } else {
      text = () => (this.socketLive ? "Back: reading the table…" : "Reconnecting…");
    }
    next.textContent = text();
    const retry = el("button", { className: "quiet", text: "Retry now", attrs: { type: "button" } });
    retry.addEventListener("click", () => this.live.connectNow());
    // One run of text, so that it wraps as a sentence beside the button on a phone.
    banner.replaceChildren(el("span", { className: "connection-banner-text" }, el("strong", { text: "Connection lost." }), " Your moves wait until it is back. ", next));
    if (status === "waiting") banner.append(" ", retry);
    banner.hidden = false;
  }

  /** A move tried while offline: the banner shows it is why nothing happens. */
  nudgeBanner() {
    const banner = byId("connection-banner");
    if (!banner) return;
    banner.classList.remove("nudge");
    void banner.offsetWidth; // start the animation again
    banner.classList.add("nudge");
  }

  // -- hot-seat --------------------------------------------------------------------------

  /**
   * The cover that hides the whole table in hot-seat, so that neither hand shows to the
   * wrong person: up while the other seat of this device is to move ("pass the device"),
   * and on opening this seat's page until its player says he is the one at it. A hand's
   * end and the game's end are for both to see: no cover then. Whether the cover is up.
   */
  renderCover() {
    const cover = byId("hot-seat-cover");
    const table = this.part("table");
    const { state } = this;
    if (this.partnerSecret === null || state.over) {
      cover.hidden = true;
      table.hidden = false;
      return false;
    }
    const ownName = state.name_given ? state.your_name : `Player ${state.seat + 1}`;
    let to = null; // who is to take the device, and the seat's page that is his
    if (!this.confirmed) to = { name: ownName, secret: this.secret };
    else if (!state.your_turn && this.part("hand-end").hidden) to = { name: this.opponentName(), secret: this.partnerSecret };
    table.hidden = to !== null;
    if (to === null) {
      cover.hidden = true;
      return false;
    }
    const wasHidden = cover.hidden;
    const show = el("button", { className: "primary", text: `I am ${to.name}: show my hand`, attrs: { type: "button", id: "hot-seat-show" } });
    show.addEventListener("click", () => this.uncover(to.secret));
    cover.replaceChildren(
      el("h1", { text: `Pass the device to ${to.name}`, attrs: { id: "hot-seat-title" } }),
      el("p", { text: `Both hands are hidden: ${to.name} alone should see what comes next.` }),
      show,
    );
    cover.hidden = false;
    if (wasHidden || !cover.contains(document.activeElement)) show.focus();
    return true;
  }

  /** The player at the device has said he is the one of seat `secret`: show his hand, here or on his seat's page. */
  uncover(secret) {
    if (secret === this.secret) {
      this.confirmed = true;
      this.focusKey = `${this.prefix}hand:${this.handOrder()[0] ?? ""}`;
      this.render();
      return;
    }
    this.live.stop();
    confirmHotSeat(secret);
    window.location.assign(`/seat/${encodeURIComponent(secret)}`);
  }

  /** Give the focus back to the button it was on before the redraw, or to the hand when that button is gone. */
  restoreFocus(focusKey) {
    if (!focusKey) return;
    const again = this.part("table").querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    else if (this.focusFallsToHand(focusKey)) this.part("hand").querySelector("button[tabindex='0']")?.focus({ preventScroll: true });
  }

  showConnection({ status, retryIn }) {
    if (status === "no-seat") {
      this.noSeat("no seat has this link");
      return;
    }
    this.socketLive = status === "live";
    const wasOffline = this.offline;
    if (status === "waiting") this.offline = true;
    else if (status === "too-many" || status === "stopped") this.offline = false; // moves go over HTTP still
    // "connecting" and "live" keep it: offline lasts until the socket brings the table again.
    this.renderBanner(status, retryIn);
    if (wasOffline !== this.offline) {
      this.dropError();
      if (this.state) this.render();
    }
    const node = this.part("connection");
    node.dataset.status = status;
    node.replaceChildren(el("span", { className: "dot", attrs: { "aria-hidden": "true" } }));
    if (status === "waiting" || status === "too-many") {
      node.append(
        status === "waiting"
          ? `Connection lost: retrying in ${Math.max(1, Math.round(retryIn / 1000))} s `
          : "This seat is open in too many tabs or windows: close one, then ",
      );
      // The banner over the page has "Retry now" while the connection is lost.
      if (status === "too-many") {
        const retry = el("button", { className: "quiet", text: "Retry now", attrs: { type: "button" } });
        retry.addEventListener("click", () => this.live.connectNow());
        node.append(retry);
      }
    } else {
      node.append(STATUS_TEXT[status] ?? status);
    }
  }

  /** Whether the other player is here (and the offer to let the computer play for them), and this seat's own banner when the computer plays it. */
  renderPresence() {
    const { state } = this;
    const presence = this.part("opponent-presence");
    presence.replaceChildren();
    const opponent = state.opponent;
    // In hot-seat the other player is at this device, whether or not his page is open.
    if (state.open_table) {
      // An open table nobody has sat down at yet: who waits, and the computer instead.
      const over = state.open_table.over;
      const text = over ? "Nobody sat down" : "Waiting for someone to sit down";
      presence.append(el("span", { className: "presence-tag away", text }));
      const button = el("button", { className: over ? "primary" : "quiet", text: "Play the computer instead", attrs: { type: "button", "data-key": `${this.prefix}computer-instead` } });
      button.addEventListener("click", () => this.seatCall(api.handOver));
      presence.append(" ", button);
    } else if (opponent?.kind === "person" && this.partnerSecret === null) {
      const away = opponent.present === false;
      const seconds = Number(opponent.away_seconds ?? 0);
      let text = away ? "away" : "here";
      if (away && seconds >= 60) text = `away ${Math.floor(seconds / 60)} min`;
      if (opponent.handed_over) text = "the computer plays for them";
      presence.append(el("span", { className: `presence-tag ${away ? "away" : "here"}`, text }));
      if (opponent.can_hand_over && !opponent.handed_over) {
        const button = el("button", { className: "quiet", text: "Let the computer play for them", attrs: { type: "button", "data-key": `${this.prefix}hand-over` } });
        button.addEventListener("click", () => this.seatCall(api.handOver));
        presence.append(" ", button);
      }
    }
    const banner = this.part("away-banner");
    banner.hidden = !state.handed_over;
    banner.replaceChildren();
    if (state.handed_over) {
      const button = el("button", { className: "primary", text: "Take my seat back", attrs: { type: "button", "data-key": `${this.prefix}reclaim` } });
      button.addEventListener("click", () => this.seatCall(api.reclaim));
      banner.append(el("span", { text: "You were away, so the computer plays your seat. " }), button);
    }
  }

  /** The card of the hand (in `order`) that holds the keyboard: the one focused, else the first. */
  focusedCard(order) {
    const focused = document.activeElement?.dataset?.card;
    return order.includes(focused) ? focused : order[0];
  }

  /**
   * A card of the hand as a button that calls `onClick`: `chosen` or not, `isNew` (come
   * into the hand since it was held), `idle` (dimmed: no move uses it, while some move
   * uses cards of the hand), and the one the Tab key reaches when it is `focusCard`.
   */
  handButton(card, { chosen, isNew = false, idle, focusCard }, onClick) {
    const classes = ["hand-card"];
    if (chosen) classes.push("selected");
    if (isNew) classes.push("new");
    if (idle) classes.push("idle");
    const attrs = {
      type: "button",
      "data-card": card,
      "data-key": `${this.prefix}hand:${card}`,
      "aria-pressed": chosen ? "true" : "false",
      tabindex: card === focusCard ? "0" : "-1",
      title: isNew ? `${cardName(card)} (new)` : cardName(card),
    };
    const button = el("button", { className: classes.join(" "), attrs }, this.card(card));
    button.addEventListener("click", onClick);
    return button;
  }

  /** The other player's hand: `count` cards face down, but those `known` (taken from the pile) face up. */
  renderOpponentHand(count, known) {
    const box = this.part("opponent-hand");
    const fan = el("div", { className: "fan small", attrs: { "aria-hidden": "true" } });
    // The backs first, so that the known cards lie on top, in full view.
    for (let i = known.length; i < count; i += 1) fan.append(this.card(null, { faceDown: true }));
    for (const card of known) fan.append(this.card(card));
    let text = `${plural(count, "card")} in hand`;
    if (known.length > 0) text += `, of them ${known.map(cardText).join(" ")} (taken from the pile)`;
    box.replaceChildren(fan, el("span", { className: "note", text }));
  }

  /** The stock, a button that plays `draw` (the move's text) when drawing is a move now. */
  renderStock(size, draw) {
    const box = this.part("stock");
    const picture = size > 0 ? this.card(null, { faceDown: true }) : el("div", { className: "card-space" });
    const label = el("span", { className: "note", text: `Stock: ${size}` });
    const key = `${this.prefix}stock`;
    if (draw) {
      const button = el("button", { className: "pile-button playable", attrs: { type: "button", "data-key": key, "aria-label": `Draw from the stock (${plural(size, "card")})` } }, picture, label);
      button.addEventListener("click", () => this.play(draw, key));
      box.replaceChildren(button);
    } else {
      box.replaceChildren(el("div", { className: "pile-button", attrs: { role: "img", "aria-label": `The stock: ${plural(size, "card")}` } }, picture, label));
    }
  }

  renderMessage() {
    const node = this.part("message");
    node.textContent = this.message ? this.message.text : "";
    node.dataset.kind = this.message ? this.message.kind : "";
    const rule = this.message?.rule;
    if (rule && typeof rule.url === "string" && rule.url.startsWith("/rules/")) {
      // A new tab: the table stays as it is (and the seat's link resumes it anyway).
      const link = el("a", { className: "rule-link", text: `Why? See the rule (${rule.title})`, attrs: { href: rule.url, target: "_blank", rel: "noopener" } });
      node.append(" ", link);
    }
  }

  /**
   * The last hand that ended (the state's `previous`), drawn alike for every game
   * (hand_end.js), with what the game adds of its own: handEnd() returns {extra, soFar}.
   */
  handEndView({ review = true, ...options } = {}) {
    const end = this.state.previous;
    if (!end) return null;
    const own = this.handEnd() ?? {};
    // `review`: "Review this hand" under it (the dialog puts it beside its button instead).
    const link = review ? this.reviewLink(end.hand_index) : null;
    const extra = [...(own.extra ?? []), ...(link ? [el("p", { className: "hand-end-review" }, link)] : [])];
    return handEndParts(end, { card: (card, drawn) => this.card(card, drawn), extra, soFar: own.soFar ?? null, ...options });
  }

  /** "Review this hand" (the page /review, in a new tab, the secret in its fragment), where the game has a review; null where not. */
  reviewLink(handIndex) {
    if (!this.state.review) return null;
    const href = `/review#seat=${encodeURIComponent(this.secret)}&hand=${handIndex}`;
    return el("a", { className: "button", text: "Review this hand", attrs: { href, target: "_blank", rel: "noopener" } });
  }

  /** The last hand that ended, in the panel beside the board (in the result once the game is over). */
  renderPrevious() {
    const parts = this.state.over ? null : this.handEndView({ heading: "h3" });
    this.part("previous-panel").hidden = !parts;
    this.part("previous").replaceChildren(...(parts ?? []));
  }

  // The end of a hand that has just ended: a dialog over the table (the board stays where
  // it is, the next hand already dealt under it), shown once until the player closes it
  // by its button, Enter or Esc (remembered for this tab, so that a reload does not show
  // it again). At the game's end the result shows the last hand instead.
  renderHandEnd() {
    const { state } = this;
    const box = this.part("hand-end");
    const end = state.previous;
    const seenKey = `umtali.seen.${state.game_id}`;
    if (!end || state.over || end.hand_index <= Number(tabValue(seenKey) ?? "-1")) {
      box.hidden = true;
      if (box.open) box.close();
      return;
    }
    // autofocus: the dialog opens on its button (Enter goes on), not on the first link in it.
    const close = el("button", { className: "primary", text: "Next hand", attrs: { type: "button", autofocus: "", "data-key": `${this.prefix}hand-end-close` } });
    const done = () => {
      keepInTab(seenKey, String(end.hand_index));
      box.hidden = true;
      if (box.open) box.close();
      this.focusKey = `${this.prefix}hand:${this.handOrder()[0] ?? ""}`;
      this.render();
    };
    close.addEventListener("click", done);
    box.onclose = () => {
      if (!box.hidden && !this.part("table").hidden) done(); // closed by Esc
    };
    // "Review this hand" beside "Next hand", in the bar that stays in view as a long end scrolls.
    const review = this.reviewLink(end.hand_index);
    const actions = el("div", { className: "hand-end-actions" }, ...(review ? [review] : []), close);
    box.replaceChildren(...this.handEndView({ headingId: `${this.prefix}hand-end-title`, review: false }), actions);
    box.hidden = false;
    // Opened once the table is drawn, and only while it shows (not under the hot-seat cover).
    queueMicrotask(() => {
      if (box.hidden) return;
      if (this.part("table").hidden) {
        if (box.open) box.close();
      } else {
        if (!box.open) box.showModal();
        if (!box.contains(document.activeElement)) close.focus();
      }
    });
  }

  renderResult() {
    const { state } = this;
    const box = this.part("result");
    box.hidden = !state.over;
    if (!state.over) return;
    box.replaceChildren(el("h2", { className: "result-text", text: state.result ?? `The ${state.kind} is over.` }));
    const again = el("div", { className: "result-actions" });
    const rematchSecret = state.rematch?.seats?.[0]?.secret;
    if (typeof rematchSecret === "string" && this.partnerSecret === null) {
      again.append(el("a", { className: "button primary", text: "Play the rematch", attrs: { href: `/seat/${encodeURIComponent(rematchSecret)}` } }));
    } else {
      const button = el("button", { className: "primary", text: "Rematch", attrs: { type: "button", "data-key": `${this.prefix}rematch` } });
      button.addEventListener("click", () => this.rematch());
      again.append(button);
    }
    again.append(el("a", { className: "button", text: "New game", attrs: { href: "/" } }));
    box.append(again);
    // The last hand under it; a match of one hand has said who won it already.
    const last = this.handEndView({ heading: state.kind === "hand" ? null : "h3" });
    if (last) box.append(el("div", { className: "result-hand" }, ...last));
  }

  /** The record to download: the finished hands while the game goes on, the whole record once it is over. */
  renderRecords() {
    const { state } = this;
    const box = this.part("records");
    const finished = this.finishedHands();
    const file = `${this.recordName}-${state.game_id}`;
    if (state.over) {
      box.replaceChildren(
        el("a", { className: "button", text: "Download the whole record", attrs: { href: api.fullRecordPath(state.game_id), download: `${file}.json` } }),
        el("p", { className: "note", text: "Open it on the Replay page, or with umtali replay." }),
      );
    } else if (finished > 0) {
      box.replaceChildren(
        el("a", { className: "button", text: `Download the finished hands (${finished})`, attrs: { href: api.recordPath(this.secret), download: `${file}-so-far.json` } }),
        el("p", { className: "note", text: "The whole record can be downloaded when the game is over." }),
      );
    } else {
      box.replaceChildren(el("p", { className: "note", text: "The record can be downloaded once a hand is finished." }));
    }
  }
}

// Cards that travel: after a redraw, each card that moved is seen going from where it
// was to where it is now, and the moves made since the last state drawn (the player's
// own, then the computer's or the other player's) play one at a time, in order, at the
// pace of the "Moves" setting (Off, Slow, Normal, Fast; prefs.js). Whatever the game:
// it reads only what the markup says.
//
// - A card on the board is an element with `data-card` (cards.js draws every face-up
//   card so) inside a place: an element with `data-place` (the stock, the pile, each
//   hand, each side's cards on the table, the trick). Only cards inside places count.
// - The hands are `data-place="your-hand"` and `"their-hand"`: a card played from a
//   hand, not in sight before, leaves from its player's hand.
// - A place may say which moves take a card from it (`data-from="draw"`: the stock) and
//   which lay one on it face down (`data-to="discard knock"`: the pile). A move that
//   names no card and takes from such a place brings a card from it (the drawn card, or
//   the one taken, if it is in sight; else a card face down); a move whose word is
//   followed by no card lays a card face down on the place that claims that word.
//
// The moves are the view's `history` ([[seat, notation], …]): those added since the
// state drawn before, in the same hand. A card is named in them as a rank and a suit
// (ASCII or Unicode). How it is done (FLIP): the places' cards are measured before the
// redraw (snapshot) and after it (play); nothing on the page itself moves: a copy of the
// card flies over the page in a layer of its own, fixed, clipped to the window and deaf
// to the pointer, while the card in its new place stays hidden until the copy lands
// (its opacity alone is animated). The table is drawn in its final state at once: its
// buttons act on it at once, and a redraw of a new state during a flight ends the
// flight. A redraw of the same state lets the flights go on (the answer to a move that
// the socket brought first, say, with the other player's moves after it, still to
// fly): the cards still in the air are hidden again in the redrawn places. A card that
// is hidden from this seat flies face down: the copies are made of what the page
// already shows, or are backs.
//
// For tests and tools: while cards fly, `document.body.dataset.animating` is "true";
// each move that makes a card fly sends the event "umtali:moved" on the document (its
// detail: {index, text, mine, cards}) as its flight starts; `document.body.dataset.motion`
// is the speed in use.

import { cardSvg } from "./cards.js";
import { prefs } from "./prefs.js";

/** Each speed: how long one card's flight lasts, and the pause after each move (ms). */
const PACES = {
  slow: { flight: 700, pause: 160 },
  normal: { flight: 420, pause: 90 },
  fast: { flight: 220, pause: 40 },
};
const STAGGER_MS = 50; // between the cards of one move (a meld of three)
const CARD_TOKEN = /(?:^|\s)(A|[2-9]|10|J|Q|K)([cdhs♣♦♥♠])(?=\s|$)/g;
const UNICODE_SUITS = { "♣": "c", "♦": "d", "♥": "h", "♠": "s" };
const REDUCED = "(prefers-reduced-motion: reduce)";

/** The speeds a player may choose, with their names on the page. */
export const SPEEDS = [
  ["off", "Off"],
  ["slow", "Slow"],
  ["normal", "Normal"],
  ["fast", "Fast"],
];

/**
 * The speed in use: the player's own choice if he made one; else Normal, but Off when
 * the system asks for reduced motion. (A speed chosen explicitly is kept even under
 * reduced motion: the player asked for it on this page.)
 */
export function motionSpeed() {
  const chosen = prefs.motion;
  if (chosen) return chosen;
  return window.matchMedia?.(REDUCED).matches ? "off" : "normal";
}

/** The cards a move's notation names, in ASCII ("meld 7♠ 6♠ 5♠" -> ["7s", "6s", "5s"]). */
export function namedCards(text) {
  return [...String(text).matchAll(CARD_TOKEN)].map(([, rank, suit]) => rank + (UNICODE_SUITS[suit] ?? suit));
}

/**
 * The moves of `state` made since `old` was drawn, each {text, mine}: those its view's
 * history adds to the one drawn, in the same hand (none for a first state, a new hand,
 * or a history that does not carry on the one drawn).
 */
export function movesSince(old, state) {
  const before = old?.view?.history;
  const after = state?.view?.history;
  if (!Array.isArray(before) || !Array.isArray(after) || old.hand_index !== state.hand_index) return [];
  if (after.length <= before.length) return [];
  const same = (a, b) => Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && a[1] === b[1];
  if (before.length && !same(before.at(-1), after[before.length - 1])) return [];
  const view = state.view;
  const seat = view.seat ?? view.player ?? state.seat;
  return after.slice(before.length).map(([actor, text]) => ({ text: String(text), mine: actor === seat }));
}

function boxOf(node) {
  const rect = node.getBoundingClientRect();
  return { left: rect.left, top: rect.top, width: rect.width, height: rect.height };
}

/** A box of `card`'s size in the middle of `place`. */
function cardIn(place, card) {
  const width = Math.min(card.width, place.width);
  const height = Math.min(card.height, place.height);
  return { left: place.left + (place.width - width) / 2, top: place.top + (place.height - height) / 2, width, height };
}

function shown(box) {
  return box.width > 0 && box.height > 0;
}

/** The places of `root` by name, and the cards in them by card name, each with its box. */
function measure(root) {
  const places = new Map();
  const cards = new Map();
  if (!root || root.hidden || !root.isConnected) return { places, cards };
  for (const place of root.querySelectorAll("[data-place]")) {
    const name = place.dataset.place;
    places.set(name, { node: place, box: boxOf(place) });
    for (const card of place.querySelectorAll("svg.card[data-card]")) {
      const box = boxOf(card);
      if (shown(box)) cards.set(card.dataset.card, { node: card, box, place: name });
    }
  }
  return { places, cards };
}

/** Moves cards between redraws of one table (see the module's comment). */
export class Motion {
  constructor() {
    this.flights = []; // the animations under way
    this.timers = [];
    this.landings = new Map(); // each card in the air: when it lands (performance.now())
    this.layer = null;
    document.body.dataset.motion = motionSpeed();
  }

  /** End every flight at once: its cards in their places. */
  finish() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    for (const animation of this.flights) animation.cancel();
    this.flights = [];
    this.landings.clear();
    this.layer?.replaceChildren();
    delete document.body.dataset.animating;
  }

  /** Whether cards are in the air. */
  get busy() {
    return document.body.dataset.animating === "true";
  }

  /**
   * Before a redraw: what `root` shows now, where (null when nothing will fly). With
   * `same` (the state drawn again), flights under way go on (see play()).
   */
  snapshot(root, { same = false } = {}) {
    if (same && this.busy) return { root, goingOn: true };
    this.finish();
    const speed = motionSpeed();
    document.body.dataset.motion = speed;
    if (speed === "off" || document.visibilityState === "hidden") return null;
    return { root, ...measure(root) };
  }

  /** After the redraw: fly the cards that moved, the moves `steps` ({text, mine}) one at a time. */
  play(before, steps) {
    if (before?.goingOn) {
      this.hideLanding(before.root);
      return;
    }
    if (!before?.places.size) return;
    const pace = PACES[motionSpeed()] ?? PACES.normal;
    const after = measure(before.root);
    if (!after.places.size) return;
    const flights = this.plan(before, after, steps);
    if (!flights.length) return;
    const layer = this.overlay();
    document.body.dataset.animating = "true";
    const announce = []; // each move's event, once its cards are in the layer
    let start = 0;
    let last = -1;
    let end = pace.flight;
    for (const [index, flight] of flights.entries()) {
      if (flight.step < 0) {
        // A card no move names (one sorted, or making room): it goes at once.
        this.fly(layer, flight, 0, pace.flight, index);
        continue;
      }
      if (flight.step !== last) {
        if (last !== -1) start += pace.flight + pace.pause;
        last = flight.step;
        const detail = { index: flight.step, text: flight.text, mine: flight.mine, cards: flights.filter((one) => one.step === flight.step).length };
        announce.push([start, detail]);
      }
      const delay = start + flight.order * STAGGER_MS;
      end = Math.max(end, delay + pace.flight);
      this.fly(layer, flight, delay, pace.flight, index);
    }
    for (const [at, detail] of announce) this.later(at, () => document.dispatchEvent(new CustomEvent("umtali:moved", { detail })));
    this.later(end + 20, () => this.finish());
  }

  /** After a redraw during flights: each card of `root` still in the air waits, unseen, until it lands. */
  hideLanding(root) {
    const now = performance.now();
    for (const card of root.querySelectorAll("[data-place] svg.card[data-card]")) {
      const left = (this.landings.get(card.dataset.card) ?? 0) - now;
      if (left > 0) this.flights.push(card.animate([{ opacity: 0 }, { opacity: 0 }], { duration: left, fill: "none" }));
    }
  }

  later(ms, run) {
    if (ms <= 0) run();
    else this.timers.push(setTimeout(run, ms));
  }

  overlay() {
    if (!this.layer || !this.layer.isConnected) {
      this.layer = document.createElement("div");
      this.layer.className = "motion-layer";
      this.layer.setAttribute("aria-hidden", "true");
      document.body.append(this.layer);
    }
    return this.layer;
  }

  /**
   * What flies, in order: for each move, the cards it names that moved or came into
   * sight, the card it draws or takes, or a card face down; then, together, any other
   * card that changed place or its order in its place (a card sorted or dragged).
   */
  plan(before, after, steps) {
    const flights = [];
    const used = new Set();
    const changed = (name) => {
      const now = after.cards.get(name);
      const was = before.cards.get(name);
      if (!now) return false;
      if (!was) return true;
      return Math.abs(now.box.left - was.box.left) > 1 || Math.abs(now.box.top - was.box.top) > 1;
    };
    const hand = (mine) => (mine ? "your-hand" : "their-hand");
    const claims = (attribute, word) => [...after.places.values()].find(({ node }) => (node.dataset[attribute] ?? "").split(/\s+/).includes(word));
    const card = (name, step, order, from = null) => {
      used.add(name);
      const was = before.cards.get(name);
      const to = after.cards.get(name).box;
      // A card not in sight before leaves from the middle of its place, at its own size.
      const place = from ?? after.places.get(hand(step.mine))?.box ?? before.places.get(hand(step.mine))?.box;
      const source = was?.box ?? (place && cardIn(place, to));
      if (!source) return;
      flights.push({ ...step, order, from: source, to, node: after.cards.get(name).node });
    };
    steps.forEach((move, index) => {
      const step = { step: index, text: move.text, mine: move.mine };
      const names = namedCards(move.text);
      names.filter((name) => !used.has(name) && changed(name)).forEach((name, order) => card(name, step, order));
      const words = move.text.split(/\s+/);
      if (!names.length) {
        const source = claims("from", words[0]);
        if (source) {
          // The card drawn or taken: one that came into this player's hand, else a back.
          const into = hand(move.mine);
          const from = (name) => before.cards.get(name)?.place ?? source.node.dataset.place; // not a card already in the hand
          const taken = [...after.cards.entries()].find(
            ([name, now]) => now.place === into && from(name) === source.node.dataset.place && !used.has(name) && changed(name) && !namedInAny(steps, name),
          );
          if (taken) card(taken[0], step, 0, source.box);
          else this.back(flights, step, source.box, after.places.get(into)?.box);
        }
      }
      // A word followed by no card: a card laid face down where that word lays it.
      words.forEach((word, at) => {
        const next = words[at + 1];
        if (next !== undefined && namedCards(next).length) return;
        const target = claims("to", word);
        if (target) this.back(flights, step, after.places.get(hand(move.mine))?.box, target.box);
      });
    });
    // Cards no move names that changed place, or order within their place.
    const rank = (cards, name) => [...cards.values()].filter((one) => one.place === cards.get(name).place).findIndex((one) => one === cards.get(name));
    const extra = { step: -1, text: "", mine: true };
    let order = 0;
    for (const [name, now] of after.cards) {
      const was = before.cards.get(name);
      if (used.has(name) || !was || !changed(name)) continue;
      if (was.place === now.place && rank(before.cards, name) === rank(after.cards, name)) continue; // the layout shifted
      card(name, extra, order);
      order += 1;
    }
    return flights;
  }

  back(flights, step, from, to) {
    if (!from || !to || !shown(from) || !shown(to)) return;
    // A back the size of the smaller place (the stock's, the pile's), not of a whole hand.
    const size = from.width <= to.width ? from : to;
    flights.push({ ...step, order: 0, from: cardIn(from, size), to: cardIn(to, size), node: null });
  }

  /** One card's flight: a copy (or a back) over the page from `from` to `to`; the card itself hidden until it lands. */
  fly(layer, flight, delay, duration, index) {
    const { from, to, node } = flight;
    const copy = node ? node.cloneNode(true) : cardSvg(null, { faceDown: true });
    if (node) copy.dataset.flying = node.dataset.card; // the card shown, for tests: the page shows it already
    copy.removeAttribute("data-card");
    copy.removeAttribute("role");
    copy.removeAttribute("aria-label");
    copy.classList.add("motion-card");
    copy.style.left = `${to.left}px`;
    copy.style.top = `${to.top}px`;
    copy.style.width = `${to.width}px`;
    copy.style.height = `${to.height}px`;
    copy.style.zIndex = String(index + 1);
    layer.append(copy);
    const scale = to.width > 0 ? from.width / to.width : 1;
    const start = `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(${scale})`;
    const timing = { duration, delay, easing: "cubic-bezier(0.3, 0.7, 0.3, 1)", fill: "both" };
    const flying = copy.animate(
      [
        { transform: start, opacity: 0 },
        { transform: start, opacity: 1, offset: 0.001 },
        { transform: "none", opacity: 1, offset: 0.999 },
        { transform: "none", opacity: 0 },
      ],
      timing,
    );
    this.flights.push(flying);
    if (node) {
      // The card in its place waits, unseen, until its copy lands.
      this.flights.push(node.animate([{ opacity: 0 }, { opacity: 0 }], { duration: delay + duration, fill: "none" }));
      const lands = performance.now() + delay + duration;
      this.landings.set(node.dataset.card, Math.max(lands, this.landings.get(node.dataset.card) ?? 0));
    }
  }
}

function namedInAny(steps, name) {
  return steps.some((step) => namedCards(step.text).includes(name));
}

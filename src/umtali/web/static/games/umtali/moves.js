// Moves as the page offers them: read from the notation of the seat's legal moves.
//
// The page knows no rule. The server sends every legal move in notation (the `legal`
// list of the seat's view, with ASCII cards); this module only reads that text, so that
// a click can be matched against it: which cards of the hand a move uses, which table
// card it is played off, whether it lays a discard face down. A choice is offered only
// if some legal move matches it exactly.

import { cardText } from "/static/js/cards.js";

const CARD = /^(A|[2-9]|10|J|Q|K)[cdhs]$/;

/**
 * One legal move read from its notation (ASCII cards), e.g. "meld 7s 6s 5s".
 *
 * kind: keep, give, draw, take, take-two, meld, play, discard, pair, run, forfeit
 * hand: the cards of the player's hand the move uses
 * pile: the cards it names in the discard pile (top first; a take names the one card
 *   it takes, or under the practical rules' deep take the deepest of those it takes)
 * target: the table card a solo is played off (null for a Jack played off nothing)
 * down: whether its discard is laid face down
 * Returns null for text that is none of these (a move this page cannot show).
 */
export function readMove(text) {
  const words = text.trim().split(/\s+/);
  const verb = words[0];
  const rest = words.slice(1);
  const allCards = (list) => list.length > 0 && list.every((word) => CARD.test(word));
  const move = { text, kind: verb, hand: [], pile: [], target: null, down: false };
  switch (verb) {
    case "keep":
    case "give":
    case "draw":
    case "forfeit":
      return rest.length === 0 ? move : null;
    case "take":
      if (!allCards(rest) || rest.length > 2) return null;
      return { ...move, kind: rest.length === 2 ? "take-two" : "take", pile: rest };
    case "meld":
      return allCards(rest) ? { ...move, hand: rest } : null;
    case "play":
      if (rest.length === 1 && allCards(rest)) return { ...move, hand: rest };
      if (rest.length === 3 && rest[1] === "off" && allCards([rest[0], rest[2]])) {
        return { ...move, hand: [rest[0]], target: rest[2] };
      }
      return null;
    case "discard": {
      const down = rest[1] === "down";
      if (rest.length === 1 + Number(down) && allCards([rest[0]])) {
        return { ...move, hand: [rest[0]], down };
      }
      return null;
    }
    case "pair":
    case "run": {
      // "pair A B" or "pair A B discard C [down]"; "run" the same, for a two-card run
      // (the practical rules let a player go out with one)
      const down = rest[rest.length - 1] === "down";
      const body = down ? rest.slice(0, -1) : rest;
      if (body.length === 2 && allCards(body) && !down) return { ...move, hand: body };
      if (body.length === 4 && body[2] === "discard" && allCards([body[0], body[1], body[3]])) {
        return { ...move, hand: [body[0], body[1], body[3]], down };
      }
      return null;
    }
    default:
      return null;
  }
}

/**
 * Every legal move this page can show, read from the view's ASCII `legal` list.
 * discardPile: the view's pile, bottom to top (null for a face-down card). With it, a
 * take says how many cards lie above the one it names (`above`): 0 for the top card,
 * more for a deep take (the practical rules), which takes them all.
 */
export function readMoves(legalTexts, discardPile = []) {
  const moves = legalTexts.map(readMove).filter((move) => move !== null);
  return moves.map((move) => {
    if (move.kind !== "take") return move;
    const at = discardPile.lastIndexOf(move.pile[0]);
    return { ...move, above: at < 0 ? 0 : discardPile.length - 1 - at };
  });
}

/** Whether `move` takes a card from under the top of the pile, with those above it. */
export function isDeepTake(move) {
  return move.kind === "take" && (move.above ?? 0) > 0;
}

/** The deep takes among `moves`: the pile card each one names -> the move. */
export function deepTakes(moves) {
  return new Map(moves.filter(isDeepTake).map((move) => [move.pile[0], move]));
}

function sameCards(one, other) {
  if (one.length !== other.length) return false;
  const wanted = new Set(other);
  return one.every((card) => wanted.has(card));
}

/** The moves that use exactly the selected cards of the hand (in any order). */
export function movesForSelection(moves, selected) {
  if (selected.length === 0) return [];
  return moves.filter((move) => move.hand.length > 0 && sameCards(move.hand, selected));
}

/** The moves that use no card of the hand: draw, take, keep, give, forfeit. */
export function movesWithoutHand(moves) {
  return moves.filter((move) => move.hand.length === 0);
}

/** Of the selected cards' moves, those played off a table card: target card -> move. */
export function targetsOf(moves, selected) {
  const targets = new Map();
  for (const move of movesForSelection(moves, selected)) {
    if (move.kind === "play" && move.target !== null) targets.set(move.target, move);
  }
  return targets;
}

function cards(list) {
  return list.map(cardText).join(" ");
}

/**
 * What a button offering the move says, e.g. "Play 10♦ off J♦".
 * handSize: the cards now in hand, to say when a discard goes out.
 */
export function moveLabel(move, { opponent = "your opponent", handSize = 0 } = {}) {
  switch (move.kind) {
    case "keep":
      return "Keep the 11th card and start";
    case "give":
      return `Give the 11th card to ${opponent}`;
    case "draw":
      return "Draw from the stock";
    case "take": {
      const above = move.above ?? 0;
      if (above === 0) return `Take ${cards(move.pile)} from the pile`;
      const others = above === 1 ? "the card" : `the ${above} cards`;
      return `Take ${cards(move.pile)} and ${others} above it`;
    }
    case "take-two":
      return `Take the top two: ${cards(move.pile)}`;
    case "meld":
      return `Lay ${cards(move.hand)}`;
    case "play":
      return move.target === null
        ? `Play ${cards(move.hand)} on its own`
        : `Play ${cards(move.hand)} off ${cardText(move.target)}`;
    case "discard": {
      const out = handSize === 1 ? " and go out" : "";
      return move.down ? `Discard ${cards(move.hand)} face down${out}` : `Discard ${cards(move.hand)}${out}`;
    }
    case "pair":
      if (move.hand.length === 2) return `Go out with the pair ${cards(move.hand)}`;
      return `Discard ${cardText(move.hand[2])}${move.down ? " face down" : ""} and go out with the pair ${cards(move.hand.slice(0, 2))}`;
    case "run":
      if (move.hand.length === 2) return `Go out with the run ${cards(move.hand)}`;
      return `Discard ${cardText(move.hand[2])}${move.down ? " face down" : ""} and go out with the run ${cards(move.hand.slice(0, 2))}`;
    case "forfeit":
      return "End your last turn without going out";
    default:
      return move.text;
  }
}

/**
 * The move a selection most likely means when no legal move matches it, so that the
 * server can say why it is refused: one card is a discard (or a solo off the card
 * clicked), two of a rank a pair, anything else a meld. Notation only; the server
 * judges it.
 */
export function guessedMove(selected, target = null) {
  if (selected.length === 0) return null;
  if (target !== null && selected.length === 1) return `play ${selected[0]} off ${target}`;
  if (selected.length === 1) return `discard ${selected[0]}`;
  const rank = (card) => card.slice(0, -1);
  if (selected.length === 2 && rank(selected[0]) === rank(selected[1])) {
    return `pair ${selected[0]} ${selected[1]}`;
  }
  return `meld ${selected.join(" ")}`;
}

// The end of a hand, drawn alike for every game from the shape each game's server sends
// (HandEnd in web/protocol.py): one heading that says who won it and by how much; then
// each player's side: his name, the cards he laid (each meld or column, small), the
// cards left over (deadwood, cards forfeited or still held), face down where the seat
// may not see them, his points in the hand and his total after it; then how it ended in
// one sentence, and what the game adds of its own (`extra`). SeatPage shows it over the
// table when a hand ends, and in the "Last hand" panel beside it.

import { cardName } from "./cards.js";
import { el, plural } from "./dom.js";

/** The panel's parts for `end` (a state's `previous`); `card(card, options)` draws a card. */
export function handEndParts(end, { card, extra = [], soFar = null, heading = "h2", headingId = null }) {
  const parts = [];
  // `heading` is the heading's tag (null: none, where the page has just said who won).
  if (heading) parts.push(el(heading, { className: "hand-end-heading", text: end.heading || `Hand ${end.hand_index + 1}`, attrs: { id: headingId } }));
  parts.push(el("div", { className: "hand-end-sides" }, ...end.sides.map((side) => sideBlock(side, card))));
  if (end.how) parts.push(el("p", { className: "how", text: sentence(end.how) }));
  parts.push(...extra);
  if (soFar) parts.push(el("p", { className: "hand-scores", text: soFar }));
  return parts;
}

/** A sentence of the server's, with its capital and its full stop. */
function sentence(text) {
  const body = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(body) ? body : `${body}.`;
}

function sideBlock(side, card) {
  const score = side.total === null || side.total === undefined ? plural(side.points, "point") : `${plural(side.points, "point")} · total ${side.total}`;
  const head = el("p", { className: "hand-end-head" }, el("strong", { text: side.name }));
  if (side.note) head.append(el("span", { className: "note", text: ` ${side.note}` }));
  head.append(el("span", { className: "hand-end-points", text: score }));
  const cards = el("div", { className: "hand-end-cards" });
  for (const meld of side.melds) cards.append(cardRow(meld, card, "meld", side.marked));
  if (side.left.length) {
    cards.append(el("div", { className: "hand-end-left" }, el("span", { className: "note", text: side.left_label }), cardRow(side.left, card, side.left_label || "left", [])));
  }
  return el("section", { className: "hand-end-side", attrs: { "aria-label": side.name } }, head, ...(cards.childElementCount ? [cards] : []));
}

/** A row of cards, read as one picture: `what` and the cards' names ("a card face down" for null). */
function cardRow(cards, card, what, marked) {
  const names = cards.map((one) => (one === null ? "a card face down" : cardName(one) + (marked.includes(one) ? " (laid off)" : "")));
  const row = el("div", { className: `card-row ${what === "meld" ? "meld" : "left"}`, attrs: { role: "img", "aria-label": `${what}: ${names.join(", ")}` } });
  for (const one of cards) {
    const picture = one === null ? card(null, { faceDown: true }) : card(one);
    row.append(marked.includes(one) ? el("span", { className: "laid-off" }, picture) : picture);
  }
  return row;
}

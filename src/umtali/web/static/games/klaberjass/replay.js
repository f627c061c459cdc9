// A record of Klaberjass as the replay page (/replay, learn/replay.js) shows it: the board
// after each move (both hands face up, the turned-up card, trump and its maker, the last
// card of the stock once shown, the trick on the table, each player's points and tricks),
// each hand's account, and the score sheet with the pot. What every game's replay module
// exports: boardView(board, hand), handEndView(hand) and recordEndView(record, hand, last).
//
// Every figure and sentence comes from the server (umtali.games.klaberjass.table, from
// the engine's own account and totals): this module only lays them out.

import { cardSvg, cardText, suitSymbol } from "/static/js/cards.js";
import { cardRow, el } from "/static/learn/common.js";

const HOW = { made: "made", failed: "failed", tied: "tied", thrown_in: "thrown in" };
const PHASE = { bid1: "bidding, first round", bid2: "bidding, second round", schmeiss: "schmeiss offered", exchange: "the exchange", play: "the play", over: "the hand is over" };

function spot(card, caption) {
  const box = el("div", "pile");
  box.append(el("h4", "side-caption", caption), cardRow([card]));
  return box;
}

/** A board of Klaberjass. `names` are the hand's two players, seat 0 first; `dealer` the seat that dealt. */
export function klaberjassBoardView(board, names, dealer) {
  const view = el("div", "board klaberjass-board");
  const facts = [`Dealer: ${names[dealer]}`];
  if (board.trump) facts.push(`Trump: ${suitSymbol(board.trump)}${board.maker !== null ? `, made by ${names[board.maker]}` : ""}`);
  facts.push(board.to_move !== null ? `${PHASE[board.phase] ?? board.phase} · to move: ${names[board.to_move]}` : PHASE.over);
  view.append(el("p", "board-facts", facts.join(" · ")));
  for (const seat of [0, 1]) {
    const box = el("section", "seat");
    box.append(el("h4", "seat-name", `${names[seat]} · ${board.points[seat]} points · ${board.tricks[seat]} tricks`));
    box.append(board.hands[seat].length ? cardRow(board.hands[seat], { overlap: true, label: board.hands[seat].map(cardText).join(" ") }) : el("p", "muted", "No cards left."));
    view.append(box);
  }
  const middle = el("div", "card-row");
  middle.append(spot(board.turned, "Turned up"));
  // Short captions, each no wider than its card and the gap after it: side by side,
  // longer ones ran into each other.
  if (board.bottom) middle.append(spot(board.bottom, "Bottom card"));
  const trick = el("div", "pile");
  trick.append(el("h4", "side-caption", "The trick"));
  if (board.trick.length) {
    const row = el("div", "card-row");
    for (const card of board.trick) row.append(cardSvg(card));
    trick.append(row);
  } else {
    trick.append(el("p", "muted", "No card on the table."));
  }
  middle.append(trick);
  view.append(middle);
  return view;
}

/** A hand's account: each player's points by kind, totals and scores. */
export function klaberjassEndView(end, names) {
  const table = el("table", "score-table");
  table.append(el("thead", "", el("tr", "", el("th", "", ""), el("th", "", names[0]), el("th", "", names[1]))));
  const row = (what, [a, b]) => el("tr", "", el("th", "", what), el("td", "num", a), el("td", "num", b));
  const body = el("tbody");
  body.append(row("Cards and last trick", end.card_points), row("Sequences", end.sequences), row("Bella", end.bella), row("Total", end.totals), row("Scores", end.scores));
  table.append(body);
  const box = el("div", "scores", table);
  if (end.to_pot) box.append(el("p", "muted", `${end.to_pot} go to the pot.`));
  return box;
}

/** The score sheet: each hand's scores as added to the totals, the totals and the pot. */
export function klaberjassSheetView(sheet, names, upTo = sheet.hands.length) {
  const table = el("table", "score-table");
  table.append(el("caption", "", `Score sheet (to ${sheet.target})`));
  table.append(el("thead", "", el("tr", "", el("th", "", ""), el("th", "", names[0]), el("th", "", names[1]), el("th", "", ""))));
  const body = el("tbody");
  const hands = sheet.hands.slice(0, upTo);
  hands.forEach(([[a, b], how], index) => body.append(el("tr", "", el("th", "", `Hand ${index + 1}`), el("td", "num", a), el("td", "num", b), el("td", "", HOW[how] ?? how))));
  const totals = hands.reduce(([a, b], [[x, y]]) => [a + x, b + y], [0, 0]);
  body.append(el("tr", "", el("th", "", "Totals"), el("td", "num", totals[0]), el("td", "num", totals[1]), el("td", "", upTo === sheet.hands.length && sheet.pot ? `pot ${sheet.pot}` : "")));
  table.append(body);
  return el("div", "scores", table);
}

/** A step's board, for the replay page. */
export function boardView(board, hand) {
  return klaberjassBoardView(board, hand.names, hand.dealer);
}

/** A finished hand's account, under its result. */
export function handEndView(hand) {
  return hand.klaberjass_end ? [el("h3", "", hand.result), klaberjassEndView(hand.klaberjass_end, hand.names)] : [];
}

/** After a hand's totals: the score sheet as it stood. */
export function recordEndView(record, hand, last) {
  const sheet = record.klaberjass_sheet;
  if (!sheet || !(last || hand.klaberjass_end)) return [];
  const upTo = hand.klaberjass_end ? hand.klaberjass_end.hand_index + 1 : sheet.hands.length;
  return [klaberjassSheetView(sheet, record.names, last ? sheet.hands.length : upTo)];
}

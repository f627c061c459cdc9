// A record of Gin Rummy as the replay page (/replay, learn/replay.js) shows it: the board
// after each turn (both players' cards face up, laid out in the melds the server found
// to leave the least deadwood), how each hand ended, and the score sheet of a game of
// two with its bonuses. What every game's replay module exports: boardView(board,
// hand), handEndView(hand) and recordEndView(record, hand, last), and, if it has one,
// its styleSheet.
//
// Every figure and sentence comes from the server (umtali.games.gin.table, from the
// engine's own summary and totals): this module only lays them out.

import { cardText } from "/static/js/cards.js";
import { capitalSentence, cardRow, el, pileView } from "/static/learn/common.js";

/** The style sheet the replay page loads for it. */
export const styleSheet = "/static/games/gin/replay.css";

function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** Melds side by side, then the deadwood: `laidOff` marks the cards another player laid
 * off on them. */
function laidOut(melds, deadwood, { laidOff = [] } = {}) {
  const row = el("div", "gin-laid");
  const off = new Set(laidOff);
  melds.forEach((meld, index) => {
    const group = el("div", "gin-group gin-meld");
    const cards = cardRow(meld, { overlap: true, label: `meld ${index + 1}: ${meld.map(cardText).join(" ")}` });
    for (const [at, card] of meld.entries()) {
      if (off.has(card)) cards.children[at].classList.add("laid-off");
    }
    group.append(cards, el("span", "column-caption", `meld ${index + 1}`));
    row.append(group);
  });
  if (deadwood.length) {
    const group = el("div", "gin-group gin-deadwood");
    group.append(
      cardRow(deadwood, { overlap: true, label: `deadwood: ${deadwood.map(cardText).join(" ")}` }),
      el("span", "column-caption", "deadwood"),
    );
    row.append(group);
  }
  return row;
}

/** A board of Gin Rummy: the stock, the knock limit, both hands face up, the pile.
 * `names` are the hand's two players, seat 0 first; `dealer` the seat that dealt. */
export function ginBoardView(board, names, dealer) {
  const view = el("div", "board gin-board");
  const facts = [`Stock: ${board.stock}`, `Dealer: ${names[dealer]}`, `Knock with at most ${board.knock_limit}`];
  if (board.knock_limit === 0) facts[2] = "Gin only (no knocking)";
  if (board.multiplier > 1) facts.push(`Points ×${board.multiplier} (a spade upcard)`);
  view.append(el("p", "board-facts", facts.join(" · ")));
  for (const seat of [0, 1]) {
    const hand = board.hands[seat];
    const box = el("section", "seat");
    box.append(el("h4", "seat-name", `${names[seat]} · ${plural(hand.cards.length, "card")} · deadwood ${hand.deadwood_points}`));
    box.append(laidOut(hand.melds, hand.deadwood));
    view.append(box);
  }
  view.append(pileView(board.pile.map((card) => ({ card, face_down: false }))));
  return view;
}

/** How a hand ended: each side as laid (the knocker's melds with the cards laid off on
 * them marked), its deadwood and points, and the sentence that tells it. */
export function ginEndView(end) {
  const view = el("div", "board gin-board gin-end");
  const laidOff = end.sides.flatMap((side) => side.laid_off);
  for (const side of end.sides) {
    const box = el("section", "seat");
    let how = "";
    if (side.knocked) how = end.how === "gin" ? " · went gin" : " · knocked";
    box.append(el("h4", "seat-name", `${side.name}${how} · deadwood ${side.deadwood_points} · scores ${side.score}`));
    box.append(laidOut(side.melds, side.deadwood, { laidOff: side.knocked ? laidOff : [] }));
    if (side.laid_off.length) {
      box.append(el("p", "gin-note", `Laid off on the knocker's melds: ${side.laid_off.map(cardText).join(" ")}`));
    }
    view.append(box);
  }
  return view;
}

/** The score sheet of a game of two: each hand's points and how it ended, the totals,
 * and once the game is over the line bonuses, the game bonus and the final scores. */
export function ginSheetView(sheet, names) {
  const table = el("table", "score-table gin-sheet");
  table.append(el("caption", "", `Score sheet (to ${sheet.target})`));
  const head = el("tr", "", el("th", "", ""), el("th", "", names[0]), el("th", "", names[1]), el("th", "", ""));
  const body = el("tbody");
  sheet.hands.forEach(([[first, second], how], index) => {
    body.append(el("tr", "", el("th", "", `Hand ${index + 1}`), el("td", "num", first), el("td", "num", second), el("td", "", how)));
  });
  const row = (what, [first, second], note = "") =>
    el("tr", "", el("th", "", what), el("td", "num", first), el("td", "num", second), el("td", "", note));
  body.append(row("Points", sheet.totals));
  const result = sheet.result;
  if (result) {
    body.append(row("Line bonuses", result.line, "25 a hand won"));
    const bonus = [0, 0];
    bonus[result.winner] = result.game_bonus;
    body.append(row("Game bonus", bonus, result.shutout ? "doubled: a shutout" : ""));
    body.append(row("Final", result.final, result.shutout ? "a shutout counts the points twice" : ""));
  }
  table.append(el("thead", "", head), body);
  return el("div", "scores", table);
}

/** The score sheet as it stood after `hand`: its finished hands up to that one, with
 * the game's end only after the last. */
function sheetSoFar(sheet, hand) {
  if (!hand.gin_end || hand.gin_end.hand_index === sheet.hands.length - 1) return sheet;
  const hands = sheet.hands.slice(0, hand.gin_end.hand_index + 1);
  const totals = hands.reduce(([a, b], [[x, y]]) => [a + x, b + y], [0, 0]);
  return { ...sheet, hands, totals, result: null };
}

/** A step's board, for the replay page. */
export function boardView(board, hand) {
  return ginBoardView(board, hand.names, hand.dealer);
}

/** A finished hand's end as it was laid, under its result. */
export function handEndView(hand) {
  return hand.gin_end ? [el("h3", "", hand.result), ginEndView(hand.gin_end)] : [];
}

/** After a hand's totals: the score sheet of a game of two as it stood, and after the
 * last hand the sentence that ends the game with its bonuses. */
export function recordEndView(record, hand, last) {
  const parts = [];
  if (record.gin_sheet && (last || hand.gin_end)) parts.push(ginSheetView(sheetSoFar(record.gin_sheet, hand), record.names));
  if (last && record.gin_result) parts.push(el("p", "result", capitalSentence(record.gin_result)));
  return parts;
}

// A score sheet of two players as a table: a column for each, a row for each finished
// hand, and the rows under them that sum it up. Umtali's sheet has a table for each
// game and a total; Gin Rummy's one table with its bonuses (sheet rows as [label, [a, b]]).

import { el } from "./dom.js";

/** Letters in a word that a narrow sheet's column may not hold whole. */
const LONG_WORD = 12;

/** A heading cell that holds a player's name: a name with a word too long for a narrow
 * column (a player may type 24 letters with no space) may break inside it; any other
 * breaks only between words, so "You" never becomes "Yo", "u". */
export function nameHeading(name, scope) {
  const long = String(name).split(/\s+/).some((word) => word.length > LONG_WORD);
  return el("th", { className: long ? "long-word" : undefined, text: name, attrs: { scope } });
}

/** One row of the sheet: its label, then each player's points. */
export function sheetRow(label, [a, b]) {
  return el("tr", {}, el("th", { text: label, attrs: { scope: "row" } }), el("td", { text: String(a) }), el("td", { text: String(b) }));
}

/** The table of a sheet: its caption, a column headed by each name, the hands' rows and the rows under them. */
export function sheetTable(caption, [first, second], hands, footer) {
  const table = el("table", { className: "score-table" });
  table.append(el("caption", { text: caption }));
  const head = el("tr", {}, el("th", { text: "", attrs: { scope: "col" } }), nameHeading(first, "col"), nameHeading(second, "col"));
  table.append(el("thead", {}, head));
  table.append(el("tbody", {}, ...hands.map(([label, points]) => sheetRow(label, points))));
  table.append(el("tfoot", {}, ...footer.map(([label, points]) => sheetRow(label, points))));
  return table;
}

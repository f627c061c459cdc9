// A score sheet of two players as a table: a column for each, a row for each finished
// hand, and the rows under them that sum it up. Umtali's sheet has a table for each
// game and a total; Gin Rummy's one table with its bonuses (sheet rows as [label, [a, b]]).

import { el } from "./dom.js";

/** One row of the sheet: its label, then each player's points. */
export function sheetRow(label, [a, b]) {
  return el("tr", {}, el("th", { text: label, attrs: { scope: "row" } }), el("td", { text: String(a) }), el("td", { text: String(b) }));
}

/** The table of a sheet: its caption, a column headed by each name, the hands' rows and the rows under them. */
export function sheetTable(caption, [first, second], hands, footer) {
  const table = el("table", { className: "score-table" });
  table.append(el("caption", { text: caption }));
  const head = el("tr", {}, el("th", { text: "", attrs: { scope: "col" } }), el("th", { text: first, attrs: { scope: "col" } }), el("th", { text: second, attrs: { scope: "col" } }));
  table.append(el("thead", {}, head));
  table.append(el("tbody", {}, ...hands.map(([label, points]) => sheetRow(label, points))));
  table.append(el("tfoot", {}, ...footer.map(([label, points]) => sheetRow(label, points))));
  return table;
}

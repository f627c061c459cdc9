// Gin Rummy's table in the seat page, as the page loads a game's table by its name
// (js/main.js): a game of two is drawn by GinTablePage (two.js), a game of three or four
// by GinPartyPage (party.js), the same table with the party beside it. Its markup is
// table.html, its style sheet table.css.

import { GinPartyPage } from "./party.js";
import { GinTablePage } from "./two.js";

/** The style sheet the table needs beside the shared ones. */
export const styleSheet = "/static/games/gin/table.css";

/** The page of a seat of Gin Rummy, chosen by its first state. */
export function seatPage(secret, first, { fourColour = false } = {}) {
  const Page = first.party ? GinPartyPage : GinTablePage;
  return new Page(secret, { fourColour });
}

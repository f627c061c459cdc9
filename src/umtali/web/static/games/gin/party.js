// Three- and four-hand Gin Rummy: the two-hand table (two.js) for the hand this
// seat plays, and the party's standings beside it. The server sends, in `party`, the
// draw for places (three-hand) or the teams (four-hand), who plays whom in the hand or
// deal under way and whether this seat sits it out, every hand counted so far, the
// running totals and the end of the game; the other fields tell this seat's own hand
// (the one it plays, or the last it played while it sits out; none before its first).

import { byId, el } from "/static/js/dom.js";
import { headingNames } from "/static/js/seat_page.js";
import { nameHeading } from "/static/js/sheet.js";
import { GinTablePage, HOW } from "./two.js";

export class GinPartyPage extends GinTablePage {
  gameTitle() {
    const party = this.state.party;
    return `${party.size === 3 ? "Three" : "Four"}-hand ${this.state.rules === "oklahoma" ? "Oklahoma Gin" : "Gin Rummy"}`;
  }

  /** Whether this seat's own hand is over while the deal goes on (the other table, in four-hand). */
  waitingForTheDeal() {
    const { state } = this;
    return Boolean(state.view?.outcome) && !state.over && !state.party.sits_out;
  }

  renderTurn() {
    const { state } = this;
    const party = state.party;
    if (state.over || state.your_turn) {
      super.renderTurn();
    } else {
      let text;
      if (party.sits_out) text = `You sit out this hand. ${party.seating ?? ""}`;
      else if (this.waitingForTheDeal()) text = "Your hand is over: the other table is still playing.";
      else text = this.pending ? `${this.opponentName()} is moving…` : `${this.opponentName()} to move.`;
      const node = byId("gin-turn");
      node.textContent = text;
      node.classList.remove("yours");
    }
  }

  render() {
    super.render();
    if (this.state) this.renderParty();
  }

  // The standings: each player's total (three-hand) or each team's (four-hand), the
  // target, and once the game is over the line bonuses, game bonus and final scores.
  renderScores() {
    const { party } = this.state;
    const players = headingNames(this.state, party.players, party.you);
    const rows = party.teams
      ? party.teams.map(([a, b], team) => [`${players[a]} and ${players[b]}`, team])
      : players.map((name, player) => [name, player]);
    const table = el("table", { className: "score-table party-standings" });
    table.append(el("caption", { text: `${this.gameTitle()} to ${party.target}` }));
    const head = [el("th", { text: party.teams ? "Team" : "Player", attrs: { scope: "col" } }), el("th", { text: "Points", attrs: { scope: "col" } })];
    if (party.final) head.push(el("th", { text: "Final", attrs: { scope: "col" } }));
    table.append(el("thead", {}, el("tr", {}, ...head)));
    const body = el("tbody");
    for (const [name, index] of rows) {
      const cells = [nameHeading(name, "row"), el("td", { text: String(party.totals[index]) })];
      if (party.final) cells.push(el("td", { text: String(party.final[index]) }));
      body.append(el("tr", {}, ...cells));
    }
    table.append(body);
    const parts = [table, el("p", { className: "note", text: party.totals_sentence })];
    if (party.result) parts.push(el("p", { className: "result-text", text: party.result }));
    byId("gin-scores").replaceChildren(...parts);
    byId("gin-scores-title").textContent = "Standings";
  }

  // The party panel: the draw or the teams, who plays whom now, and every hand counted.
  renderParty() {
    const { party } = this.state;
    const panel = byId("gin-party-panel");
    panel.hidden = false;
    const parts = [];
    const places = party.draw ?? party.teams_sentence;
    if (places) parts.push(el("p", { className: "party-places", text: places }));
    if (party.seating) parts.push(el("p", { className: "party-seating", text: party.seating }));
    if (party.last_deal) parts.push(el("p", { className: "note", text: party.last_deal }));
    if (party.hands.length) {
      const list = el("ol", { className: "party-hands", attrs: { "aria-label": "Hands played", tabindex: "0" } });
      for (const hand of [...party.hands].reverse()) {
        const [first, second] = hand.players.map((player) => party.players[player]);
        const against = second === "You" ? "you" : second; // "You" opens a sentence only
        list.append(
          el(
            "li",
            { attrs: { value: String(hand.number) } },
            el("strong", { text: `Hand ${hand.number}: ${first} against ${against} · ${HOW[hand.how] ?? hand.how}` }),
            el("span", { className: "note", text: ` ${hand.result}` }),
          ),
        );
      }
      parts.push(list);
    } else {
      parts.push(el("p", { className: "note", text: "No hand counted yet." }));
    }
    byId("gin-party").replaceChildren(...parts);
  }

  soFar() {
    return this.state.party.totals_sentence;
  }

  finishedHands() {
    return this.state.party.hands.length;
  }
}

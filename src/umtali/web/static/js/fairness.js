// The deal's fairness, the same at every table: the seal of the hand dealt, and once a
// hand is over the check that its deck is the one sealed.
//
// When a hand is dealt the server publishes its commitment (every seat state carries it
// as `commitment`): the SHA-256, in hex, of a secret random salt followed by the deck's
// card names. The page keeps each hand's seal as it first received it (for the tab, so a
// reload keeps it), and shows the hand's seal folded in the table's header. Once the hand
// is over, GET /api/games/{id}/hands/{n}/verify reveals the salt and the deck; "Check
// this deal" asks for them then, never before, recomputes the hash here (byte by byte as
// the server: the salt hex-decoded, then the card names joined by single spaces, in
// ASCII) and compares it with the seal this page kept, not with the one in the reveal.
//
// A table calls showDealSeal(container, state, {fourColour}) whenever it draws: the
// container is one empty element of its markup (the status bar's), and what is drawn in
// it is kept across redraws (the fold stays open, the focus stays).

import { api } from "./api.js";
import { cardName, cardSvg, parseCard } from "./cards.js";
import { el, keepInTab, loadStyleSheet, tabValue } from "./dom.js";
import { sha256Hex } from "./sha256.js";

const STYLE_SHEET = "/static/css/fairness.css";

const seals = new WeakMap(); // container -> its DealSeal

/** Draw (or bring up to date) the seal of `state`'s hand in `box`. */
export function showDealSeal(box, state, { fourColour = false } = {}) {
  if (!box || !state || typeof state.game_id !== "number") return;
  let seal = seals.get(box);
  if (!seal) {
    seal = new DealSeal(box);
    seals.set(box, seal);
  }
  seal.update(state, fourColour);
}

/** The short form of a seal shown folded: its first and last four hex digits. */
export function shortSeal(commitment) {
  return commitment.length > 12 ? `${commitment.slice(0, 4)}…${commitment.slice(-4)}` : commitment;
}

/** The bytes of a hex string, or null when it is not whole bytes of hex. */
export function hexBytes(text) {
  if (typeof text !== "string" || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * The commitment to a revealed deck, as the server computes it: SHA-256, in hex, of the
 * salt's bytes (the hex decoded) followed by the card names joined by single spaces, in
 * ASCII. Null when the salt is not hex.
 */
export async function dealCommitment(saltHex, deck) {
  const salt = hexBytes(saltHex);
  if (salt === null) return null;
  const text = new TextEncoder().encode(deck.join(" ")); // card names are ASCII: UTF-8 is ASCII
  const data = new Uint8Array(salt.length + text.length);
  data.set(salt);
  data.set(text, salt.length);
  return sha256Hex(data);
}

/** Whether hand `hand` is over as `state` tells it: an earlier hand than the last one ended, or the game's last. */
function handIsOver(state, hand) {
  if (state.over && hand <= state.hand_index) return true;
  return state.previous != null && hand <= state.previous.hand_index;
}

class DealSeal {
  constructor(box) {
    this.box = box;
    this.state = null;
    this.fourColour = false;
    this.drawn = null; // what the fold shows, to draw it again only when it changes
    this.dialog = null;
    this.asked = null; // the check under way
    loadStyleSheet(STYLE_SHEET).catch(() => {});
  }

  keyOf(gameId) {
    return `umtali.seals.${gameId}`;
  }

  /** The seals this tab kept for the game, by hand: {commitment, late} (late: first seen when the hand was over). */
  kept(gameId) {
    try {
      const kept = JSON.parse(tabValue(this.keyOf(gameId)) ?? "{}");
      return kept && typeof kept === "object" ? kept : {};
    } catch {
      return {};
    }
  }

  update(state, fourColour) {
    this.state = state;
    this.fourColour = fourColour;
    const kept = this.kept(state.game_id);
    const hand = state.hand_index;
    if (typeof state.commitment === "string" && state.commitment && !(hand in kept)) {
      // Kept as first received: a seal the server changed later would not replace it.
      kept[hand] = { commitment: state.commitment, late: handIsOver(state, hand) };
      keepInTab(this.keyOf(state.game_id), JSON.stringify(kept));
    }
    const shown = kept[hand]?.commitment ?? "";
    const finished = Object.keys(kept)
      .map(Number)
      .filter((index) => handIsOver(state, index))
      .sort((a, b) => b - a);
    const drawn = JSON.stringify([state.game_id, hand, shown, finished]);
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    this.draw(hand, shown, finished);
  }

  draw(hand, commitment, finished) {
    const old = this.box.querySelector("details");
    const open = old?.open ?? false;
    const focused = old?.contains(document.activeElement) ? document.activeElement.dataset.sealKey : null;
    if (!commitment) {
      this.box.replaceChildren();
      return;
    }
    const short = shortSeal(commitment);
    const summary = el(
      "summary",
      { attrs: { title: `The seal of hand ${hand + 1}'s deck: ${commitment}`, "data-seal-key": "summary" } },
      el("span", { className: "seal-mark", attrs: { "aria-hidden": "true" } }),
      el("span", { className: "seal-word wide-only", text: "Deal sealed: " }),
      el(
        "code",
        { className: "seal-short" },
        // A phone shows the head of the seal only (fairness.css): the title beside it needs the room.
        el("span", { text: short.slice(0, 4) }),
        el("span", { className: "seal-tail", text: short.slice(4) }),
      ),
    );
    const body = el(
      "div",
      { className: "deal-seal-body" },
      el("p", { text: "The deck was shuffled, fixed and sealed before any card was seen. Once the hand is over, its deck is shown and checked against this seal." }),
      el("p", { className: "seal-label", text: `Hand ${hand + 1}'s seal (SHA-256):` }),
      el("p", { className: "seal-full", text: commitment }),
    );
    if (finished.length > 0) {
      const [last, ...earlier] = finished;
      body.append(this.checkButton(last, `Check this deal: hand ${last + 1}`, "primary"));
      if (earlier.length > 0) {
        const row = el("p", { className: "seal-earlier" }, "Earlier hands: ");
        for (const index of earlier) row.append(this.checkButton(index, `${index + 1}`, "quiet", `Check hand ${index + 1}'s deal`));
        body.append(row);
      }
    } else {
      body.append(el("p", { className: "seal-note", text: "The check opens here when this hand is over." }));
    }
    const details = el("details", { className: "deal-seal", attrs: { "data-commitment": commitment, "data-hand": hand } }, summary, body);
    details.open = open;
    this.box.replaceChildren(details);
    if (focused) details.querySelector(`[data-seal-key="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }

  checkButton(hand, text, className, label = undefined) {
    const button = el("button", { className, text, attrs: { type: "button", "data-seal-key": `check:${hand}`, "data-check-hand": hand, "aria-label": label } });
    button.addEventListener("click", () => this.check(hand));
    return button;
  }

  // -- the check --------------------------------------------------------------------------

  openDialog(hand) {
    if (!this.dialog) {
      this.dialog = el("dialog", { className: "deal-check", attrs: { "aria-labelledby": "deal-check-title" } });
      document.body.append(this.dialog);
    }
    const close = el("button", { className: "quiet deal-check-close", text: "Close", attrs: { type: "button" } });
    close.addEventListener("click", () => this.dialog.close());
    this.dialog.replaceChildren(
      el("div", { className: "deal-check-head" }, el("h2", { text: `Hand ${hand + 1}'s deal`, attrs: { id: "deal-check-title" } }), close),
      el("p", { className: "deal-check-verdict", text: "Checking…", attrs: { role: "status", "data-verdict": "pending" } }),
    );
    if (!this.dialog.open) this.dialog.showModal();
    close.focus();
    return this.dialog;
  }

  async check(hand) {
    const { state } = this;
    // The deck of a hand in play is never asked for (the server would refuse it anyway).
    if (!state || !handIsOver(state, hand)) return;
    const kept = this.kept(state.game_id)[hand];
    const dialog = this.openDialog(hand);
    const asked = Symbol(`hand ${hand}`); // a check asked for since makes this one moot
    this.asked = asked;
    const verdict = dialog.querySelector(".deal-check-verdict");
    let reveal;
    try {
      reveal = await api.verify(state.game_id, hand);
    } catch (error) {
      if (this.asked === asked) this.say(verdict, "error", `The deck could not be read: ${error.message}. Try again in a moment.`);
      return;
    }
    if (this.asked !== asked) return;
    const deck = Array.isArray(reveal?.deck) ? reveal.deck.map(String) : null;
    if (!reveal?.over || deck === null || typeof reveal.salt !== "string") {
      this.say(verdict, "error", "The server has not revealed this deck yet: it is shown once the hand is over.");
      return;
    }
    const sealed = kept?.commitment ?? reveal.commitment;
    const computed = await dealCommitment(reveal.salt, deck);
    if (this.asked !== asked) return;
    const bad = deck.filter((card) => !parseCard(card));
    const twice = deck.filter((card, at) => deck.indexOf(card) !== at);
    const matches = computed !== null && computed === sealed && bad.length === 0 && twice.length === 0;
    if (matches) {
      this.say(verdict, "match", "✓ Matches the seal shown at the deal: this is the deck the hand was dealt from, fixed before any card was seen.");
    } else {
      let why = "the revealed deck does not hash to the seal";
      if (computed === null) why = "the revealed salt is not hex";
      else if (bad.length > 0) why = `the revealed deck holds what is not a card (${bad.join(" ")})`;
      else if (twice.length > 0) why = `the revealed deck holds a card twice (${twice.join(" ")})`;
      this.say(verdict, "mismatch", `✗ Does not match the seal shown at the deal: ${why}.`);
    }
    const facts = el("dl", { className: "deal-check-facts" });
    const fact = (term, value) => facts.append(el("dt", { text: term }), el("dd", { text: value }));
    fact(kept?.late === false ? "Seal shown at the deal" : "Seal published at the deal", sealed);
    fact("The revealed deck hashes to", computed ?? "(no hash: the salt is not hex)");
    if (reveal.commitment !== sealed) fact("Seal the server gives now", reveal.commitment);
    fact("Salt", reveal.salt);
    dialog.append(facts);
    if (!kept || kept.late) {
      dialog.append(el("p", { className: "note", text: "This page first saw this seal after the hand was over, so it cannot vouch that it is the one shown at the deal." }));
    }
    dialog.append(
      el("h3", { text: `The deck, top of the deal first (${deck.length} cards)` }),
      this.deckList(deck),
      el("p", { className: "note", text: "Check it yourself: SHA-256 of the salt (hex-decoded to its 32 bytes) followed by the card names above in ASCII letters (10h, Qs…) joined by single spaces. docs/WEB.md has a worked example." }),
    );
  }

  say(node, verdict, text) {
    node.textContent = text;
    node.dataset.verdict = verdict;
  }

  deckList(deck) {
    const list = el("ol", { className: "deal-deck", attrs: { "aria-label": "The deck in the order it was dealt" } });
    deck.forEach((card, at) => {
      const picture = parseCard(card) ? cardSvg(card, { fourColour: this.fourColour }) : el("span", { className: "deal-deck-bad", text: card });
      const item = el("li", { attrs: { title: `${at + 1}: ${parseCard(card) ? cardName(card) : card}` } }, picture, el("span", { className: "deal-deck-place", text: String(at + 1), attrs: { "aria-hidden": "true" } }));
      list.append(item);
    });
    return list;
  }
}

// The name a person goes by at his seat. Until he gives one (the home page sends it with a
// new game; a friend with an invite has none) he is "Player N", and the table offers a
// small, skippable "Your name" field, filled in with the name this browser last gave
// (localStorage umtali.name, written back when he saves one). Skipped, it stays away in
// this tab; "Change" beside "Your name: …" under the record brings it back at any time.
// On the player's turn, where the field would push the moves out of a small window, it
// waits for the other player's turn (unless he is typing in it).
// The server checks a name (1 to 24 visible characters, no < > &) and says what is wrong.

import { api } from "./api.js";
import { el, keepInTab, tabValue } from "./dom.js";
import { prefs } from "./prefs.js";

export const MAX_NAME = 24;

/** The name field of one seat's table (`page`, a SeatPage). */
export class NameOffer {
  constructor(page) {
    this.page = page;
    this.skipKey = `umtali.name-skipped.${page.secret}`;
    this.open = false; // asked for with "Change"
    this.sending = false;
    this.inUse = false; // focused or typed in: it stays until saved or skipped
    this.form = null;
    this.line = null;
  }

  /** The form over the table and the line under the record, built once (a redraw keeps what is typed). */
  build() {
    const id = (name) => `${this.page.prefix}${name}`;
    const input = el("input", {
      attrs: { id: id("name-input"), type: "text", maxlength: String(MAX_NAME), autocomplete: "nickname", spellcheck: "false", enterkeyhint: "done" },
    });
    const save = el("button", { className: "primary", text: "Save", attrs: { type: "submit", id: id("name-save") } });
    const skip = el("button", { className: "quiet", text: "✕", attrs: { type: "button", id: id("name-skip"), "aria-label": "Not now", title: "Not now" } });
    this.error = el("p", { className: "name-error", attrs: { id: id("name-error"), role: "alert" } });
    input.setAttribute("aria-describedby", id("name-error"));
    this.form = el(
      "form",
      { className: "name-offer", attrs: { id: id("name-offer"), "aria-label": "Give your name", hidden: true } },
      el("label", { text: "Your name", attrs: { for: id("name-input") } }),
      input,
      save,
      skip,
      this.error,
    );
    this.input = input;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    skip.addEventListener("click", () => this.skip());
    for (const kind of ["focus", "input"]) input.addEventListener(kind, () => (this.inUse = true));
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.skip();
    });
    this.page.part("away-banner").after(this.form);
    this.line = el("p", { className: "note name-line", attrs: { id: id("name-line") } });
    this.page.part("records").after(this.line);
  }

  /** Show the offer (or not) and the name for the state drawn. */
  render() {
    const { state } = this.page;
    if (!state) return;
    // In hot-seat both seats share the device: their names are given on the home page.
    if (this.page.partnerSecret !== null) return;
    if (this.form === null) this.build();
    const wasHidden = this.form.hidden;
    const offered = this.open || this.inUse || (!state.name_given && tabValue(this.skipKey) !== "1");
    this.form.hidden = !offered;
    // On the player's turn the moves come first: where the field would push them out of
    // a small window, it waits for the other player's turn.
    if (offered && !this.open && !this.inUse && this.page.isYourTurn(state) && this.page.part("actions").getBoundingClientRect().bottom > window.innerHeight + 0.5) {
      this.form.hidden = true;
    }
    if (offered && wasHidden) {
      this.input.value = state.name_given ? state.your_name : prefs.name;
      this.error.textContent = "";
    }
    const change = el("button", { className: "quiet", text: "Change", attrs: { type: "button", "data-key": `${this.page.prefix}name-change` } });
    change.addEventListener("click", () => this.change());
    this.line.replaceChildren(`Your name: ${state.your_name || "not given"} `, change);
  }

  change() {
    this.open = true;
    this.render();
    this.input.focus();
    this.input.select();
  }

  skip() {
    keepInTab(this.skipKey, "1");
    this.open = false;
    this.inUse = false;
    this.form.hidden = true;
    this.error.textContent = "";
  }

  async send() {
    if (this.sending) return;
    const name = this.input.value.trim();
    if (!name) {
      this.error.textContent = "Type a name of 1 to 24 characters, or choose “Not now”.";
      this.input.focus();
      return;
    }
    this.sending = true;
    try {
      const state = await api.name(this.page.secret, name);
      prefs.name = name;
      this.open = false;
      this.inUse = false;
      this.error.textContent = "";
      this.form.hidden = true;
      this.page.receive(state, { redraw: true });
    } catch (error) {
      this.error.textContent = `That name cannot be used: ${error.message.replace(/^Value error, /, "")}.`;
      this.input.focus();
    } finally {
      this.sending = false;
    }
  }
}

// The few page helpers every table uses: building elements, counting in words, and what
// a tab remembers (sessionStorage) until it is closed.

/** An element with its class, text, attributes (a false or missing one is left off) and children. */
export function el(tag, { className, text, attrs } = {}, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
  }
  node.append(...children);
  return node;
}

export const byId = (id) => document.getElementById(id);

/** Load the style sheet at `href` (a path of this server), once: resolves when it applies. */
export function loadStyleSheet(href) {
  const known = [...document.querySelectorAll("link[rel=stylesheet]")].find((link) => link.getAttribute("href") === href);
  if (known) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = el("link", { attrs: { rel: "stylesheet", href } });
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => reject(new Error(`the style sheet ${href} did not load`)));
    document.head.append(link);
  });
}

/** A count and its noun: plural(1, "card") is "1 card", plural(3, "card") "3 cards". */
/** `text` as a sentence of its own: a capital first letter and a full stop ("it is the only move" → "It is the only move."). */
export function capitalSentence(text) {
  const said = String(text ?? "").trim();
  if (!said) return said;
  return `${said[0].toUpperCase()}${said.slice(1)}${/[.!?]$/.test(said) ? "" : "."}`;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** What this tab remembers under `key`, or null (nothing kept, or storage refused). */
export function tabValue(key) {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Remember `value` under `key` for this tab. */
export function keepInTab(key, value) {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage refused: remembered for this page only
  }
}

// Hot-seat: both seats of a game played in this tab, by two people sharing the device.
// Each seat's secret is kept under the other's, so that a seat's page knows where to
// pass the device; nothing of it goes to the server.
const HOT_SEAT_PREFIX = "umtali.hotseat.";
const HOT_SEAT_CONFIRMED = "umtali.hotseat.confirmed";

/** Remember that this tab plays both seats `first` and `second` (their secrets). */
export function keepHotSeat(first, second) {
  keepInTab(HOT_SEAT_PREFIX + first, second);
  keepInTab(HOT_SEAT_PREFIX + second, first);
}

/** The secret of the other seat this tab plays with seat `secret`, or null (not hot-seat). */
export function hotSeatPartner(secret) {
  return tabValue(HOT_SEAT_PREFIX + secret) || null;
}

/** Note that the player of seat `secret` has said who he is, for the page about to open. */
export function confirmHotSeat(secret) {
  keepInTab(HOT_SEAT_CONFIRMED, secret);
}

/** Whether the player of seat `secret` said who he is just before its page opened (said once: a reload asks again). */
export function takeHotSeatConfirmation(secret) {
  const confirmed = tabValue(HOT_SEAT_CONFIRMED) === secret;
  keepInTab(HOT_SEAT_CONFIRMED, "");
  return confirmed;
}

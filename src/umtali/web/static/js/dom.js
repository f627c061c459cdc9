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

/** A count and its noun: plural(1, "card") is "1 card", plural(3, "card") "3 cards". */
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

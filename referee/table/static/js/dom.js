// Building the page's DOM: elements from data, text always as text (never innerHTML).

/** h("button", {class: "x", onclick: f, "aria-label": "…"}, "text", child…) → an element.
 *  Strings and numbers become text nodes, so a player's name shows as the characters it is. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "class") el.className = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** An SVG element (the QR code), with the same attribute rules as h(). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace root's children with nodes, keeping keyboard focus on the control that had it
 *  (matched by its data-key), so a re-render from state does not lose the reader's place. */
export function replace(root, nodes) {
  const focused = document.activeElement;
  const key = focused && root.contains(focused) ? focused.dataset.key : null;
  root.replaceChildren(...[nodes].flat(Infinity).filter(Boolean));
  if (key) root.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
}

/**
 * A small helper to build elements without innerHTML (the page's CSP and its text both come from
 * the server's data, which is never parsed as HTML).
 */

/**
 * An element with attributes (`on<event>` attributes become listeners) and children (strings become text).
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (name in element && typeof value !== 'string') /** @type {any} */ (element)[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** @param {unknown} value */
export const prettyJson = (value) => JSON.stringify(value, null, 2);

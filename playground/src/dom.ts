/** Attribute values; `false` and `undefined` leave the attribute out, `true` sets it empty. */
type AttributeValue = string | number | boolean | undefined;

/**
 * Creates an element with attributes and children: a few lines of DOM code instead of a framework.
 * Text children are inserted as text, never parsed as HTML.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, AttributeValue> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children);
  return element;
}

/** The element with `data-testid` = `id`; the page's markup guarantees it exists. */
export function byTestId<T extends HTMLElement = HTMLElement>(id: string, root: ParentNode = document): T {
  const element = root.querySelector<T>(`[data-testid="${id}"]`);
  if (element === null) throw new Error(`the page has no element with data-testid="${id}"`);
  return element;
}

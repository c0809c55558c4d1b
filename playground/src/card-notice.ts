import { h } from './dom.js';

/** How long "Added …" stays on its card; an error stays until the cart changes or the card is used again. */
const addedNoticeMs = 3000;

const hideTimers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

/**
 * The region of a product card that tells what its Add to cart did. It sits over the foot of the
 * card's image, next to the button the shopper pressed, and so never covers a price or a button
 * (as a toast floating over the grid did). A live region, so screen readers announce it too.
 */
export function cardNoticeRegion(): HTMLDivElement {
  return h('div', { class: 'card-notices', role: 'status' });
}

/** Shows `text` in a card's notice region, replacing what it showed before. */
export function showCardNotice(region: HTMLElement, text: string, isError = false): void {
  clearTimeout(hideTimers.get(region));
  region.replaceChildren(h('span', { class: isError ? 'card-notice error' : 'card-notice', 'data-testid': 'card-notice' }, text));
  if (!isError)
    hideTimers.set(
      region,
      setTimeout(() => region.replaceChildren(), addedNoticeMs),
    );
}

/** Removes the errors of earlier adds from every card under `root` (the cart has changed since). */
export function clearCardErrors(root: ParentNode): void {
  for (const notice of root.querySelectorAll('.card-notice.error')) notice.remove();
}

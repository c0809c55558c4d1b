/**
 * JSON paths as error messages write them. Its own file: the client's result check writes them
 * too, and browser bundles must not carry the validators' TypeBox imports for it.
 */

/** `['params', 0, 'items', 2, 'quantity']` -> `params[0].items[2].quantity`. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

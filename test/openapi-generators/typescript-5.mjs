/**
 * `node --import` this file to run a tool that needs the TypeScript 5 JavaScript API (Hey API prints
 * its code with it) with this workspace's TypeScript 5: the project's own `typescript` is 7, which
 * has no such API, and the tool is installed beside it.
 */
import { register } from 'node:module';

const typescript5 = new URL('./node_modules/typescript/lib/typescript.js', import.meta.url).href;
const hooks = `export async function resolve(specifier, context, next) {
  return specifier === 'typescript' ? { url: ${JSON.stringify(typescript5)}, format: 'commonjs', shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

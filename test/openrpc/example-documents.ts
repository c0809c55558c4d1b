/**
 * The OpenRPC project's example documents (`@open-rpc/examples`, a dev dependency), for the OpenRPC
 * converter's tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The folder of the example documents inside the installed package. */
export const EXAMPLES_DIR = join(
  dirname(createRequire(import.meta.url).resolve('@open-rpc/examples/package.json')),
  'build',
  'service-descriptions',
);

/** Every example document: its file name and parsed content. */
export function exampleDocuments(): { name: string; document: any }[] {
  return readdirSync(EXAMPLES_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, document: JSON.parse(readFileSync(join(EXAMPLES_DIR, name), 'utf8')) }));
}

/** The value a local `$ref` points to, or the value itself. */
export function dereference(document: any, value: any): any {
  if (!value || typeof value.$ref !== 'string') return value;
  return value.$ref
    .slice(2)
    .split('/')
    .reduce((node: any, token: string) => node[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/**
 * Synthetic IDL text of a given size for the compiler suite: the compiler's own scale fixture
 * (`syntheticIdl(lines)` in test/idl/synthetic.ts), so tests and benchmarks measure the same input.
 */
import path from 'node:path';
import { repoRoot } from './checkout.mjs';
import { importTypeScript } from './load-ts.mjs';

const generator = path.join(repoRoot, 'test', 'idl', 'synthetic.ts');

/** Returns `{ text, source }`: about `lines` lines of valid IDL and where they came from. */
export async function loadSyntheticIdl(lines) {
  const { syntheticIdl } = await importTypeScript(generator);
  return { text: syntheticIdl(lines), source: 'test/idl/synthetic.ts' };
}

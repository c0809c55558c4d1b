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

/** Lines of `syntheticIdl` per struct: a group of 47 lines declares three structs (and an enum, an interface). */
const LINES_PER_STRUCT = 47 / 3;

/**
 * Returns `{ text, source, structs }`: the same fixture, grown until it declares at least `count`
 * structs (the type-check suite's sizes are counted in structs, like GitHub's 3,505).
 */
export async function loadSyntheticIdlOfStructs(count) {
  const { syntheticIdl } = await importTypeScript(generator);
  let lines = Math.ceil(count * LINES_PER_STRUCT);
  for (;;) {
    const text = syntheticIdl(lines);
    const structs = text.match(/^struct /gm)?.length ?? 0;
    if (structs >= count) return { text, source: 'test/idl/synthetic.ts', structs };
    lines += Math.ceil((count - structs) * LINES_PER_STRUCT);
  }
}

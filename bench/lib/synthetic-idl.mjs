/**
 * Synthetic IDL text of a given size for the compiler suite. The compiler's own generator
 * (`syntheticIdl(lines)` in test/idl/synthetic.ts) is used when it exists, so tests and benchmarks
 * measure the same input; this fallback builds a similar mix of enums, structs (with extends,
 * arrays, maps, optional fields) and interfaces.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './checkout.mjs';
import { importTypeScript } from './load-ts.mjs';

const compilerGenerator = path.join(repoRoot, 'test', 'idl', 'synthetic.ts');

/** Returns `{ text, source }` with at least `lines` lines of valid IDL. */
export async function loadSyntheticIdl(lines) {
  if (existsSync(compilerGenerator)) {
    const module = await importTypeScript(compilerGenerator);
    if (typeof module.syntheticIdl === 'function') {
      return { text: module.syntheticIdl(lines), source: 'test/idl/synthetic.ts' };
    }
  }
  return { text: fallbackSyntheticIdl(lines), source: 'bench/lib/synthetic-idl.mjs' };
}

/** About `lines` lines: blocks of one enum, three structs and one interface, repeated. */
export function fallbackSyntheticIdl(lines) {
  const out = ['// Synthetic IDL for benchmarks.', 'namespace synthetic', ''];
  out.push('errors {', '    1001 NotFound "not found"', '    1002 Conflict "conflict"', '}', '');
  for (let block = 0; out.length < lines; block++) {
    const n = block;
    out.push(
      `// Status of thing ${n}.`,
      `enum Status${n} {`,
      '    active',
      '    paused',
      '    archived',
      '}',
      '',
      `// A base record ${n}.`,
      `struct Base${n} {`,
      '    id           string',
      '    createdAt    int',
      '    // Free-form labels.',
      '    labels       map[string]string',
      '}',
      '',
      `struct Item${n} extends Base${n} {`,
      '    name         string',
      '    price        float',
      '    quantity     int',
      `    status       Status${n}`,
      '    note         string  [optional]',
      '}',
      '',
      `struct Page${n} {`,
      `    items        []Item${n}`,
      '    total        int',
      '    next         string  [optional]',
      '    done         bool',
      '}',
      '',
      `interface Service${n} {`,
      '    // One item, or null.',
      `    getItem${n}(id string) Item${n} [optional]`,
      `    listItems${n}(cursor string, limit int) Page${n}`,
      `    putItem${n}(item Item${n}) Item${n} raises(Conflict)`,
      `    deleteItem${n}(id string) bool raises(NotFound)`,
      '}',
      '',
    );
  }
  return out.join('\n');
}

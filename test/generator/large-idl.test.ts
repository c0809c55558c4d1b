/**
 * Generated code type-checks under `strict` at every size. An array literal of differently typed
 * elements makes the checker reduce the union of their types pair by pair, and it gives up with
 * TS2590 ("Expression produces a union type that is too complex to represent") from about a
 * thousand: `schemaReferences` (one schema type per struct) and the embedded IDL JSON (structs of
 * different field types) did at about 1,100 structs. Checked here at 5,000 structs of about 500
 * shapes that refer to each other, with a server of 200 methods: the output directory, and the
 * plugin module's `.d.ts` used by an app. The `tsc` run takes about half a minute of CPU.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { expectOutputDirectoryCompiles, freshDir, typeCheck } from './helpers.js';

const STRUCTS = 5_000;

/** Built-in field types; struct `S<i>` has those of the bits of `i` set, so the shapes differ. */
const FIELD_TYPES = ['string', 'int', 'bool', 'float', '[]string', '[]int', 'map[string]string', '[]bool', 'map[string]int'];

/** `STRUCTS` structs, each referring to another (`S<i>` to `S<i/2>`), and ten interfaces of twenty methods. */
function largeIdl(): string {
  const parts = ['namespace large\n'];
  for (let i = 0; i < STRUCTS; i++) {
    const fields = FIELD_TYPES.flatMap((type, bit) => ((i >> bit) & 1 ? [`    f${bit} ${type}`] : []));
    fields.push(i === 0 ? '    root string' : `    parent S${i >> 1}${i % 3 === 0 ? ' [optional]' : ''}`);
    parts.push(`\nstruct S${i} {\n${fields.join('\n')}\n}\n`);
  }
  for (let k = 0; k < 10; k++) {
    const methods = Array.from({ length: 20 }, (_, j) => {
      const type = (k * 97 + j * 31) % STRUCTS;
      return `    call${j}(value S${type}) ${j % 4 === 0 ? '[]' : ''}S${(type + 1) % STRUCTS}`;
    });
    parts.push(`\ninterface Service${k} {\n${methods.join('\n')}\n}\n`);
  }
  return parts.join('');
}

const STRICT = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM'],
  types: ['node'],
  strict: true,
};

test(`the output directory of ${STRUCTS} structs compiles under tsc --strict`, async () => {
  await expectOutputDirectoryCompiles('large-idl', largeIdl());
}, 600_000);

test(`the plugin module's .d.ts of ${STRUCTS} structs compiles under tsc --strict in an app`, () => {
  const dir = freshDir('large-idl-dts');
  const model = compileIdl(largeIdl(), 'large.idl');
  // From test-output/generator/large-idl-dts, the repository's runtime sources.
  const { js, dts } = generateModule(model, {
    runtimeImport: '../../../runtime/core.js',
    runtimeClientImport: '../../../runtime/client.js',
    sourceFile: 'large.idl',
  });
  writeFileSync(path.join(dir, 'large.js'), js);
  writeFileSync(path.join(dir, 'large.d.ts'), dts);
  const app = [
    "import { Service0Client, createLargeServer, schemaReferences, validators, type S4999 } from './large.js';",
    'export const parts = [Service0Client, createLargeServer, schemaReferences, validators];',
    'export const parentOf = (value: S4999) => value.parent.parent;',
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'app.ts'), app);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...STRICT, skipLibCheck: false, noEmit: true }, files: ['app.ts'] }),
  );
  const checked = typeCheck(dir, false, 600_000);
  expect(checked.output).toBe('');
  expect(checked.status).toBe(0);
}, 600_000);

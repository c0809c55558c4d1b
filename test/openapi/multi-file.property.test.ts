/**
 * Documents of random IDL files split into several that import each other (test/idl/split-files.ts)
 * pass strict validation in both OpenAPI versions, without warnings (but for parameters named like
 * OpenAPI reserved words), and describe every method of
 * the JSON form at `/<Interface>/<method>` (qualified for an imported interface).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { printIdl } from '../../src/idl/format.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi } from '../../src/openapi/index.js';
import { memoryHost } from '../idl/memory-host.js';
import { randomIdlFile } from '../idl/random-idl.js';
import { splitIntoFiles } from '../idl/split-files.js';
import { strictProblems } from './helpers.js';

test.each(['3.1', '3.0'] as const)('documents of random split models pass strict validation (OpenAPI %s)', async (version) => {
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      // No NUL in comments and messages: the loader takes a file holding one for binary data.
      const single = compileIdl(printIdl(randomIdlFile(g)).replaceAll('\u0000', ' '), 'random.idl');
      const split = splitIntoFiles(g, single.file);
      const model = compileIdl(split.files[split.root], split.root, { host: memoryHost(split.files) });
      const { document, warnings } = idlToOpenApi([model], { version });
      // Random parameter names are sometimes OpenAPI reserved words (`NEw`): that warning is due.
      expect(warnings.filter((warning) => !warning.message.includes('is an OpenAPI reserved word'))).toEqual([]);
      const paths = (toIdlJson(model).interfaces ?? []).flatMap((iface) => (iface.methods ?? []).map((m) => `/${iface.name}/${m.name}`));
      expect(Object.keys((document as { paths: object }).paths)).toEqual(paths);
      // Random models declare types no method uses; everything else must pass.
      expect(await strictProblems(document, false, ['no-unused-components'])).toEqual([]);
    }),
    { numRuns: 25 },
  );
});

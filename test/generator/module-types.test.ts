/**
 * The bundler plugin's `.d.ts` gives the plain-JavaScript module exactly the types of the TypeScript
 * output: the same client signature type tests pass against it under `tsc --strict`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { checkoutIdl, freshDir, typeCheck, writeTemplate } from './helpers.js';

test('the plugin module .d.ts passes the client signature type tests', () => {
  const dir = freshDir('module-dts');
  // From test-output/generator/module-dts, the repository's runtime sources.
  const runtime = '../../../runtime/index.js';
  const model = compileIdl(readFileSync(checkoutIdl, 'utf8'), 'checkout.idl');
  const { js, dts } = generateModule(model, {
    runtimeImport: runtime,
    runtimeClientImport: '../../../runtime/client.js',
    sourceFile: 'checkout.idl',
  });
  writeFileSync(path.join(dir, 'checkout.js'), js);
  writeFileSync(path.join(dir, 'checkout.d.ts'), dts);
  writeTemplate('checkout.client-types.ts.txt', dir, 'client-types.ts', '.js', { runtime, module: './checkout.js' });
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      strict: true,
      skipLibCheck: false,
    },
    files: ['client-types.ts'],
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config));
  const checked = typeCheck(dir, false);
  expect(checked.output).toBe('');
  expect(checked.status).toBe(0);
});

/**
 * Bundles the extension with esbuild into dist/: `extension.js` (the client VS Code loads; `vscode`
 * is provided by the editor) and `server.mjs` (the language server of src/language-server with
 * vscode-languageserver inside, so the extension needs no installed package).
 */
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node18', logLevel: 'warning', sourcemap: false, minify: true };

await build({
  ...common,
  entryPoints: ['src/extension.mts'],
  outfile: 'dist/extension.js',
  format: 'cjs',
  external: ['vscode'],
});

await build({
  ...common,
  entryPoints: ['src/server.mts'],
  outfile: 'dist/server.mjs',
  format: 'esm',
  // vscode-languageserver is CommonJS and requires Node's modules: give the ES module a `require`.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

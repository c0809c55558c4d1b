// Bundles server.js for Node with esbuild: `node esbuild.mjs`, then `node dist/esbuild/server.mjs`.
// esbuild has no config file; plugins need its JS API, so the build is this script.
import * as esbuild from 'esbuild';
import idlRpc from 'unplugin-idl-rpc/esbuild';

await esbuild.build({
  entryPoints: ['server.js'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'dist/esbuild',
  // .mjs: the bundle is an ES module whatever the "type" of the package.json above it.
  outExtension: { '.js': '.mjs' },
  plugins: [idlRpc()],
});

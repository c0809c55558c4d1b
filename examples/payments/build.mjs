// Bundles the server and the client for Node with esbuild: `node build.mjs`. The plugin compiles
// payments.idl, writes payments.idl.d.ts beside it and openapi.json beside the bundles.
import * as esbuild from 'esbuild';
import idlRpc from 'unplugin-idl-rpc/esbuild';

await esbuild.build({
  entryPoints: ['server.ts', 'client.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  plugins: [idlRpc()],
});

// Bundles server.js for Node with Rspack: `npx rspack` (with @rspack/cli), then
// `node dist/rspack/server.cjs`. In this repository: `node build-with-api.mjs rspack`.
import path from 'node:path';
import idlRpc from 'unplugin-idl-rpc/rspack';

export default {
  mode: 'production',
  target: 'node20',
  context: import.meta.dirname,
  entry: './server.js',
  // .cjs: Rspack writes CommonJS for Node, whatever the "type" of the package.json above it.
  output: { path: path.resolve(import.meta.dirname, 'dist/rspack'), filename: 'server.cjs', clean: true },
  // A server bundle gains nothing from minifying; readable stack traces are worth more.
  optimization: { minimize: false },
  plugins: [idlRpc()],
};

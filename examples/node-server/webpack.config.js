// Bundles server.js for Node with webpack: `npx webpack` (with webpack-cli), then
// `node dist/webpack/server.cjs`. In this repository: `node build-with-api.mjs webpack`.
import path from 'node:path';
import idlRpc from 'unplugin-idl-rpc/webpack';

export default {
  mode: 'production',
  target: 'node20',
  context: import.meta.dirname,
  entry: './server.js',
  // .cjs: webpack writes CommonJS for Node, whatever the "type" of the package.json above it.
  output: { path: path.resolve(import.meta.dirname, 'dist/webpack'), filename: 'server.cjs', clean: true },
  // A server bundle gains nothing from minifying; readable stack traces are worth more.
  optimization: { minimize: false },
  plugins: [idlRpc()],
};

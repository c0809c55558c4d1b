// Bundles server.js for Node with Rollup: `npx rollup -c`, then `node dist/rollup/server.mjs`.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import idlRpc from 'unplugin-idl-rpc/rollup';

export default {
  input: 'server.js',
  // Node's built-ins stay imports; TypeBox (an npm package) is bundled, found by node-resolve.
  external: [/^node:/],
  plugins: [idlRpc(), nodeResolve({ exportConditions: ['node'], preferBuiltins: true })],
  output: { dir: 'dist/rollup', format: 'es', entryFileNames: 'server.mjs' },
  onwarn(warning, warn) {
    // TypeBox's modules import each other in cycles and test `this` at their top level, both
    // harmless; Rollup would list them on every build.
    const modules = [warning.id, ...(warning.ids ?? [])].join(' ');
    if ((warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'THIS_IS_UNDEFINED') && /@sinclair[\\/]typebox/.test(modules)) return;
    warn(warning);
  },
};

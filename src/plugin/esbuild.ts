/** The esbuild plugin: `import idlRpc from 'unplugin-idl-rpc/esbuild'`. Options: {@link IdlRpcPluginOptions}. */
import { createEsbuildPlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createEsbuildPlugin(unpluginFactory) as IdlRpcUnplugin['esbuild'];

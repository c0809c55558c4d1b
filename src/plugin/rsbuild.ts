/** The Rsbuild plugin: `import idlRpc from 'unplugin-idl-rpc/rsbuild'`. Options: {@link IdlRpcPluginOptions}. */
import { createRsbuildPlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createRsbuildPlugin(unpluginFactory) as IdlRpcUnplugin['rsbuild'];

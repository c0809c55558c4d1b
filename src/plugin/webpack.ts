/** The webpack plugin: `import idlRpc from 'unplugin-idl-rpc/webpack'`. Options: {@link IdlRpcPluginOptions}. */
import { createWebpackPlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createWebpackPlugin(unpluginFactory) as IdlRpcUnplugin['webpack'];

/** The Rollup plugin: `import idlRpc from 'unplugin-idl-rpc/rollup'`. Options: {@link IdlRpcPluginOptions}. */
import { createRollupPlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createRollupPlugin(unpluginFactory) as IdlRpcUnplugin['rollup'];

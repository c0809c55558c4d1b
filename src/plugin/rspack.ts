/** The Rspack plugin: `import idlRpc from 'unplugin-idl-rpc/rspack'`. Options: {@link IdlRpcPluginOptions}. */
import { createRspackPlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createRspackPlugin(unpluginFactory) as IdlRpcUnplugin['rspack'];

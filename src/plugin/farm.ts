/** The Farm plugin: `import idlRpc from 'unplugin-idl-rpc/farm'`. Options: {@link IdlRpcPluginOptions}. */
import { createFarmPlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createFarmPlugin(unpluginFactory) as IdlRpcUnplugin['farm'];

/** The Rolldown plugin: `import idlRpc from 'unplugin-idl-rpc/rolldown'`. Options: {@link IdlRpcPluginOptions}. */
import { createRolldownPlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createRolldownPlugin(unpluginFactory) as IdlRpcUnplugin['rolldown'];

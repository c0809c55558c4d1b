/** The Vite plugin: `import idlRpc from 'unplugin-idl-rpc/vite'`. Options: {@link IdlRpcPluginOptions}. */
import { createVitePlugin } from 'unplugin';
import { type IdlRpcUnplugin, unpluginFactory } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default /* #__PURE__ */ createVitePlugin(unpluginFactory) as IdlRpcUnplugin['vite'];

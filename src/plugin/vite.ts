/** The Vite plugin: `import idlRpc from 'unplugin-idl-rpc/vite'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.vite;

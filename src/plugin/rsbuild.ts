/** The Rsbuild plugin: `import idlRpc from 'unplugin-idl-rpc/rsbuild'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.rsbuild;

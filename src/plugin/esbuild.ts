/** The esbuild plugin: `import idlRpc from 'unplugin-idl-rpc/esbuild'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.esbuild;

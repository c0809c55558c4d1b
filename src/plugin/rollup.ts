/** The Rollup plugin: `import idlRpc from 'unplugin-idl-rpc/rollup'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.rollup;

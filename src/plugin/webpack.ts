/** The webpack plugin: `import idlRpc from 'unplugin-idl-rpc/webpack'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.webpack;

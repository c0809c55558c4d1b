/** The Farm plugin: `import idlRpc from 'unplugin-idl-rpc/farm'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.farm;

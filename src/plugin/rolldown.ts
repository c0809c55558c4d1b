/** The Rolldown plugin: `import idlRpc from 'unplugin-idl-rpc/rolldown'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.rolldown;

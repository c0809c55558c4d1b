/** The Rspack plugin: `import idlRpc from 'unplugin-idl-rpc/rspack'`. Options: {@link IdlRpcPluginOptions}. */
import { unplugin } from './index.js';

export type { IdlRpcPluginOptions } from './options.js';

export default unplugin.rspack;

// The fixture's config: the plugin's one call. IDLRPC_NEXT_ROOT (set by the test) is where the
// hoisted node_modules the fresh app links to live, which Turbopack must see as inside the project.
import { withIdlRpc } from 'unplugin-idl-rpc/next';

const root = process.env.IDLRPC_NEXT_ROOT;

export default withIdlRpc(root ? { turbopack: { root }, outputFileTracingRoot: root } : {}, { openapi: { serverUrl: '/rpc' } });

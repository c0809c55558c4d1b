// The RPC endpoint: JSON-RPC on /rpc, the OpenAPI binding on /rpc/GreeterService/greet.
import { createFetchHandler } from 'unplugin-idl-rpc/runtime/core';
import { createGreeterServer } from '../../../greeter.idl';
import { greeter } from '../../../handlers';

const handle = createFetchHandler(createGreeterServer({ GreeterService: greeter }), { basePath: '/rpc' });

export const GET = handle;
export const POST = handle;

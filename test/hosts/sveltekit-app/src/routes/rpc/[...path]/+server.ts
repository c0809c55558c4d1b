// The RPC endpoint as a server route: JSON-RPC on /rpc, the OpenAPI binding on /rpc/GreeterService/greet.
import { createFetchHandler } from 'unplugin-idl-rpc/runtime/core';
import { createGreeterServer } from '$lib/greeter.idl';
import { greeter } from '$lib/handlers';

const handle = createFetchHandler(createGreeterServer({ GreeterService: greeter }), { basePath: '/rpc' });

export const GET = ({ request }: { request: Request }) => handle(request);
export const POST = ({ request }: { request: Request }) => handle(request);

const gen = (await import('@open-rpc/generator')).default;
const doc = JSON.parse((await import('node:fs')).readFileSync('/tmp/orpc/api/openrpc.json', 'utf8'));
await (gen.default ?? gen)({
  outDir: '/tmp/orpc/gen',
  openrpcDocument: doc,
  components: [{ type: 'client', language: 'typescript', name: 'checkout-client' }],
});
console.log('done');

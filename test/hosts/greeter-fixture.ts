/**
 * The greeter service every host fixture serves (greeter.idl in test/hosts/next-app and
 * test/hosts/sveltekit-app): a client generated from it, a broken copy of it.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** greeter.idl with a syntax error on line 4, column 5: a field where the errors block wants a code. */
export const BROKEN_IDL = 'namespace greeter\n\nerrors {\n    NameTooLong "no code"\n}\n';

/** What the generated client got from the app's endpoint. */
export interface ClientAnswers {
  greeting: string;
  declaredError: { name: string; code: number } | string;
}

/** What the fixture apps' endpoints answer the generated client (`greet('node')` and a name too long). */
export const GREETER_ANSWERS: ClientAnswers = {
  greeting: 'Hello, node!',
  declaredError: { name: 'NameTooLongError', code: 1001 },
};

/**
 * Generates the module of the app's `idl` (greeter.idl, relative to `dir`), as the plugin does, with
 * the installed package's compiler API, and calls the endpoint with it from a separate Node process:
 * one answer, one declared error.
 */
export async function callWithGeneratedClient(dir: string, url: string, idl = 'greeter.idl'): Promise<ClientAnswers> {
  const compilerUrl = new URL('node_modules/unplugin-idl-rpc/dist/src/index.js', `file://${dir}/`).href;
  const { compileIdl, generateModule } = (await import(compilerUrl)) as typeof import('../../src/index.js');
  const file = path.join(dir, idl);
  const model = compileIdl(readFileSync(file, 'utf8'), file);
  const { js } = generateModule(model, {
    runtimeImport: 'unplugin-idl-rpc/runtime/core',
    runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    sourceFile: file,
  });
  writeFileSync(path.join(dir, 'greeter-client.mjs'), js);
  const script = `
    import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';
    import { GreeterServiceClient, NameTooLongError } from './greeter-client.mjs';
    const client = new GreeterServiceClient(new HttpTransport(${JSON.stringify(`${url}/rpc`)}));
    const greeting = await client.greet('node');
    const declaredError = await client.greet('a name that is far too long').then(
      () => 'no error',
      (error) => (error instanceof NameTooLongError ? { name: error.name, code: error.code } : String(error)),
    );
    console.log(JSON.stringify({ greeting, declaredError }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, timeout: 30_000 });
  return JSON.parse(stdout) as ClientAnswers;
}

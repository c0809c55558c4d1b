/**
 * The runtime copied into an output directory is the manifest (src/codegen/runtime-manifest.ts),
 * not whatever `runtime/` holds: an adapter or optional integration added to `runtime/` stays out
 * of generated packages, which keep type-checking without its dependencies. Each test works on a
 * temporary copy of `runtime/`, never on the real folder.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { generateOutputFiles } from '../../src/codegen/output-directory.js';
import { RUNTIME_MANIFEST, runtimeManifest, runtimeSources } from '../../src/codegen/runtime-manifest.js';
import { compileIdl } from '../../src/idl/index.js';
import { checkoutIdl, freshDir, repoRoot, typeCheck } from './helpers.js';

/**
 * An optional integration whose package generated outputs do not depend on (nor is it installed
 * here: `@opentelemetry/api` is, for the real adapter's tests).
 */
const TELEMETRY_PACKAGE = '@opentelemetry/exporter-trace-otlp-http';
const telemetrySource = `import { OTLPTraceExporter } from '${TELEMETRY_PACKAGE}';\nexport const exporter = new OTLPTraceExporter();\n`;
const expressAdapterSource = `import type { Request } from 'express';\nexport type ExpressRequest = Request;\n`;

const model = () => compileIdl(readFileSync(checkoutIdl, 'utf8'), 'checkout.idl');

/** Writes generated files into `dir`. */
function writeFiles(dir: string, files: Map<string, string>): void {
  for (const [name, text] of files) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

let runtimeCopy: string;

beforeEach(() => {
  runtimeCopy = path.join(mkdtempSync(path.join(os.tmpdir(), 'idlrpc-runtime-')), 'runtime');
  cpSync(path.join(repoRoot, 'runtime'), runtimeCopy, { recursive: true });
});

afterEach(() => {
  rmSync(path.dirname(runtimeCopy), { recursive: true, force: true });
});

describe('the copied runtime', () => {
  test('is the manifest: files added to runtime/ (an integration, an adapter) stay out, and the package still type-checks', () => {
    expect(() => createRequire(path.join(repoRoot, 'package.json')).resolve(TELEMETRY_PACKAGE)).toThrow();
    writeFileSync(path.join(runtimeCopy, 'telemetry.ts'), telemetrySource);
    mkdirSync(path.join(runtimeCopy, 'adapters'), { recursive: true });
    writeFileSync(path.join(runtimeCopy, 'adapters', 'express.ts'), expressAdapterSource);

    const files = generateOutputFiles(model(), { sourceFile: 'checkout.idl', packageJson: true, tsconfig: true }, runtimeCopy);
    const copied = [...files.keys()].filter((name) => name.startsWith('runtime/')).map((name) => name.slice('runtime/'.length));
    expect(copied).toEqual(runtimeManifest(runtimeCopy).sort());
    expect(copied).toContain('streams/stream-event.ts');

    const dir = freshDir('runtime-manifest');
    writeFiles(dir, files);
    const checked = typeCheck(dir, false);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);

    // The same package with the integration copied in does not compile: what the manifest prevents.
    writeFileSync(path.join(dir, 'runtime', 'telemetry.ts'), telemetrySource);
    const broken = typeCheck(dir, false);
    expect(broken.status).not.toBe(0);
    expect(broken.output).toContain(`Cannot find module '${TELEMETRY_PACKAGE}'`);
  }, 120_000);

  test('is runtime/*.ts without tests, sorted, then the runtime folders: adapters and integrations go in folders of their own', () => {
    const isSource = (name: string) => name.endsWith('.ts') && !name.endsWith('.test.ts');
    const sources = [
      ...readdirSync(path.join(repoRoot, 'runtime')).filter(isSource),
      ...readdirSync(path.join(repoRoot, 'runtime', 'streams'))
        .filter(isSource)
        .map((name) => `streams/${name}`),
    ];
    expect(
      runtimeManifest(path.join(repoRoot, 'runtime')).sort(),
      'list a new runtime/*.ts in RUNTIME_MANIFEST, or move it to runtime/adapters/',
    ).toEqual(sources.sort());
    expect([...RUNTIME_MANIFEST]).toEqual([...RUNTIME_MANIFEST].sort());
  });

  test('a listed file importing one the manifest leaves out fails generation, naming both', () => {
    writeFileSync(path.join(runtimeCopy, 'telemetry.ts'), telemetrySource);
    const server = path.join(runtimeCopy, 'server.ts');
    writeFileSync(server, `import { tracer } from './telemetry.js';\nvoid tracer;\n${readFileSync(server, 'utf8')}`);
    expect(() => runtimeSources(runtimeCopy)).toThrow(
      /^Cannot copy the runtime: runtime\/server\.ts imports '\.\/telemetry\.js', which is not in the copied runtime \(RUNTIME_MANIFEST in src\/codegen\/runtime-manifest\.ts\)/,
    );
    expect(() => generateOutputFiles(model(), { sourceFile: 'checkout.idl' }, runtimeCopy)).toThrow(
      /runtime\/server\.ts imports '\.\/telemetry\.js'/,
    );
  });

  test('copies every file of runtime/streams/ (tests left out), its imports rewritten like the others', () => {
    const streams = path.join(runtimeCopy, 'streams');
    writeFileSync(path.join(streams, 'extra-item.ts'), "import { RpcError } from '../errors.js';\nexport const Item = RpcError;\n");
    writeFileSync(path.join(streams, 'extra-item.test.ts'), "import { Item } from './extra-item.js';\nvoid Item;\n");
    const listed = readdirSync(streams)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => `streams/${name}`)
      .sort();
    expect(listed).toContain('streams/extra-item.ts');
    expect(runtimeManifest(runtimeCopy)).toEqual([...RUNTIME_MANIFEST, ...listed]);

    const files = generateOutputFiles(model(), { sourceFile: 'checkout.idl', moduleStyle: 'esm-bundler' }, runtimeCopy);
    expect([...files.keys()].filter((name) => name.startsWith('runtime/streams/'))).toEqual(listed.map((name) => `runtime/${name}`));
    expect(files.get('runtime/streams/extra-item.ts')).toContain("import { RpcError } from '../errors';");
  });

  test('a listed file missing from the installation fails generation, naming it', () => {
    rmSync(path.join(runtimeCopy, 'schema.ts'));
    expect(() => runtimeSources(runtimeCopy)).toThrow(
      `Cannot copy the runtime: ${path.join(runtimeCopy, 'schema.ts')} is missing from this installation`,
    );
  });

  test('an output that imports the runtime from a package copies nothing', () => {
    rmSync(runtimeCopy, { recursive: true });
    const files = generateOutputFiles(model(), { sourceFile: 'checkout.idl', runtimeImport: 'unplugin-idl-rpc/runtime' }, runtimeCopy);
    expect([...files.keys()].filter((name) => name.startsWith('runtime/'))).toEqual([]);
  });
});

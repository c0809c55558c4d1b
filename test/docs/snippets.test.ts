/**
 * Every TypeScript example of README.md and docs/*.md compiles as written, against the built
 * package (`unplugin-idl-rpc/...` resolves to dist/ through the package's own exports) and a small
 * project beside it: `checkout.idl` with the `.idl.d.ts` the plugin writes (also under `src/`), the
 * generator's output in `gen/`, the IDL's JSON form in `idl.json`, and `handlers.ts` exporting
 * `catalog`, `carts` and `orders` for the generated server. So an example that stops compiling
 * fails `npm test`. (tsc reports no type errors while any file has a syntax error, so a broken
 * example can hide the type errors of others until it is fixed; it still fails on its own.)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ensureBuilt, REPO_ROOT } from '../cli/run-cli.js';
import { extractSnippets, projectSnippets, type Snippet } from './snippets.js';

const ROOT = join(REPO_ROOT, 'test-output/doc-snippets');
const ENVIRONMENT = join(ROOT, 'environment');
const TSC = join(REPO_ROOT, 'node_modules/.bin/tsc');

const HANDLERS = `import type { CatalogService, CartService, OrderService } from './gen/index.js';

export const catalog: CatalogService = { listProducts: () => [], getProduct: () => null };
export const carts: CartService = {
  addToCart: (request) => ({ cartId: request.cartId ?? 'c1', items: [], subtotal: 0 }),
  getCart: () => null,
  clearCart: () => false,
};
// \`satisfies\`, not a type annotation: examples pass these to the \`.idl\` module's server as well as to
// the generated one, whose copies of the runtime declare their own StreamEvent.
export const orders = {
  createOrder: () => ({ orderId: 'o1' }),
  getOrder: () => null,
  async *watchOrder() {},
} satisfies OrderService;
`;

async function idlrpc(args: string[], cwd: string): Promise<void> {
  let stderr = '';
  const code = await main(args, { cwd, stdout: () => {}, stderr: (text) => void (stderr += text) });
  if (code !== 0) throw new Error(`idlrpc ${args.join(' ')} failed: ${stderr}`);
}

/** The project every example sees (shared through symlinks, so tsc checks it once). */
async function buildEnvironment(): Promise<void> {
  mkdirSync(join(ENVIRONMENT, 'src'), { recursive: true });
  copyFileSync(join(REPO_ROOT, 'playground/checkout.idl'), join(ENVIRONMENT, 'checkout.idl'));
  copyFileSync(join(REPO_ROOT, 'playground/checkout.idl'), join(ENVIRONMENT, 'src/checkout.idl'));
  await idlrpc(['-dts', '.', 'src'], ENVIRONMENT);
  await idlrpc(['-plugin', 'ts-client-server', '-dir', 'gen', 'checkout.idl'], ENVIRONMENT);
  await idlrpc(['-to-json', 'idl.json', 'checkout.idl'], ENVIRONMENT);
  writeFileSync(join(ENVIRONMENT, 'handlers.ts'), HANDLERS);
}

const SHARED_ENTRIES = ['checkout.idl', 'checkout.idl.d.ts', 'src/checkout.idl', 'src/checkout.idl.d.ts', 'gen', 'idl.json', 'handlers.ts'];

function folderOf(snippet: Snippet): string {
  return join(ROOT, 'examples', snippet.location.replace(/[^\w]+/g, '-'));
}

function writeSnippet(snippet: Snippet): void {
  const folder = folderOf(snippet);
  mkdirSync(join(folder, 'src'), { recursive: true });
  for (const entry of SHARED_ENTRIES) symlinkSync(join(ENVIRONMENT, entry), join(folder, entry));
  for (const file of snippet.files) {
    mkdirSync(dirname(join(folder, file.path)), { recursive: true });
    writeFileSync(join(folder, file.path), file.text);
  }
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    // Bundler resolution, as in the Vite apps the plugin serves: it finds `checkout.idl.d.ts` for
    // `./checkout.idl` (NodeNext would want `checkout.d.idl.ts`), and resolves Node-style imports too.
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    noEmit: true,
  },
  // `.mjs` and `.cjs` files of an example become `.mts` and `.cts`, which `*.ts` does not match.
  include: ['examples/**/*.ts', 'examples/**/*.mts', 'examples/**/*.cts'],
};

const snippets = projectSnippets(REPO_ROOT);
/** tsc's diagnostics by snippet location. */
const errorsBySnippet = new Map<string, string[]>();

beforeAll(async () => {
  ensureBuilt();
  rmSync(ROOT, { recursive: true, force: true });
  await buildEnvironment();
  for (const snippet of snippets) if (!snippet.skipReason) writeSnippet(snippet);
  writeFileSync(join(ROOT, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  const run = spawnSync(TSC, ['-p', '.', '--pretty', 'false'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  for (const line of `${run.stdout}${run.stderr}`.split('\n').filter(Boolean)) {
    const owner = snippets.find((s) => !s.skipReason && line.startsWith(relative(ROOT, folderOf(s)) + '/'));
    const key = owner?.location ?? '(outside the examples)';
    errorsBySnippet.set(key, [...(errorsBySnippet.get(key) ?? []), line]);
  }
}, 180_000);

describe('documentation examples', () => {
  it('finds the examples, and splits a block into the files its comments name', () => {
    expect(snippets.length).toBeGreaterThan(10);
    const [block] = extractSnippets('```ts\n// vite.config.ts\nexport default {};\n\n// src/main.js (a note)\nconst x = 1;\n```\n', 'x.md');
    expect(block.files.map((f) => f.path)).toEqual(['vite.config.ts', 'src/main.ts']);
    const [skipped] = extractSnippets('<!-- snippet: skip (signatures) -->\n```ts\nf(x): y\n```\n', 'x.md');
    expect(skipped.skipReason).toBe('signatures');
  });

  it('type-checks every file of every example, whatever its extension', () => {
    const extensions = new Set(snippets.flatMap((snippet) => snippet.files.map((file) => extname(file.path))));
    expect(extensions).toContain('.mts');
    for (const extension of extensions) expect(TSCONFIG.include).toContain(`examples/**/*${extension}`);
  });

  it('tsc reports nothing outside the examples', () => {
    expect(errorsBySnippet.get('(outside the examples)') ?? []).toEqual([]);
  });

  for (const snippet of snippets) {
    it(`${snippet.location} compiles`, (context) => {
      if (snippet.skipReason) return context.skip(`not checked: ${snippet.skipReason}`);
      expect(errorsBySnippet.get(snippet.location) ?? []).toEqual([]);
    });
  }
});

// Builds the fixture app with Rsbuild, Farm or Bun, as a user's build script would, in a process of
// its own: Farm ends the process on a failed build, and `Bun.build` runs only in Bun (run this file
// with the bun binary for `bun`). Usage: host-build.mjs <rsbuild|farm|bun> <root> <entry> <outDir> [package]
// `package` is where `unplugin-idl-rpc` comes from (default: this repository's dist/).
// Exits 0 after a successful build; otherwise non-zero, with the host's own build output.
// With IDLRPC_WATCH=1 (Rsbuild and Farm), it watches and rebuilds instead, until killed.
// With IDLRPC_DEV_PORT=<port> (Rsbuild), it runs `rsbuild dev`'s server on that port instead, until
// killed, and prints "dev server ready".
const watching = process.env.IDLRPC_WATCH === '1';
const devPort = Number(process.env.IDLRPC_DEV_PORT) || undefined;
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [host, root, entry, outDir, packageName] = process.argv.slice(2);
const entryOf = (name) =>
  packageName ? `${packageName}/${name}` : pathToFileURL(path.resolve(import.meta.dirname, `../../../dist/src/plugin/${name}.js`)).href;
const { default: idlRpc } = await import(entryOf(host));

if (host === 'rsbuild') {
  const { createRsbuild } = await import('@rsbuild/core');
  const shared = { plugins: [idlRpc()], logLevel: 'error' };
  const rsbuildConfig = devPort
    ? { ...shared, source: { entry: { index: `./${entry}` } }, server: { host: '127.0.0.1', port: devPort, strictPort: true } }
    : {
        ...shared,
        source: { entry: { app: `./${entry}` } },
        output: { distPath: { root: outDir }, filenameHash: false, cleanDistPath: true },
        splitChunks: false,
        tools: { htmlPlugin: false },
      };
  const rsbuild = await createRsbuild({ cwd: root, rsbuildConfig });
  if (devPort) {
    await rsbuild.startDevServer();
    console.log('dev server ready');
  } else {
    const result = await rsbuild.build({ watch: watching }).catch((error) => {
      console.error(error.message);
      process.exit(1);
    });
    if (!watching) await result.close?.();
  }
} else if (host === 'farm') {
  const { build, watch } = await import('@farmfe/core');
  await (watching ? watch : build)({
    root,
    configPath: false,
    clearScreen: false,
    compilation: {
      input: { app: `./${entry}` },
      output: { path: outDir, entryFilename: '[entryName].js', targetEnv: 'browser-esm' },
      persistentCache: false,
      minify: true,
      presetEnv: false,
      sourcemap: false,
      // One file, as the other hosts write: Farm's browser-esm output imports a split-off chunk of
      // node_modules by a bare name that Node cannot load.
      partialBundling: { enforceResources: [{ name: 'app', test: ['.+'] }] },
    },
    plugins: [idlRpc()],
  });
} else if (host === 'bun') {
  const result = await Bun.build({
    entrypoints: [path.join(root, entry)],
    outdir: outDir,
    naming: 'app.js',
    target: 'browser',
    minify: true,
    plugins: [idlRpc()],
    throw: false,
  });
  for (const log of result.logs) console.error(String(log));
  if (!result.success) process.exit(1);
} else {
  console.error(`unknown host ${host}`);
  process.exit(2);
}

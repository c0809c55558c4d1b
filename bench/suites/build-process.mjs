/**
 * One build in a fresh process, so what a user pays on every `vite build` (Node start, loading the
 * bundler and our plugin, then the build) is all counted.
 *   node build-process.mjs <bundler> <plugin|pregenerated|noop> <app folder>
 * Prints `{"ms":N,"bytes":N}`: milliseconds from the start of the process (`performance.now()`,
 * whose origin is the process start) to the end of the build, and the JavaScript bytes written.
 */
import { buildApp } from '../lib/bundler-builds.mjs';

const [bundler, variant, appDir] = process.argv.slice(2);
if (!appDir || !['plugin', 'pregenerated', 'noop'].includes(variant)) {
  console.error('usage: build-process.mjs <bundler> <plugin|pregenerated|noop> <app folder>');
  process.exit(2);
}
const bytes = await buildApp(bundler, variant, appDir);
const ms = performance.now();
console.log(JSON.stringify({ ms, bytes }));
// Some bundlers keep worker threads alive after the build; the figure is taken, so leave now.
process.exit(0);

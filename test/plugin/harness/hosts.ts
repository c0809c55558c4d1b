/**
 * Rsbuild, Farm and Bun build the fixture app in a process of their own (host-build.mjs): Farm ends
 * its process on a failed build, and Bun's bundler runs only in Bun. Bun's binary is a dev dependency.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BuildResult } from './bundlers.js';
import { repoRoot } from './workspace.js';

export const HOSTS = ['rsbuild', 'farm', 'bun'] as const;
export type Host = (typeof HOSTS)[number];

/** A dev dependency's binary in the repository's node_modules/.bin; throws clearly when it is missing. */
export function devBinary(name: 'bun' | 'deno' | 'workerd'): string {
  const file = path.join(repoRoot, 'node_modules/.bin', name);
  if (!existsSync(file)) throw new Error(`${file} is missing: it is a dev dependency, run npm install`);
  return file;
}

export interface HostBuild {
  /** The host's exit code (0: built). */
  code: number;
  /** Everything the host printed. */
  output: string;
}

/**
 * Builds `entry` of `root` with a host into `outDir`. `packageName`: import the plugin by this name
 * (an installed tarball) instead of from this repository's dist/; `cwd`: where to run; `script`: a
 * copy of host-build.mjs (in a user's project, so that it imports from there).
 */
export async function buildWithHost(
  host: Host,
  request: { root: string; entry: string; outDir: string; packageName?: string; cwd?: string; script?: string },
): Promise<HostBuild> {
  const script = request.script ?? path.join(repoRoot, 'test/plugin/harness/host-build.mjs');
  const command = host === 'bun' ? devBinary('bun') : process.execPath;
  const args = [script, host, request.root, request.entry, request.outDir, ...(request.packageName ? [request.packageName] : [])];
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { cwd: request.cwd ?? repoRoot, timeout: 120_000 });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}${failed.message}`,
    };
  }
}

/** Where each host put the app's JavaScript. */
export function hostBundleOf(host: Host, outDir: string): BuildResult {
  if (host === 'rsbuild') return { bundleFile: path.join(outDir, 'static/js/app.js'), format: 'script' };
  return { bundleFile: path.join(outDir, 'app.js'), format: 'esm' };
}

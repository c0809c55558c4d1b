/**
 * This package as a user's app has it: a copy of its manifest and build (`dist/`) in the app's
 * `node_modules/unplugin-idl-rpc`, a real folder (Vite follows a symlink to the repository, where
 * nothing is "in node_modules"). The copy's own dependencies resolve from the repository's
 * node_modules above the app. Built first when the sources are newer than the build.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { ensureBuilt } from '../../cli/run-cli.js';
import type { IdlRpcPluginOptions } from '../../../src/plugin/options.js';
import { repoRoot } from './workspace.js';

/** The Vite plugin factory of the installed copy. */
export type InstalledVitePlugin = (options?: IdlRpcPluginOptions) => Plugin;

/**
 * Makes `app` a project of its own (a package.json, so Vite keeps its optimizer cache in the app)
 * with this package installed, and loads the Vite plugin from the installed copy.
 */
export async function installPackageCopy(app: string): Promise<InstalledVitePlugin> {
  ensureBuilt();
  const installed = path.join(app, 'node_modules', 'unplugin-idl-rpc');
  await mkdir(installed, { recursive: true });
  await cp(path.join(repoRoot, 'package.json'), path.join(installed, 'package.json'));
  await cp(path.join(repoRoot, 'dist'), path.join(installed, 'dist'), { recursive: true });
  await writeFile(path.join(app, 'package.json'), `${JSON.stringify({ name: 'installed-user', private: true, type: 'module' })}\n`);
  const entry = pathToFileURL(path.join(installed, 'dist/src/plugin/vite.js')).href;
  return ((await import(entry)) as { default: InstalledVitePlugin }).default;
}

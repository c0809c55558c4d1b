/**
 * Shared helpers of the generator tests: run `idlrpc` in-process, type-check and run a generated
 * directory. Generated directories live under `test-output/` inside the repository, so they resolve
 * `@sinclair/typebox`, `@types/node` and `vitest` from the repository's node_modules.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The reference example (the playground's service). */
export const checkoutIdl = path.join(repoRoot, 'playground/checkout.idl');
export const everythingIdl = path.join(repoRoot, 'test/generator/fixtures/everything.idl');
/** A root file importing a shared namespace and a second namespace that imports it too. */
export const multiFileIdl = path.join(repoRoot, 'test/idl/fixtures/multi-file/shop.idl');
const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');

/** A fresh, empty directory under `test-output/generator/`. */
export function freshDir(name: string): string {
  const dir = path.join(repoRoot, 'test-output/generator', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Runs `idlrpc <args>` in-process; returns the exit code and what it printed. */
export async function idlrpc(args: string[], cwd = repoRoot): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), cwd });
  return { code, stdout, stderr };
}

/**
 * Copies a fixture template into `dir`, with `%JS%` replaced by the import suffix, and `%RUNTIME%` /
 * `%MODULE%` by the runtime and generated module to import (the output directory's by default).
 */
export function writeTemplate(
  fixture: string,
  dir: string,
  fileName: string,
  suffix: string,
  imports = { runtime: `./runtime/index${suffix}`, module: `./index${suffix}` },
): void {
  const text = readFileSync(path.join(repoRoot, 'test/generator/fixtures', fixture), 'utf8');
  const filled = text.replaceAll('%JS%', suffix).replaceAll('%RUNTIME%', imports.runtime).replaceAll('%MODULE%', imports.module);
  writeFileSync(path.join(dir, fileName), filled);
}

export interface ProcessResult {
  status: number | null;
  output: string;
}

/** `tsc -p dir` with the directory's own (generated, `strict`) tsconfig.json. */
export function typeCheck(dir: string, emit: boolean, timeoutMs = 180_000): ProcessResult {
  const result = spawnSync(tsc, ['-p', dir, ...(emit ? [] : ['--noEmit'])], { encoding: 'utf8', timeout: timeoutMs });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * Runs a JavaScript file with node, with code generation from strings disabled: generated validators
 * are compiled ahead of time, so nothing may need `eval` or `new Function`.
 */
export function runNode(file: string): ProcessResult {
  const result = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', file], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: path.dirname(file),
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every file under `dir` with its content (relative paths with `/`), to compare directories. */
export function readTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[path.relative(dir, full).split(path.sep).join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/**
 * Writes `idl` to `test-output/generator/<name>/`, generates its output directory with the CLI and
 * expects it to compile under `tsc --strict` (the generated tsconfig), with nothing printed.
 */
export async function expectOutputDirectoryCompiles(name: string, idl: string): Promise<void> {
  const dir = freshDir(name);
  const idlFile = path.join(dir, `${name}.idl`);
  writeFileSync(idlFile, idl);
  const out = path.join(dir, 'gen');
  const generated = await idlrpc(['-plugin', 'ts-client-server', '-dir', out, '-ts-gen-tsconfig', idlFile]);
  expect(generated.stderr).toBe('');
  const checked = typeCheck(out, false, 600_000);
  expect(checked.output).toBe('');
  expect(checked.status).toBe(0);
}

/**
 * Debian's Python and mypy for the tests of the generated Python client, and the package generated
 * from an IDL into a temporary folder. Outside CI a test without them skips with the reason; in CI
 * (`CI` set) a missing one is a failure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileIdl } from '../../src/idl/compile.js';
import { generatePythonFiles } from '../../src/python/index.js';

export const pythonPath = '/usr/bin/python3';
export const mypyPath = '/usr/bin/mypy';
export const pyrightPath = fileURLToPath(new URL('../../node_modules/.bin/pyright', import.meta.url));
export const scenariosPath = fileURLToPath(new URL('./checkout-scenarios.json', import.meta.url));
export const scenarioRunnerPath = fileURLToPath(new URL('./python_scenarios.py', import.meta.url));

/** Why the Python tests cannot run here, or undefined when they can; throws in CI when a tool is missing. */
export function pythonMissing(tools: readonly string[] = [pythonPath]): string | undefined {
  const missing = tools.filter((tool) => !existsSync(tool));
  if (missing.length === 0) return undefined;
  const reason = `${missing.join(' and ')} not found (Debian: apt-get install python3 mypy)`;
  if (process.env.CI) throw new Error(`${reason}; CI requires it`);
  return reason;
}

/**
 * Why pycodestyle (Debian's python3-pycodestyle, run by Debian's python3) cannot check the PEP 8 of
 * the generated package here, or undefined when it can; throws in CI when it is missing.
 */
export function pycodestyleMissing(): string | undefined {
  const python = pythonMissing();
  if (python) return python;
  if (spawnSync(pythonPath, ['-m', 'pycodestyle', '--version'], { stdio: 'ignore' }).status === 0) return undefined;
  const reason = `${pythonPath} -m pycodestyle not found (Debian: apt-get install python3-pycodestyle)`;
  if (process.env.CI) throw new Error(`${reason}; CI requires it`);
  return reason;
}

/** Generates the Python package of an IDL file (and the files it imports) into a new temporary folder; returns the folder. */
export async function generatePythonPackage(idlPath: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'idlrpc-py-'));
  const model = compileIdl(readFileSync(idlPath, 'utf8'), idlPath);
  for (const [name, text] of generatePythonFiles(model, { sourceFile: path.basename(idlPath) })) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), text);
  }
  return folder;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (killed after `timeoutMs`, a guard against a hang, not a measure). */
export function run(command: string, args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const guard = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Converter speed and memory on the largest real OpenAPI document at hand: GitHub's REST
 * description when the OpenAPI tests have cached it, else the largest document of
 * @readme/oas-examples. OpenAPI -> IDL, then that IDL -> OpenAPI (compile + convert + serialise),
 * each in a fresh child process (peak RSS), median over rounds.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { repoRoot } from '../lib/checkout.mjs';
import { cacheDir } from '../lib/load-ts.mjs';
import { median } from '../lib/stats.mjs';

const run = promisify(execFile);
const converterProcess = fileURLToPath(new URL('./converter-process.mjs', import.meta.url));

/** Files named like GitHub's description in the gitignored caches (bounded walk). */
function findGitHubDescription() {
  const roots = ['.cache', 'test-output', 'node_modules/.cache', 'test/openapi/.cache'].map((r) => path.join(repoRoot, r));
  const found = [];
  const walk = (dir, depth) => {
    if (depth > 4 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (/api\.github\.com.*\.json$/.test(entry.name)) found.push(full);
    }
  };
  for (const root of roots) walk(root, 0);
  return found.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/** The largest JSON document of @readme/oas-examples. */
function largestOasExample() {
  const root = path.join(repoRoot, 'node_modules', '@readme', 'oas-examples');
  const files = [];
  for (const version of ['3.0', '3.1']) {
    const dir = path.join(root, version, 'json');
    for (const name of readdirSync(dir)) if (name.endsWith('.json')) files.push(path.join(dir, name));
  }
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/** Picks the document: GitHub's unless `quick` (it takes long) or it is not cached. */
export function converterDocument(quick) {
  const github = quick ? undefined : findGitHubDescription();
  const file = github ?? largestOasExample();
  const label = github
    ? "GitHub's REST description"
    : `@readme/oas-examples ${path.relative(path.join(repoRoot, 'node_modules', '@readme', 'oas-examples'), file)}`;
  return { file, label: `${label}, ${(statSync(file).size / 1e6).toFixed(2)} MB` };
}

async function child(args) {
  const { stdout } = await run(process.execPath, [converterProcess, ...args], { maxBuffer: 1 << 20, timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').pop());
}

/** Returns the table rows of the converter suite. */
export async function runConverterSuite(options) {
  const document = converterDocument(options.quick);
  const idlFile = path.join(cacheDir, 'converted.idl');
  const toIdl = [];
  const toOpenApi = [];
  for (let round = 0; round < options.rounds; round++) {
    toIdl.push(await child(['to-idl', document.file, idlFile]));
    toOpenApi.push(await child(['to-openapi', idlFile]));
  }
  const note = `no peer; ${document.label}`;
  const row = (metric, unit, values) => ({
    group: 'converter',
    metric,
    unit,
    ours: median(values),
    peer: null,
    higherIsBetter: false,
    note,
  });
  return {
    rows: [
      row(
        'OpenAPI -> IDL time',
        'ms',
        toIdl.map((r) => r.ms),
      ),
      row(
        'OpenAPI -> IDL peak memory (process peak RSS)',
        'MB',
        toIdl.map((r) => r.peakRssMb),
      ),
      row(
        'IDL -> OpenAPI time (compile + convert + serialise)',
        'ms',
        toOpenApi.map((r) => r.ms),
      ),
      row(
        'IDL -> OpenAPI peak memory (process peak RSS)',
        'MB',
        toOpenApi.map((r) => r.peakRssMb),
      ),
    ],
    info: {
      document: document.label,
      idlLines: toIdl[0].idlLines,
      baselineRssMb: { toIdl: median(toIdl.map((r) => r.baselineRssMb)), toOpenApi: median(toOpenApi.map((r) => r.baselineRssMb)) },
    },
  };
}

/**
 * The converter on hostile shapes (bench/lib/openapi-shapes.mjs: schemas nested n deep, `$ref`
 * and `allOf` chains n long, an enum of n values) at n = 1,000, 10,000 and 100,000, each
 * conversion in a fresh child process, median over rounds. The 10,000 and 100,000 rows compare with
 * ten times the previous size: a ratio near 1 is linear growth (near 10 would be quadratic).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openApiShapes } from '../lib/openapi-shapes.mjs';
import { median } from '../lib/stats.mjs';

const run = promisify(execFile);
const converterProcess = fileURLToPath(new URL('./converter-process.mjs', import.meta.url));
const SIZES = [1_000, 10_000, 100_000];

async function convertShape(shape, n) {
  const { stdout } = await run(process.execPath, ['--max-old-space-size=4096', converterProcess, 'shape', shape, String(n)], {
    maxBuffer: 1 << 20,
    timeout: 300_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop());
}

/** Returns the table rows of the converter-scaling suite. */
export async function runConverterScalingSuite(options) {
  const times = new Map();
  for (let round = 0; round < options.rounds; round++) {
    for (const shape of Object.keys(openApiShapes)) {
      for (const n of SIZES) {
        const key = `${shape} ${n}`;
        times.set(key, [...(times.get(key) ?? []), (await convertShape(shape, n)).ms]);
      }
    }
  }
  const rows = [];
  for (const shape of Object.keys(openApiShapes)) {
    SIZES.forEach((n, i) => {
      const ours = median(times.get(`${shape} ${n}`));
      const smaller = i > 0 ? median(times.get(`${shape} ${SIZES[i - 1]}`)) : null;
      rows.push({
        group: 'converter',
        metric: `OpenAPI -> IDL, ${shape}, n = ${n.toLocaleString('en-US')}`,
        unit: 'ms',
        ours,
        peerName: smaller === null ? undefined : `linear: 10 x n = ${SIZES[i - 1].toLocaleString('en-US')}`,
        peer: smaller === null ? null : 10 * smaller,
        higherIsBetter: false,
        note: smaller === null ? 'no peer' : undefined,
      });
    });
  }
  return { rows, info: { sizes: SIZES } };
}

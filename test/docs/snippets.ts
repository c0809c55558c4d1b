/**
 * The TypeScript examples of README.md and docs/*.md, as files to type-check.
 *
 * Every ```ts block is an example. A block may hold several files: a line `// <path>` naming a
 * file (`// vite.config.ts`, `// rollup.config.js (a note)`) starts the next one; otherwise the block
 * is one file. A block that is deliberately not code (API signature listings, a fragment that lives
 * inside this repository's sources) carries the marker `<!-- snippet: skip (<reason>) -->` on the
 * line above its fence, and the test reports it as skipped with that reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SnippetFile {
  /** Path relative to the snippet's folder; `.js` config files are checked as `.ts`. */
  path: string;
  text: string;
}

export interface Snippet {
  /** `docs/plugin.md:120`: where the block's fence is. */
  location: string;
  files: SnippetFile[];
  /** Why the block is not checked, when it is marked so. */
  skipReason?: string;
}

const FENCE = /^```(ts|typescript)\s*$/;
const SKIP_MARKER = /^<!-- snippet: skip \((.+)\) -->$/;
const FILE_MARKER = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|js|mjs|cjs))(?:\s|$)/;

/** The markdown files whose examples are checked: README.md and docs/*.md. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** Every ```ts block of one markdown text. */
export function extractSnippets(markdown: string, fileName: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i])) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
    const skipReason = SKIP_MARKER.exec(lines[start - 1] ?? '')?.[1];
    snippets.push({ location: `${fileName}:${start + 1}`, files: splitFiles(body, snippets.length), skipReason });
  }
  return snippets;
}

function splitFiles(body: string[], index: number): SnippetFile[] {
  const files: { path: string; lines: string[] }[] = [];
  for (const line of body) {
    const named = FILE_MARKER.exec(line)?.[1];
    if (named) files.push({ path: named.replace(/\.(m|c)?js$/, '.$1ts'), lines: [] });
    else if (files.length === 0) files.push({ path: `example-${index + 1}.ts`, lines: [line] });
    else files[files.length - 1].lines.push(line);
  }
  // `export {}` makes every file a module, so examples never share top-level names.
  return files.map(({ path, lines }) => ({ path, text: `${lines.join('\n')}\nexport {};\n` }));
}

/** Every example of the project's documentation. */
export function projectSnippets(root: string): Snippet[] {
  return documentationFiles(root).flatMap((file) => extractSnippets(readFileSync(join(root, file), 'utf8'), file));
}

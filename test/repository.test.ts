/**
 * The repository stands on its own: a user's clone has nothing beside it, so no tracked file may
 * read or name a file outside the repository, nor an absolute path of the machine it was written on.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './cli/run-cli.js';

// Spelled in pieces so that this file does not match itself.
const FORBIDDEN: { what: string; pattern: RegExp }[] = [
  { what: 'a folder beside the repository', pattern: new RegExp(['\\.\\.', 'shared\\b'].join('/')) },
  { what: 'the product spec outside the repository', pattern: new RegExp(['shared', 'spec'].join('/')) },
  { what: 'the product spec outside the repository', pattern: new RegExp(['seed', 'spec'].join('-')) },
  { what: 'the decisions file outside the repository', pattern: new RegExp(['decisions', 'md'].join('\\.')) },
  {
    what: 'an absolute path of a build machine',
    pattern: new RegExp(
      ['', 'work', ''].join('/') + '|' + ['', 'root', ''].join('/') + '|' + ['', 'home', '[a-z_][a-z0-9_-]*', ''].join('/'),
    ),
  },
];

/** Every line of a tracked text file that names something outside the repository. */
function outsideReferences(path: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { what, pattern } of FORBIDDEN) {
      if (pattern.test(line)) found.push(`${path}:${index + 1}: ${what}: ${line.trim().slice(0, 120)}`);
    }
  });
  return found;
}

describe('the repository stands on its own', () => {
  it('recognises each forbidden reference', () => {
    const samples = [
      `readFileSync('${['..', 'shared', 'x.idl'].join('/')}')`,
      `see ${['decisions', 'md'].join('.')} §3`,
      `the ${['seed', 'spec'].join('-')}.md rules`,
      `cd ${['', 'work', 'main'].join('/')}`,
      `${['', 'home', 'dev', 'project'].join('/')}`,
    ];
    for (const sample of samples) expect(outsideReferences('sample', sample), sample).toHaveLength(1);
    expect(outsideReferences('sample', "import x from './shared.js'; // a homepage, a network")).toEqual([]);
  });

  it('no tracked file names anything outside the repository', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    expect(files.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(join(REPO_ROOT, file));
      if (bytes.includes(0)) continue; // binary
      found.push(...outsideReferences(file, bytes.toString('utf8')));
    }
    expect(found).toEqual([]);
  });
});

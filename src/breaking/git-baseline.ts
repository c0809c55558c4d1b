/**
 * Reading a baseline from git: `git:<rev>` is the new file's own path at that revision,
 * `git:<rev>:<path>` another path (a moved file; relative to the current folder). Every file it
 * imports is read at the same revision, through `git show`, so the baseline is the whole program
 * as it was.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { IdlFileHost } from '../idl/program.js';
import { BaselineError } from './baseline-error.js';

/** A `git:` baseline located in its repository. */
export interface GitBaseline {
  revision: string;
  /** The repository's top folder. */
  top: string;
  /** The root file's path in the repository (POSIX separators, relative to `top`). */
  file: string;
}

/** Splits `git:<rev>[:<path>]`; the path defaults to `newFile`. Undefined for a baseline that is no git one. */
export function parseGitBaseline(against: string): { revision: string; path?: string } | undefined {
  if (!against.startsWith('git:')) return undefined;
  const rest = against.slice('git:'.length);
  const colon = rest.indexOf(':');
  const revision = colon === -1 ? rest : rest.slice(0, colon);
  const file = colon === -1 ? undefined : rest.slice(colon + 1);
  if (revision === '') throw new BaselineError(`${against}: no revision after 'git:' (write git:<rev> or git:<rev>:<path>)`);
  if (file === '') throw new BaselineError(`${against}: no path after the revision (write git:<rev>:<path>)`);
  return file === undefined ? { revision } : { revision, path: file };
}

/**
 * Finds the repository of `newFile` and checks that the revision exists there.
 *
 * @throws BaselineError when git is missing, the folder is no repository, or the revision is unknown
 * (a shallow clone that never fetched it, a typo).
 */
export function locateGitBaseline(against: string, newFile: string, cwd: string): GitBaseline {
  const parsed = parseGitBaseline(against);
  if (!parsed) throw new BaselineError(`${against}: not a git: baseline`);
  const wanted = path.resolve(cwd, parsed.path ?? newFile);
  const top = git(['rev-parse', '--show-toplevel'], path.dirname(path.resolve(cwd, newFile)), against, (stderr) =>
    /not a git repository/i.test(stderr) ? `${path.dirname(wanted)} is not in a git repository` : undefined,
  ).trim();
  git(
    ['rev-parse', '--verify', '--quiet', `${parsed.revision}^{commit}`],
    top,
    against,
    () =>
      `revision '${parsed.revision}' is not in the repository at ${top}` +
      ' (a shallow clone? fetch it first, e.g. `git fetch --depth=1 origin main`, or check out with the full history)',
  );
  const file = path.relative(top, wanted).split(path.sep).join('/');
  if (file.startsWith('../') || path.isAbsolute(file)) throw new BaselineError(`${against}: ${wanted} is outside the repository at ${top}`);
  return { revision: parsed.revision, top, file };
}

/** A file host that reads every file at the baseline's revision; names are paths relative to the repository's top. */
export function gitFileHost(baseline: GitBaseline, maxBytes: number): IdlFileHost {
  return {
    readFile(fileName) {
      const file = path.posix.normalize(fileName.split(path.sep).join('/'));
      if (file.startsWith('../')) throw new Error('outside the repository');
      return gitShow(baseline, file, maxBytes);
    },
  };
}

/** The text of `file` at the revision; throws an Error saying why not (for import diagnostics). */
export function gitShow(baseline: GitBaseline, file: string, maxBytes: number): string {
  const text = git(['show', `${baseline.revision}:${file}`], baseline.top, `git:${baseline.revision}`, (stderr) =>
    /does not exist|exists on disk, but not in/i.test(stderr) ? `${file} does not exist at revision ${baseline.revision}` : undefined,
  );
  if (Buffer.byteLength(text) > maxBytes) throw new Error(`${file} at ${baseline.revision} is larger than ${maxBytes} bytes`);
  return text;
}

/**
 * Runs git and returns its output; a failure is a BaselineError with `explain(stderr)` or git's
 * own words.
 */
function git(args: string[], cwd: string, against: string, explain: (stderr: string) => string | undefined): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string; status?: number | null };
    if (failure.code === 'ENOENT') throw new BaselineError(`cannot read the baseline ${against}: git is not installed (or not on PATH)`);
    const stderr = String(failure.stderr ?? '').trim();
    const reason = explain(stderr) ?? (stderr || failure.message);
    throw new BaselineError(`cannot read the baseline ${against}: ${reason}`);
  }
}

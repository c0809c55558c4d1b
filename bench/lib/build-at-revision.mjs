/**
 * Builds the package as it was at a git revision, for benchmarks that compare a change with the state
 * before it: `git archive` of the sources into the git-ignored `.cache/builds/<commit>/`, this
 * checkout's node_modules linked in, compiled with the project's TypeScript. Cached by commit.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './checkout.mjs';

/** What `git archive` takes: everything `tsc -p tsconfig.build.json` compiles and reads. */
const SOURCES = ['src', 'runtime', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

/**
 * The folder of the build at `revision` (its `dist/` inside), building it first when needed; or
 * `{ unavailable }` saying why when this checkout's history does not hold the revision (a shallow
 * clone, an unpacked tarball).
 */
export function buildAtRevision(revision) {
  let commit;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch {
    const shallow = gitSays(['rev-parse', '--is-shallow-repository']) === 'true';
    return {
      unavailable: `commit ${revision} is not in this checkout's git history${shallow ? ' (a shallow clone: git fetch --unshallow)' : ''}`,
    };
  }
  const dir = path.join(repoRoot, '.cache', 'builds', commit);
  if (existsSync(path.join(dir, 'dist', 'src', 'openapi', 'index.js'))) return { dir, commit };
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const tar = execFileSync('git', ['archive', '--format=tar', commit, ...SOURCES], { cwd: repoRoot, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', work], { input: tar });
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(work, 'node_modules'), 'dir');
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: work, stdio: 'pipe', timeout: 300_000 });
    } catch (error) {
      // Type errors against today's node_modules still emit JavaScript; only a missing output is fatal.
      if (!existsSync(path.join(work, 'dist', 'src', 'openapi', 'index.js'))) throw error;
      console.error(`note: ${revision} compiled with type errors against this checkout's node_modules (its JavaScript is used)`);
    }
    // Moved into place only when complete, so an interrupted build is never mistaken for a cached one.
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return { dir, commit };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function gitSays(args) {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/**
 * The data folder's lock under contention: many processes released at the same instant onto a
 * fresh folder, or onto one whose lock a dead process left (naming it, or empty), get exactly one
 * holder every round; an abandoned takeover is recovered; a release removes only its own lock; a
 * lock that is a symbolic link is taken over.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DataFolderInUseError, lockDataFolder, lockFileName } from '../../playground/store/data-folder-lock.js';
import { takeoverClaimName } from '../../playground/store/lock-file.js';

/** Processes that contend for one folder in each round. */
const contenderCount = 24;
/** Rounds of each starting state. */
const roundsPerState = 12;

/** A contender process (lock-contender.ts) and its answers, one line each. */
interface Contender {
  child: ChildProcessByStdio<Writable, Readable, null>;
  nextLine(): Promise<string>;
}

let scratch = '';
let contenders: Contender[] = [];

function startContender(script: string): Contender {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  const closed = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`exited ${code ?? signal}`)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  return {
    child,
    nextLine: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      return Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), closed]);
    },
  };
}

/** Sends `line` to every contender in one go, and resolves with their answers. */
function tellAll(line: string): Promise<string[]> {
  for (const contender of contenders) contender.child.stdin.write(`${line}\n`);
  return Promise.all(contenders.map((contender) => contender.nextLine()));
}

/** The id of a process that has exited (and been reaped). */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve(child.pid!)));
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'playground-lock-'));
  const script = path.join(scratch, 'lock-contender.mjs');
  await build({
    entryPoints: [path.join(import.meta.dirname, 'lock-contender.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'warning',
  });
  contenders = Array.from({ length: contenderCount }, () => startContender(script));
  expect(await Promise.all(contenders.map((contender) => contender.nextLine()))).toEqual(contenders.map(() => 'ready'));
});

afterAll(async () => {
  for (const contender of contenders) contender.child.stdin.end();
  await Promise.all(contenders.map((contender) => new Promise((resolve) => contender.child.once('exit', resolve))));
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs the rounds from one starting state; each round every contender tries at once. */
async function contend(prepare: (folder: string) => void): Promise<void> {
  const pids = contenders.map((contender) => contender.child.pid!);
  for (let round = 0; round < roundsPerState; round++) {
    const folder = path.join(scratch, `folder-${Date.now()}-${round}`);
    mkdirSync(folder);
    prepare(folder);
    const answers = await tellAll(`take ${folder}`);
    const holders = answers.filter((answer) => answer === 'held');
    // Every other one is refused, naming a live contender (the holder, or one taking over the stale lock).
    const others = answers.filter((answer) => answer !== 'held');
    expect({ round, holders: holders.length }).toEqual({ round, holders: 1 });
    for (const other of others) expect(pids).toContain(Number(/^refused (\d+)$/.exec(other)?.[1]));
    expect(readdirSync(folder)).toEqual([lockFileName]);
    expect(await tellAll('release')).toEqual(contenders.map(() => 'released'));
    // Released, and nothing left behind: no temporary file, no takeover claim.
    expect(readdirSync(folder)).toEqual([]);
    rmSync(folder, { recursive: true });
  }
}

it(`${contenderCount} processes taking a fresh folder at once: exactly one holds it, every round`, async () => {
  await contend(() => {});
}, 60_000);

it(`${contenderCount} processes taking over a dead process's lock at once: exactly one holds it, every round`, async () => {
  const pid = await deadPid();
  await contend((folder) => writeFileSync(path.join(folder, lockFileName), `${pid}\n`));
}, 60_000);

it(`${contenderCount} processes taking over an empty lock file at once: exactly one holds it, every round`, async () => {
  await contend((folder) => writeFileSync(path.join(folder, lockFileName), ''));
}, 60_000);

it('recovers a takeover abandoned by a killed process, and names a live process taking one over', async () => {
  const folder = path.join(scratch, 'abandoned');
  mkdirSync(folder);
  const lockFile = path.join(folder, lockFileName);
  const dead = await deadPid();
  writeFileSync(lockFile, `${dead}\n`);
  const claim = takeoverClaimName(lockFile, statSync(lockFile, { bigint: true }).ino);

  // A live process (a contender) is taking it over: it is named, the lock is left alone.
  const taker = contenders[0].child.pid!;
  writeFileSync(claim, `${taker}\n`);
  expect(() => lockDataFolder(folder)).toThrow(new DataFolderInUseError(folder, taker));
  expect(readdirSync(folder).sort()).toEqual([lockFileName, path.basename(claim)].sort());

  // The process that was taking it over was killed meanwhile.
  writeFileSync(claim, `${dead}\n`);
  const release = lockDataFolder(folder);
  expect(readdirSync(folder)).toEqual([lockFileName]);
  release();
  expect(readdirSync(folder)).toEqual([]);
});

it('a release removes the lock only while it is still the one it took', () => {
  const folder = path.join(scratch, 'released');
  const lockFile = path.join(folder, lockFileName);
  const releaseFirst = lockDataFolder(folder);
  // Someone deleted the lock by hand, and this process took the folder again.
  rmSync(lockFile);
  const releaseSecond = lockDataFolder(folder);
  releaseFirst();
  expect(readdirSync(folder)).toEqual([lockFileName]);
  releaseSecond();
  expect(readdirSync(folder)).toEqual([]);
});

it('takes over a lock that is a symbolic link (it names no process), also one to nothing', () => {
  const folder = path.join(scratch, 'linked');
  mkdirSync(folder);
  symlinkSync(path.join(folder, 'nothing'), path.join(folder, lockFileName));
  const release = lockDataFolder(folder);
  expect(statSync(path.join(folder, lockFileName)).isFile()).toBe(true);
  release();
  expect(readdirSync(folder)).toEqual([]);
});

/**
 * IDL files of several MiB made of one thing repeated: blank lines, comment lines, one long
 * identifier, one long error message. The parser, the checker, the formatter and the code frames
 * must take memory linear in the text with a small constant (docs/cli.md): each file here is 8 MiB,
 * a quarter of the size limit (the message of escapes 16 MiB), and each run has the harness's
 * 256 MB heap. Before blank and comment lines were read without an object per line, 8 MiB of blank
 * lines took about 2 GB.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileCli, tempFolder, type ChildRun } from './harness.js';

const TIMEOUT = 90_000;
const SIZE = 8 * 1024 * 1024;
const NAMESPACE = 'namespace hostile\n';
/** The shortest comment line: the most comments in a size, each kept in the tree for the formatter. */
const COMMENT = '//\n';
const COMMENT_LINES = Math.floor((SIZE - NAMESPACE.length) / COMMENT.length);
const LONG_NAME = `A${'a'.repeat(SIZE - 64)}`;
/** A message of 8 million escaped backslashes (`\\` each): 16 MiB, where 8 MiB did not show the growth. */
const ESCAPES = '\\\\'.repeat(SIZE - 64);

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => {
  ensureBuilt();
  folder = tempFolder();
  write('blank.idl', NAMESPACE + '\n'.repeat(SIZE - NAMESPACE.length));
  write('blank-then-error.idl', `${NAMESPACE}${'\n'.repeat(SIZE - NAMESPACE.length)}struct {\n`);
  write('comments.idl', NAMESPACE + COMMENT.repeat(COMMENT_LINES));
  write('long-name.idl', `${NAMESPACE}struct ${LONG_NAME} {\n    f int\n}\n`);
  write('long-word.idl', LONG_NAME);
  write('long-message.idl', `${NAMESPACE}\nerrors {\n    1 Failed "${LONG_NAME}"\n}\n`);
  write('escapes.idl', `${NAMESPACE}\nerrors {\n    1 Failed "${ESCAPES}"\n}\n`);
});
afterAll(() => folder.remove());

function write(name: string, text: string): void {
  writeFileSync(join(folder.dir, name), text);
}

/** Neither hung nor crashed (out of memory included): the child ended on its own. */
function expectCleanExit(run: ChildRun): void {
  expect(run.hung).toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr)).toBe(false);
}

describe('MiBs of one repeated shape, under a 256 MB heap', () => {
  test('blank lines: -validate passes, -format prints the namespace alone', { timeout: TIMEOUT }, async () => {
    const validated = await runHostileCli(['-validate', 'blank.idl'], folder.dir);
    expectCleanExit(validated);
    expect(validated.stdout).toBe('blank.idl: ok (0 interfaces, 0 structs, 0 enums, 0 errors)\n');
    const formatted = await runHostileCli(['-format', 'blank.idl'], folder.dir);
    expectCleanExit(formatted);
    expect(formatted.stdout).toBe(NAMESPACE);
    expect(formatted.code).toBe(0);
  });

  test('blank lines, then an error on the last line: located there, with its code frame', { timeout: TIMEOUT }, async () => {
    const line = SIZE - NAMESPACE.length + 2;
    const run = await runHostileCli(['-validate', 'blank-then-error.idl'], folder.dir);
    expectCleanExit(run);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`blank-then-error.idl:${line}:8: error: expected a struct name`);
    expect(run.stderr).toContain(`> ${line} | struct {`);
  });

  test('comment lines: -validate passes, -format keeps every comment', { timeout: TIMEOUT }, async () => {
    const validated = await runHostileCli(['-validate', 'comments.idl'], folder.dir);
    expectCleanExit(validated);
    expect(validated.code).toBe(0);
    const formatted = await runHostileCli(['-format', 'comments.idl'], folder.dir);
    expectCleanExit(formatted);
    expect(formatted.code).toBe(0);
    expect(formatted.stderr).toBe('');
    expect(formatted.stdout.split('\n').filter((line) => line === COMMENT.trimEnd()).length).toBe(COMMENT_LINES);
  });

  test('one long identifier: a struct name checks and formats; alone, it is one located error', { timeout: TIMEOUT }, async () => {
    const validated = await runHostileCli(['-validate', 'long-name.idl'], folder.dir);
    expectCleanExit(validated);
    expect(validated.stdout).toBe('long-name.idl: ok (0 interfaces, 1 struct, 0 enums, 0 errors)\n');
    const formatted = await runHostileCli(['-format', 'long-name.idl'], folder.dir);
    expectCleanExit(formatted);
    expect(formatted.code).toBe(0);
    // A boolean, so that a failure does not print 8 MiB.
    expect(formatted.stdout.startsWith(`${NAMESPACE}\nstruct ${LONG_NAME} {\n`)).toBe(true);
    const alone = await runHostileCli(['-validate', 'long-word.idl'], folder.dir);
    expectCleanExit(alone);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('long-word.idl:1:1: error: expected a declaration');
    // The frame shows a window of the line, not 8 MiB of it.
    expect(alone.stderr.length).toBeLessThan(2000);
  });

  test('one long error message: -validate passes, -format prints it back', { timeout: TIMEOUT }, async () => {
    const validated = await runHostileCli(['-validate', 'long-message.idl'], folder.dir);
    expectCleanExit(validated);
    expect(validated.stdout).toBe('long-message.idl: ok (0 interfaces, 0 structs, 0 enums, 1 error)\n');
    const formatted = await runHostileCli(['-format', 'long-message.idl'], folder.dir);
    expectCleanExit(formatted);
    expect(formatted.code).toBe(0);
    expect(formatted.stdout.includes(`    1 Failed "${LONG_NAME}"\n`)).toBe(true);
  });

  test('one error message of escapes: -validate passes, -format prints it back', { timeout: TIMEOUT }, async () => {
    const validated = await runHostileCli(['-validate', 'escapes.idl'], folder.dir);
    expectCleanExit(validated);
    expect(validated.stdout).toBe('escapes.idl: ok (0 interfaces, 0 structs, 0 enums, 1 error)\n');
    const formatted = await runHostileCli(['-format', 'escapes.idl'], folder.dir);
    expectCleanExit(formatted);
    expect(formatted.code).toBe(0);
    expect(formatted.stdout.includes(`    1 Failed "${ESCAPES}"\n`)).toBe(true);
  });
});

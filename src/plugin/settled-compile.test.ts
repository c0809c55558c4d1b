import { expect, test } from 'vitest';
import { IdlModuleError } from '../codegen/idl-module-error.js';
import { contentHash } from './content-hash.js';
import { compileWhenSettled, type FileProbe } from './settled-compile.js';

const quick = { attempts: 4, pauseMs: 1, quietMs: 20 };

/** A failed compile that read `text` for shared.idl. */
const failure = (text: string) => new IdlModuleError('shop.idl', [], new Map([['shared.idl', text]]), ['shop.idl', 'shared.idl']);

/** A compile that always fails with `error`, and how often it ran. */
function alwaysFailing(error: Error) {
  const counter = { runs: 0 };
  const compile = async (): Promise<never> => {
    counter.runs++;
    throw error;
  };
  return { compile, counter };
}

/** Files whose content is `disk`'s and whose last change was long ago. */
const stillFiles = (disk: () => string | undefined): FileProbe => ({
  hash: () => {
    const text = disk();
    return text === undefined ? undefined : contentHash(text);
  },
  modifiedMsAgo: () => 60_000,
});

test('a compile that read a file that has changed since runs again', async () => {
  let runs = 0;
  const result = await compileWhenSettled(
    async () => {
      runs++;
      if (runs === 1) throw failure(''); // read while the file was being written
      return 'module';
    },
    stillFiles(() => 'struct Money {}'),
    quick,
  );
  expect(result).toBe('module');
  expect(runs).toBe(2);
});

test('a compile whose files are as it read them fails at once', async () => {
  const broken = failure('struct Money { amount innt }');
  const { compile, counter } = alwaysFailing(broken);
  await expect(
    compileWhenSettled(
      compile,
      stillFiles(() => 'struct Money { amount innt }'),
      quick,
    ),
  ).rejects.toBe(broken);
  expect(counter.runs).toBe(1);
});

test('a file written moments ago, still as read: the compile waits until it has held still, then runs again', async () => {
  // A writer that emptied the file and has not filled it yet, on a busy machine: the check finds
  // the file as the compile read it (empty), but only just modified.
  let disk = '';
  const writtenAt = Date.now();
  setTimeout(() => (disk = 'struct Money {}'), 5);
  let runs = 0;
  const started = Date.now();
  const result = await compileWhenSettled(
    async () => {
      runs++;
      if (disk === '') throw failure('');
      return 'module';
    },
    { hash: () => contentHash(disk), modifiedMsAgo: () => Date.now() - writtenAt },
    quick,
  );
  expect(result).toBe('module');
  expect(runs).toBe(2);
  expect(Date.now() - started).toBeGreaterThanOrEqual(quick.quietMs - 2);
});

test('a broken file written moments ago is reported after one more run', async () => {
  const writtenAt = Date.now();
  const broken = failure('struct Money { amount innt }');
  const { compile, counter } = alwaysFailing(broken);
  const justWritten: FileProbe = { hash: () => contentHash('struct Money { amount innt }'), modifiedMsAgo: () => Date.now() - writtenAt };
  await expect(compileWhenSettled(compile, justWritten, quick)).rejects.toBe(broken);
  expect(counter.runs).toBe(2);
});

test('files that keep changing: the last failure after the attempts', async () => {
  let runs = 0;
  await expect(
    compileWhenSettled(
      async () => {
        runs++;
        throw failure(`version ${runs}`);
      },
      stillFiles(() => 'something else'),
      quick,
    ),
  ).rejects.toThrow(IdlModuleError);
  expect(runs).toBe(4);
});

test('other failures are not retried', async () => {
  const { compile, counter } = alwaysFailing(new Error('not a regular file'));
  await expect(
    compileWhenSettled(
      compile,
      stillFiles(() => undefined),
      quick,
    ),
  ).rejects.toThrow('not a regular file');
  expect(counter.runs).toBe(1);
});

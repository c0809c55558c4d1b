import { expect, test } from 'vitest';
import { IdlModuleError } from '../codegen/idl-module-error.js';
import { contentHash } from './content-hash.js';
import { compileWhenSettled } from './settled-compile.js';

const quick = { attempts: 4, pauseMs: 1 };

/** A failed compile that read `text` for shared.idl. */
const failure = (text: string) => new IdlModuleError('shop.idl', [], new Map([['shared.idl', text]]), ['shop.idl', 'shared.idl']);

test('a compile that read a file that has changed since runs again', async () => {
  const disk = new Map([['shared.idl', 'struct Money {}']]);
  let runs = 0;
  const result = await compileWhenSettled(
    async () => {
      runs++;
      if (runs === 1) throw failure(''); // read while the file was being written
      return 'module';
    },
    (file) => (disk.has(file) ? contentHash(disk.get(file)!) : undefined),
    quick,
  );
  expect(result).toBe('module');
  expect(runs).toBe(2);
});

test('a compile whose files are as it read them fails at once', async () => {
  let runs = 0;
  const broken = failure('struct Money { amount innt }');
  await expect(
    compileWhenSettled(
      async () => {
        runs++;
        throw broken;
      },
      () => contentHash('struct Money { amount innt }'),
      quick,
    ),
  ).rejects.toBe(broken);
  expect(runs).toBe(1);
});

test('files that keep changing: the last failure after the attempts', async () => {
  let runs = 0;
  await expect(
    compileWhenSettled(
      async () => {
        runs++;
        throw failure(`version ${runs}`);
      },
      () => contentHash('something else'),
      quick,
    ),
  ).rejects.toThrow(IdlModuleError);
  expect(runs).toBe(4);
});

test('other failures are not retried', async () => {
  let runs = 0;
  await expect(
    compileWhenSettled(
      async () => {
        runs++;
        throw new Error('not a regular file');
      },
      () => undefined,
      quick,
    ),
  ).rejects.toThrow('not a regular file');
  expect(runs).toBe(1);
});

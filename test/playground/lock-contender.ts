/**
 * A process that contends for a data folder's lock (test/playground/data-folder-lock.test.ts).
 * Says `ready`, then answers each line of its standard input:
 * `take <folder>` with `held`, `refused <pid>` (DataFolderInUseError) or `failed <message>`;
 * `release` with `released`, after releasing the lock it holds, if any.
 */
import { createInterface } from 'node:readline';
import { DataFolderInUseError, lockDataFolder } from '../../playground/store/data-folder-lock.js';

let release: (() => void) | undefined;

function answer(command: string, argument: string): string {
  if (command === 'release') {
    release?.();
    release = undefined;
    return 'released';
  }
  try {
    release = lockDataFolder(argument);
    return 'held';
  } catch (error) {
    if (error instanceof DataFolderInUseError) return `refused ${error.pid}`;
    return `failed ${(error as Error).message.replaceAll('\n', ' ')}`;
  }
}

process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const space = line.indexOf(' ');
  const [command, argument] = space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)];
  process.stdout.write(`${answer(command, argument)}\n`);
}

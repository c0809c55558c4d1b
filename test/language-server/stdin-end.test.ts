/**
 * The language server ends when its input ends, whatever it was reading: an editor that dies (or a
 * pipe that breaks) in the middle of a message must not leave a server process behind.
 */
import { spawn } from 'node:child_process';
import { beforeAll, expect, test } from 'vitest';
import { BIN, ensureBuilt } from '../cli/run-cli.js';

beforeAll(() => ensureBuilt());

/** How long a server may take to notice the end of its input; past it, the test kills it and fails. */
const GUARD_MS = 15_000;

/**
 * Starts `idlrpc -lsp --stdio`, writes `input`, and closes stdin (once the server has written
 * `awaitOutput`, when given); the exit code, or 'still running' at the guard.
 */
function exitAfterInput(input: string, awaitOutput?: string): Promise<number | null | 'still running'> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, '-lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('still running');
    }, GUARD_MS);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve(code);
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (awaitOutput !== undefined && output.includes(awaitOutput)) child.stdin.end();
    });
    if (awaitOutput === undefined) child.stdin.end(input);
    else child.stdin.write(input);
  });
}

/** A frame of the base protocol: header, blank line, body. */
function frame(message: object): string {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const initialize = frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });

test('stdin closed in the middle of a message body: the server exits (1: no shutdown came)', { timeout: GUARD_MS + 5000 }, async () => {
  const half = 'Content-Length: 120\r\n\r\n{"jsonrpc":"2.0","id":1,"met';
  expect(await exitAfterInput(half)).toBe(1);
});

test('stdin closed in the middle of a header, after a whole request: the server exits', { timeout: GUARD_MS + 5000 }, async () => {
  expect(await exitAfterInput(`${initialize}Content-Len`)).toBe(1);
});

test('stdin closed after shutdown: exit 0, as the protocol says', { timeout: GUARD_MS + 5000 }, async () => {
  const shutdown = frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
  expect(await exitAfterInput(initialize + shutdown, '"id":2')).toBe(0);
});

/**
 * Test helper: the TypeScript language service as editors run it. VS Code runs `tsserver` of a
 * TypeScript 5.x/6.x release (TypeScript 7, the project's compiler, has no JavaScript language
 * service), so this starts the one installed under the npm alias `typescript-6` and speaks its
 * protocol (a JSON request per line in, `Content-Length` framed JSON out).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './workspace.js';

const TSSERVER = path.join(repoRoot, 'node_modules/typescript-6/lib/tsserver.js');

/** A location as tsserver reports it: 1-based line and offset (column). */
export interface TsLocation {
  line: number;
  offset: number;
}

/** One result of a `definition` request. */
export interface TsDefinition {
  file: string;
  start: TsLocation;
  end: TsLocation;
}

export interface TsServer {
  /** Opens `file` (read from disk) as an editor does. */
  open(file: string): void;
  /** Where "Go to Definition" at `location` of `file` leads. */
  definition(file: string, location: TsLocation): Promise<TsDefinition[]>;
  close(): void;
}

/** Starts tsserver; the caller must `close` it. */
export function startTsServer(): TsServer {
  const child: ChildProcess = spawn(process.execPath, [TSSERVER, '--disableAutomaticTypingAcquisition'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pending = new Map<number, { resolve: (body: unknown) => void; reject: (error: Error) => void }>();
  let buffered = Buffer.alloc(0);
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const headerEnd = buffered.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/Content-Length: (\d+)/.exec(buffered.subarray(0, headerEnd).toString())?.[1]);
      const bodyStart = headerEnd + 4;
      if (buffered.length < bodyStart + length) return;
      const message = JSON.parse(buffered.subarray(bodyStart, bodyStart + length).toString()) as {
        type: string;
        request_seq?: number;
        success?: boolean;
        message?: string;
        body?: unknown;
      };
      buffered = buffered.subarray(bodyStart + length);
      if (message.type !== 'response' || message.request_seq === undefined) continue;
      const waiter = pending.get(message.request_seq);
      pending.delete(message.request_seq);
      if (message.success) waiter?.resolve(message.body);
      else waiter?.reject(new Error(`tsserver: ${message.message}`));
    }
  });
  let seq = 0;
  const send = (command: string, args: unknown) => {
    seq++;
    child.stdin!.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    return seq;
  };
  return {
    open(file) {
      send('open', { file });
    },
    definition(file, location) {
      return new Promise((resolve, reject) => {
        pending.set(send('definition', { file, ...location }), { resolve: (body) => resolve(body as TsDefinition[]), reject });
      });
    },
    close() {
      child.kill();
    },
  };
}

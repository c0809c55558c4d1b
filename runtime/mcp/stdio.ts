/**
 * MCP over stdio (the transport desktop AI clients start a local server with): one JSON-RPC
 * message per line on stdin (at most the server's `maxBodyBytes`), one per line on stdout, logs on
 * stderr. Each line goes through the server's MCP binding exactly as a POST would (so tools,
 * middleware, validation and limits are the same); what the binding would answer with a body is
 * written as one line, a 202 writes nothing.
 * stdout belongs to the protocol: while it runs, whatever else writes to it (`console.log` in a
 * handler, `process.stdout.write`) goes to stderr instead.
 */
import { type Readable, Writable } from 'node:stream';
import { ErrorCode } from '../errors.js';
import type { RpcServer } from '../server.js';
import { boundedLines } from './stdio-lines.js';

export interface McpStdioOptions {
  /** Where messages come from. Default `process.stdin`. */
  input?: Readable;
  /** Where responses go. Default `process.stdout` (whose other writers then go to stderr). */
  output?: Writable;
}

/** Serves `server`'s MCP binding over stdio until the input ends; resolves then. */
export async function serveMcpStdio(server: RpcServer, options: McpStdioOptions = {}): Promise<void> {
  const path = server.mcpPath;
  if (path === undefined) throw new Error('serveMcpStdio: the server has no MCP binding (createRpcServer({ mcp: mcpBinding({...}) }))');
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const claim = output === process.stdout ? claimStdout() : undefined;
  const protocol = claim?.protocol ?? output;
  const pending = new Set<Promise<void>>();
  try {
    for await (const line of boundedLines(input, server.maxBodyBytes)) {
      if ('tooLong' in line) {
        protocol.write(`${tooLongAnswer(server.maxBodyBytes)}\n`);
        continue;
      }
      if (line.text.trim() === '') continue;
      const answered = server
        .handleHttp({ method: 'POST', path, body: line.text, headers: { 'content-type': 'application/json' } })
        .then((answer) => {
          if (answer.body !== '') protocol.write(`${answer.body}\n`);
        });
      pending.add(answered);
      void answered.finally(() => pending.delete(answered));
    }
    await Promise.all(pending);
  } finally {
    claim?.release();
  }
}

/**
 * The answer to a line past `maxBodyBytes` (over HTTP, a 413): its id is unknown, as the line was
 * not kept.
 */
function tooLongAnswer(maxBodyBytes: number): string {
  const message = `Payload Too Large: a message is at most ${maxBodyBytes} bytes (maxBodyBytes)`;
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } });
}

/** process.stdout kept for the protocol; see `claimStdout`. */
export interface StdoutClaim {
  /** Writes to the real stdout: the one writer of the protocol stream. */
  readonly protocol: Writable;
  /** Gives process.stdout and console back their own writes. */
  release(): void;
}

/**
 * Keeps process.stdout for the protocol: until `release`, other writes to it (`process.stdout.write`,
 * `console.log`, `console.info`, `console.debug`) go to stderr, and `protocol` alone reaches stdout.
 * A host that loads code before serving (`idlrpc -mcp-stdio` importing a server module, whose
 * top-level code may print) claims stdout first and gives `protocol` to `serveMcpStdio` as `output`.
 */
export function claimStdout(): StdoutClaim {
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout);
  const original = { write: stdout.write, log: console.log, info: console.info, debug: console.debug };
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  console.log = console.info = console.debug = console.error;
  // A failed write (EPIPE once the client closed its end) reaches `protocol` through the write's
  // callback; stdout's own 'error' event, unheard, would end the process with an uncaught error.
  const heardThroughProtocol = () => {};
  stdout.on('error', heardThroughProtocol);
  return {
    protocol: new Writable({
      write(chunk: Buffer, _encoding, done) {
        protocolWrite(chunk, (error) => done(error ?? null));
      },
    }),
    release() {
      stdout.off('error', heardThroughProtocol);
      stdout.write = original.write;
      console.log = original.log;
      console.info = original.info;
      console.debug = original.debug;
    },
  };
}

/**
 * Completion latency of TypeScript 6's tsserver (the language service editors run), spoken to as a
 * child process over its JSON protocol on stdio: open a file, wait until its project is loaded, then
 * time `completionInfo` requests at one position, the first one (which builds the checker) and
 * repeated ones, with and without an edit of the file before each (an edit makes tsserver update the
 * program and build a new checker, as each keystroke in an editor does).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './checkout.mjs';
import { median } from './stats.mjs';

const TSSERVER = path.join(repoRoot, 'node_modules', 'typescript-6', 'lib', 'tsserver.js');

/** A tsserver child process with a request/response helper (responses matched by `request_seq`). */
function startTsserver() {
  const child = spawn(process.execPath, [TSSERVER, '--disableAutomaticTypingAcquisition', '--suppressDiagnosticEvents'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const pending = new Map();
  let buffer = Buffer.alloc(0);
  let seq = 0;
  // Messages arrive as `Content-Length: N\r\n\r\n` followed by N bytes of JSON.
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(buffer.subarray(0, headerEnd).toString())[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
      buffer = buffer.subarray(headerEnd + 4 + length);
      if (message.type === 'response' && pending.has(message.request_seq)) {
        pending.get(message.request_seq)(message);
        pending.delete(message.request_seq);
      }
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  /** Sends a request; resolves with its response (commands tsserver does not answer resolve at once). */
  const request = (command, args, answered = true) => {
    const message = { seq: ++seq, type: 'request', command, arguments: args };
    child.stdin.write(`${JSON.stringify(message)}\n`);
    if (!answered) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      pending.set(message.seq, (response) =>
        response.success ? resolve(response) : reject(new Error(`tsserver ${command}: ${response.message}`)),
      );
      exited.then(() => reject(new Error(`tsserver exited during ${command}`)));
    });
  };
  const stop = async () => {
    child.stdin.end();
    child.kill();
    await exited;
  };
  return { request, stop };
}

/** The 1-based line and offset just after the first occurrence of `marker` in `text`. */
function positionAfter(text, marker) {
  const index = text.indexOf(marker);
  if (index < 0) throw new Error(`no "${marker}" in the completion file`);
  const before = text.slice(0, index + marker.length).split('\n');
  return { line: before.length, offset: before.at(-1).length + 1 };
}

/**
 * Times `completionInfo` in `file` just after `marker` (such as `repository.`): `first` (ms, the
 * request that builds the checker), `warm` (median of `rounds` repeated requests) and `afterEdit`
 * (median of `rounds` requests each after an edit of the file's last line), with the number of
 * entries of the last answer. The project (its tsconfig.json) is loaded before the clock starts.
 */
export async function timeCompletions(file, marker, rounds) {
  const text = readFileSync(file, 'utf8');
  const { line, offset } = positionAfter(text, marker);
  const server = startTsserver();
  try {
    await server.request('configure', { preferences: { includeCompletionsForModuleExports: false } });
    await server.request('open', { file, fileContent: text }, false);
    // Answered once the file's project is loaded (open itself gets no response).
    await server.request('projectInfo', { file, needFileNameList: false });
    const complete = async () => {
      const start = performance.now();
      const response = await server.request('completionInfo', { file, line, offset });
      return { ms: performance.now() - start, entries: response.body?.entries.length ?? 0 };
    };
    const first = await complete();
    const warm = [];
    for (let round = 0; round < rounds; round++) warm.push((await complete()).ms);
    const lines = text.split('\n');
    const afterEdit = [];
    let last = first;
    for (let round = 0; round < rounds; round++) {
      // A keystroke at the end of the file (a comment), away from the completion position.
      await server.request(
        'change',
        { file, line: lines.length, offset: 1, endLine: lines.length, endOffset: 1, insertString: `// ${round}\n` },
        false,
      );
      last = await complete();
      afterEdit.push(last.ms);
    }
    if (last.entries === 0) throw new Error(`tsserver offered no completion after "${marker}" in ${file}`);
    return { first: first.ms, warm: median(warm), afterEdit: median(afterEdit), entries: last.entries };
  } finally {
    await server.stop();
  }
}

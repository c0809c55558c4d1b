/**
 * Language server: the time from an edit of the synthetic 10,000-line IDL (a `didChange` sent over
 * stdio to `idlrpc -lsp`) to the diagnostics of that version, as an editor sees it. Edits alternate
 * between mistyping a type name (one diagnostic) and restoring it (none), each a one-character change.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { repoRoot } from '../lib/checkout.mjs';
import { median } from '../lib/stats.mjs';
import { loadSyntheticIdl } from '../lib/synthetic-idl.mjs';

/** Returns the table rows of the language server suite. */
export async function runLspSuite(options) {
  const { text } = await loadSyntheticIdl(10_000);
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist/src/cli/bin.js'), '-lsp', '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification('textDocument/publishDiagnostics', (params) => {
    waiting.get(params.version)?.(params.diagnostics);
    waiting.delete(params.version);
  });
  connection.listen();
  try {
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    await connection.sendNotification('initialized', {});
    const uri = pathToFileURL(path.join(repoRoot, 'synthetic-10000.idl')).href;
    const published = (version) => new Promise((resolve) => waiting.set(version, resolve));
    let version = 1;
    const opened = published(version);
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'idl-rpc', version, text } });
    if ((await opened).length !== 0) throw new Error('the synthetic IDL should have no diagnostics');

    // The last field typed with an enum: `status G9Status` -> `G9Statuf` and back.
    const lines = text.split('\n');
    const line = lines.findLastIndex((l) => /^\s+status\s+G\d+Status$/.test(l));
    const character = lines[line].length - 1;
    const times = [];
    for (let round = 0; round < options.rounds * 2; round++) {
      version++;
      const broken = round % 2 === 0;
      const answer = published(version);
      const started = performance.now();
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character }, end: { line, character: character + 1 } }, text: broken ? 'f' : 's' }],
      });
      const diagnostics = await answer;
      times.push(performance.now() - started);
      if (diagnostics.length !== (broken ? 1 : 0))
        throw new Error(`unexpected diagnostics after edit ${round}: ${JSON.stringify(diagnostics)}`);
    }
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    return {
      rows: [
        {
          group: 'lsp',
          unit: 'ms',
          peerName: 'goal',
          peer: 200,
          higherIsBetter: false,
          metric: 'language server: diagnostics after an edit, synthetic 10,000-line IDL',
          ours: median(times),
          note: `median of ${times.length} edits over stdio`,
        },
      ],
      info: { lines: lines.length, edits: times.length, times: times.map((t) => Math.round(t * 10) / 10) },
    };
  } finally {
    connection.dispose();
    child.kill();
  }
}

/**
 * docs/editors.md's Neovim configurations. The 0.7 one runs as written in Neovim (Debian 12's
 * 0.7.2): headless, with `npx` on the PATH answering `npx idlrpc` with this checkout's built CLI, it
 * opens an `.idl` with an error, and the server must attach and publish that error as a diagnostic;
 * a second `.idl` of the same project must get the same client. The 0.8-0.10 and 0.11 ones need
 * APIs 0.7 lacks, so they are only parsed (LuaJIT, the Lua of every Neovim).
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, test, vi } from 'vitest';
import { BIN, ensureBuilt, REPO_ROOT } from '../cli/run-cli.js';
import { neovimMissing } from '../neovim.js';

// Neovim and the language server are child processes: generous limits for a busy 2-core machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = neovimMissing();
const FOLDER = path.join(REPO_ROOT, 'test-output/editors/neovim');

/** The ```lua block under `<!-- neovim-config: <version> -->` in docs/editors.md. */
function neovimConfig(markdown: string, version: string): string {
  const marker = `<!-- neovim-config: ${version} -->\n\`\`\`lua\n`;
  const start = markdown.indexOf(marker);
  if (start < 0) throw new Error(`docs/editors.md: no Neovim ${version} configuration (marker <!-- neovim-config: ${version} -->)`);
  const body = markdown.slice(start + marker.length);
  return body.slice(0, body.indexOf('```\n'));
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Runs `nvim --headless` isolated from the user's configuration and state; resolves with its output (bounded by a timeout). */
function runNeovim(args: string[], env: Record<string, string> = {}): Promise<string> {
  const home = path.join(FOLDER, 'home');
  const isolated = { XDG_CONFIG_HOME: home, XDG_DATA_HOME: home, XDG_STATE_HOME: home, XDG_CACHE_HOME: home };
  return new Promise((resolve) => {
    execFile(
      'nvim',
      ['--headless', '-i', 'NONE', '-n', '--noplugin', ...args],
      { cwd: FOLDER, env: { ...process.env, ...isolated, ...env }, timeout: 90_000, killSignal: 'SIGKILL', encoding: 'utf8' },
      (error, stdout, stderr) => resolve(`${error ? `${error.message}\n` : ''}${stdout}${stderr}`),
    );
  });
}

/** Waits for each buffer's diagnostics in turn, then writes what it saw as JSON to $RESULT_FILE and quits. */
const CHECK_SCRIPT = `
local function seen()
  vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local clients = {}
  for id, client in pairs(vim.lsp.buf_get_clients(0)) do table.insert(clients, { id = id, name = client.name }) end
  local diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(diagnostics, { lnum = d.lnum, col = d.col, message = d.message })
  end
  return { file = vim.fn.expand('%:t'), filetype = vim.bo.filetype, clients = clients, diagnostics = diagnostics }
end
local first = seen()
vim.cmd('edit other.idl')
local result = { first, seen() }
local out = assert(io.open(vim.env.RESULT_FILE, 'w'))
out:write(vim.fn.json_encode(result))
out:close()
vim.cmd('qa!')
`;

/** Parses each file given in $LUA_FILES (without running it) and writes `<file>: ok` or the syntax error to $RESULT_FILE. */
const PARSE_SCRIPT = `
local lines = {}
for file in string.gmatch(vim.env.LUA_FILES, '[^;]+') do
  local _, err = loadfile(file)
  table.insert(lines, err or (file .. ': ok'))
end
local out = assert(io.open(vim.env.RESULT_FILE, 'w'))
out:write(table.concat(lines, '\\n'))
out:close()
vim.cmd('qa!')
`;

let editorsMd: string;

beforeAll(async () => {
  editorsMd = await readFile(path.join(REPO_ROOT, 'docs/editors.md'), 'utf8');
  if (missing) return;
  ensureBuilt();
  await rm(FOLDER, { recursive: true, force: true });
  await mkdir(path.join(FOLDER, 'bin'), { recursive: true });
});

test('the Neovim 0.7 configuration attaches the server to .idl buffers, which publishes their errors', async (context) => {
  const config = neovimConfig(editorsMd, '0.7');
  if (missing) return context.skip(missing);
  await writeFile(path.join(FOLDER, 'init.lua'), config);
  await writeFile(path.join(FOLDER, 'check.lua'), CHECK_SCRIPT);
  await writeFile(path.join(FOLDER, 'broken.idl'), 'namespace demo\n\nstruct Thing {\n    name strng\n}\n');
  await writeFile(path.join(FOLDER, 'other.idl'), 'namespace other\n\nstruct Other {\n    count integer\n}\n');
  // The configuration's `npx idlrpc ...`, answered by this checkout's build as in a project that installed it.
  const npx = path.join(FOLDER, 'bin/npx');
  await writeFile(
    npx,
    `#!/bin/sh\n[ "$1" = idlrpc ] || { echo "this npx runs idlrpc only" >&2; exit 127; }\nshift\nexec ${shellQuote(process.execPath)} ${shellQuote(BIN)} "$@"\n`,
  );
  await chmod(npx, 0o755);

  const resultFile = path.join(FOLDER, 'result.json');
  const output = await runNeovim(['-u', 'init.lua', '-c', 'luafile check.lua', 'broken.idl'], {
    PATH: `${path.dirname(npx)}${path.delimiter}${process.env.PATH}`,
    RESULT_FILE: resultFile,
  });
  const result = JSON.parse(await readFile(resultFile, 'utf8').catch(() => JSON.stringify(`no result; nvim said: ${output}`)));

  expect(result).toEqual([
    {
      file: 'broken.idl',
      filetype: 'idlrpc',
      clients: [{ id: expect.any(Number), name: 'idlrpc' }],
      diagnostics: [{ lnum: 3, col: 9, message: "unknown type 'strng'; did you mean 'string'?" }],
    },
    {
      file: 'other.idl',
      filetype: 'idlrpc',
      clients: [{ id: expect.any(Number), name: 'idlrpc' }],
      diagnostics: [{ lnum: 3, col: 10, message: expect.stringContaining("unknown type 'integer'") }],
    },
  ]);
  // One server for the project's files.
  expect(result[1].clients[0].id).toBe(result[0].clients[0].id);
});

test('the Neovim 0.8-0.10 and 0.11 configurations are valid Lua', async (context) => {
  const configs = { '0.8-0.10': neovimConfig(editorsMd, '0.8-0.10'), '0.11': neovimConfig(editorsMd, '0.11') };
  if (missing) return context.skip(missing);
  const files = [];
  for (const [version, config] of Object.entries(configs)) {
    files.push(path.join(FOLDER, `init-${version}.lua`));
    await writeFile(files.at(-1)!, config);
  }
  // A file with a syntax error, so that a parser that accepts anything cannot pass.
  const broken = path.join(FOLDER, 'broken.lua');
  await writeFile(broken, 'vim.lsp.start({ name = "idlrpc"\n');
  await writeFile(path.join(FOLDER, 'parse.lua'), PARSE_SCRIPT);

  const resultFile = path.join(FOLDER, 'parsed.txt');
  const output = await runNeovim(['-u', 'NONE', '-c', 'luafile parse.lua'], {
    LUA_FILES: [...files, broken].join(';'),
    RESULT_FILE: resultFile,
  });
  const lines = (await readFile(resultFile, 'utf8').catch(() => `no result; nvim said: ${output}`)).split('\n');
  expect(lines.slice(0, files.length)).toEqual(files.map((file) => `${file}: ok`));
  expect(lines[files.length]).toMatch(/broken\.lua:2: '}' expected/);
});

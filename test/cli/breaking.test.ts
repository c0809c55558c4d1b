/**
 * `idlrpc -breaking` as a child process: baselines from an `.idl`, from the IDL JSON, and from git
 * (a temporary repository: commit, change, compare with `git:HEAD`, the imported file read at the
 * revision too), exit codes 0 / 1 / 2, `-level`, `-accept`, `-json`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/index.js';
import { ensureBuilt, runCli } from './run-cli.js';

const COMMON = 'namespace common\n\nstruct Money {\n    cents int\n}\n';
const API = `namespace shop

import "common.idl"

struct Item {
    sku    string
    price  common.Money
}

interface Shop {
    get(sku string) Item
    put(item Item, replace bool) bool
}
`;

let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
const write = (file: string, text: string) => writeFileSync(join(repo, file), text);

beforeAll(() => {
  ensureBuilt();
  repo = mkdtempSync(join(tmpdir(), 'idlrpc-breaking-'));
  mkdirSync(join(repo, 'api'));
  git('init', '-q');
  write('api/common.idl', COMMON);
  write('api/shop.idl', API);
  git('add', '.');
  git('commit', '-q', '-m', 'contract v1');
  // Working tree: the imported struct loses a field, the parameters swap.
  write('api/common.idl', 'namespace common\n\nstruct Money {\n    units int\n}\n');
  write('api/shop.idl', API.replace('put(item Item, replace bool)', 'put(replace bool, item Item)'));
  write('old.json', JSON.stringify(toIdlJson(compileIdl(API, 'shop.idl', { host: { readFile: () => COMMON } }))));
}, 60_000);
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('idlrpc -breaking -against git:', () => {
  test('reports the changes since HEAD, in the file and in the file it imports (read at HEAD too)', async () => {
    const { code, stdout, stderr } = await runCli(['-breaking', '-against', 'git:HEAD', 'api/shop.idl'], repo);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout.split('\n')).toEqual([
      'HEAD:api/common.idl:4:5: wire: field-removed: required field common.Money.cents is removed from struct common.Money, which travels in requests and responses: old clients expect it',
      'api/common.idl:4:5: wire: field-added-required: required field common.Money.units is added to struct common.Money, which travels in requests and responses: old clients do not send it',
      'api/shop.idl:12:5: wire: param-reordered: the parameters of Shop.put change order from (item, replace) to (replace, item); old clients pass them by position',
      '3 breaking at wire: 3 changes break at level wire',
      '',
    ]);
  });

  test('from another folder, and for a moved file with git:<rev>:<path>', async () => {
    write('api/moved.idl', API);
    const moved = await runCli(['-breaking', '-against', 'git:HEAD:shop.idl', 'moved.idl'], join(repo, 'api'));
    expect(moved.stderr).toBe('');
    expect(moved.stdout).toContain('field-removed: required field common.Money.cents');
    expect(moved.stdout).not.toContain('param-reordered');
  });

  test('a revision that does not exist: exit 2 and a message saying so', async () => {
    const { code, stdout, stderr } = await runCli(['-breaking', '-against', 'git:no-such-branch', 'api/shop.idl'], repo);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^idlrpc: cannot read the baseline git:no-such-branch: revision 'no-such-branch' is not in the repository at .* \(a shallow clone\?/,
    );
  });

  test('a file that did not exist at the revision: exit 2', async () => {
    write('api/new.idl', 'namespace x\n');
    const { code, stderr } = await runCli(['-breaking', '-against', 'git:HEAD', 'api/new.idl'], repo);
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read the baseline git:HEAD: api/new.idl does not exist at revision HEAD');
  });

  test('outside a git repository: exit 2', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'idlrpc-no-git-'));
    try {
      writeFileSync(join(outside, 'a.idl'), 'namespace a\n');
      const { code, stderr } = await runCli(['-breaking', '-against', 'git:HEAD', 'a.idl'], outside);
      expect(code).toBe(2);
      expect(stderr).toContain('is not in a git repository');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('idlrpc -breaking, other baselines and flags', () => {
  test('an IDL JSON baseline (what rpc-idl serves): removals point at the JSON file', async () => {
    const { code, stdout } = await runCli(['-breaking', '-against', 'old.json', 'api/shop.idl'], repo);
    expect(code).toBe(1);
    expect(stdout).toContain('old.json: wire: field-removed: required field common.Money.cents');
  });

  test('-accept and -level decide the exit code; -json for machines', async () => {
    const accepted = await runCli(
      [
        '-breaking',
        '-against',
        'git:HEAD',
        'api/shop.idl',
        '-accept',
        'param-reordered:Shop.put',
        '-accept',
        'field-removed',
        '-accept',
        'field-added-required',
        '-json',
      ],
      repo,
    );
    expect(accepted.code).toBe(0);
    const report = JSON.parse(accepted.stdout);
    expect(report).toMatchObject({ against: 'git:HEAD', file: 'api/shop.idl', level: 'wire', breaking: false });
    expect(report.changes.map((c: { rule: string; accepted: boolean }) => [c.rule, c.accepted])).toEqual([
      ['field-removed', true],
      ['field-added-required', true],
      ['param-reordered', true],
    ]);
    // A parameter renamed in place: breaks REST clients (openapi), not positional JSON-RPC ones.
    write('api/same.idl', API.replace('put(item Item, replace bool)', 'put(item Item, overwrite bool)'));
    const renamed = ['-breaking', '-against', 'git:HEAD:api/shop.idl', 'api/same.idl'];
    expect((await runCli(renamed, repo)).code).toBe(1); // common.Money changed in the working tree
    expect((await runCli([...renamed, '-accept', 'field-removed', '-accept', 'field-added-required'], repo)).code).toBe(0);
    expect(
      (await runCli([...renamed, '-accept', 'field-removed', '-accept', 'field-added-required', '-level', 'openapi'], repo)).code,
    ).toBe(1);
  });

  test('no changes: exit 0 and says so', async () => {
    write('api/copy.idl', API);
    const { code, stdout } = await runCli(['-breaking', '-against', 'api/copy.idl', 'api/copy.idl'], repo);
    expect([code, stdout]).toEqual([0, 'no changes\n']);
  });

  test('wrong arguments, an unreadable baseline or an invalid file: exit 2', async () => {
    const cases = [
      { args: ['-breaking', 'api/shop.idl'], message: 'needs a baseline' },
      {
        args: ['-breaking', '-against', 'old.json', 'api/shop.idl', '-level', 'loose'],
        message: "-level must be one of wire, openapi, source, got 'loose'",
      },
      { args: ['-breaking', '-against', 'old.json', 'api/shop.idl', '-accept', 'nope'], message: "unknown rule 'nope'" },
      { args: ['-breaking', '-against', 'missing.idl', 'api/shop.idl'], message: 'cannot read the baseline missing.idl: no such file' },
      { args: ['-breaking', '-against', 'api/common.idl', 'api/shop.json'], message: 'cannot read api/shop.json' },
    ];
    for (const { args, message } of cases) {
      const { code, stderr } = await runCli(args, repo);
      expect([code, stderr]).toEqual([2, expect.stringContaining(message)]);
    }
    write('bad.json', '{"rootNamespace": "a", "structs": [{"name": "A", "fields": [{"name": "x"}]}]}');
    const bad = await runCli(['-breaking', '-against', 'bad.json', 'api/shop.idl'], repo);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'idlrpc: the baseline bad.json is not the IDL JSON that rpc-idl serves: structs[0].fields[0].type: expected a type\n',
    ]);
  });
});

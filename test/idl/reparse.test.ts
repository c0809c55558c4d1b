import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeEach, describe, expect, test } from 'vitest';
import { printIdl } from '../../src/idl/index.js';
import { parse } from '../../src/idl/parser.js';
import { clearKeptParses, parseReusing } from '../../src/idl/reparse.js';
import { randomIdlFile } from './random-idl.js';
import { syntheticIdl } from './synthetic.js';

/** The whole tree and the errors, spans and detached comments included, as plain data. */
const everything = (result: ReturnType<typeof parse>) => JSON.parse(JSON.stringify(result));

/** Parses `before`, then `after` reusing it: the second result must be what a full parse of `after` gives. */
function expectSameAsFullParse(before: string, after: string, fileName = 'edited.idl'): ReturnType<typeof parse> {
  parseReusing(before, fileName);
  const reparsed = parseReusing(after, fileName);
  expect(everything(reparsed)).toEqual(everything(parse(after, fileName)));
  return reparsed;
}

/** Line-level edits a person makes in an editor, at line `at` of `lines`. */
const EDITS: Record<string, (lines: string[], at: number) => string[]> = {
  'a field inserted': (lines, at) => [...lines.slice(0, at), '    added int [optional]', ...lines.slice(at)],
  'a line deleted': (lines, at) => [...lines.slice(0, at), ...lines.slice(at + 1)],
  'a comment inserted': (lines, at) => [...lines.slice(0, at), '// a note', ...lines.slice(at)],
  'a blank line inserted': (lines, at) => [...lines.slice(0, at), '', ...lines.slice(at)],
  'a line doubled': (lines, at) => [...lines.slice(0, at + 1), ...lines.slice(at)],
  'a struct inserted': (lines, at) => [...lines.slice(0, at), '// New.', 'struct Added {', '    id string', '}', ...lines.slice(at)],
  'a character changed': (lines, at) => lines.map((line, k) => (k === at && line.length > 0 ? `${line.slice(0, -1)}x` : line)),
  'a struct appended': (lines) => [...lines, 'struct Appended {', '    id string', '}', '// the end'],
};

const repositoryIdls = execFileSync('git', ['ls-files', '*.idl'], { encoding: 'utf8' }).trim().split('\n');

beforeEach(() => clearKeptParses());

describe('parsing a file again after an edit', () => {
  test.each(repositoryIdls)('%s: every line-level edit gives the tree and errors of a full parse', (file) => {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    for (const [kind, edit] of Object.entries(EDITS)) {
      for (let at = 0; at < Math.min(lines.length, 60); at++) {
        const after = edit(lines, at).join('\n');
        try {
          expectSameAsFullParse(text, after);
        } catch (error) {
          throw new Error(`${kind} at line ${at + 1}: ${(error as Error).message}`);
        }
      }
    }
  });

  test('random files under chains of edits (each parse reusing the one before) give the trees of full parses', () => {
    fc.assert(
      fc.property(
        fc.gen(),
        fc.array(fc.tuple(fc.constantFrom(...Object.keys(EDITS)), fc.nat()), { minLength: 1, maxLength: 6 }),
        (g, edits) => {
          clearKeptParses();
          let lines = printIdl(randomIdlFile(g)).split('\n');
          parseReusing(lines.join('\n'), 'random.idl');
          for (const [kind, at] of edits) {
            lines = EDITS[kind](lines, at % lines.length);
            const text = lines.join('\n');
            expect(everything(parseReusing(text, 'random.idl'))).toEqual(everything(parse(text, 'random.idl')));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test('an edit in the middle of a large file keeps the declarations before it and parses only the one it touched', () => {
    const text = syntheticIdl(1000);
    const middle = text.indexOf('\nstruct ', text.length >> 1);
    const body = text.indexOf('{\n', middle) + 2;
    const before = parseReusing(text, 'large.idl').file;
    const after = expectSameAsFullParse(text, `${text.slice(0, body)}    added int [optional]\n${text.slice(body)}`, 'large.idl').file;
    const edited = before.declarations.findIndex((declaration) => declaration.span.start.offset > middle);
    expect(edited).toBeGreaterThan(10);
    expect(after.declarations.slice(0, edited)).toEqual(before.declarations.slice(0, edited));
    for (let k = 0; k < edited; k++) expect(after.declarations[k]).toBe(before.declarations[k]);
    // The ones after it moved down a line: copies, not the previous tree's nodes.
    expect(after.declarations[edited + 1]).not.toBe(before.declarations[edited + 1]);
    expect(after.declarations[edited + 1].span.start.line).toBe(before.declarations[edited + 1].span.start.line + 1);
  });

  test('an edit of the first declaration is parsed in full', () => {
    const text = syntheticIdl(200);
    const before = parseReusing(text, 'small.idl').file;
    const after = expectSameAsFullParse(text, text.replace('errors {\n', 'errors {\n    999 Added "added"\n'), 'small.idl').file;
    expect(after.declarations.at(-1)).not.toBe(before.declarations.at(-1));
  });

  test('a syntax error is reported as a full parse reports it, and the next clean edit reuses the last clean tree', () => {
    const text = syntheticIdl(200);
    const broken = text.replace(/\n}\n/g, (closing, offset) =>
      offset > text.length / 2 && offset < text.length / 2 + 400 ? '\n' : closing,
    );
    expect(broken).not.toBe(text);
    const first = parseReusing(text, 'broken.idl').file;
    const reported = expectSameAsFullParse(text, broken, 'broken.idl');
    expect(reported.diagnostics.length).toBeGreaterThan(0);
    const fixed = parseReusing(text, 'broken.idl');
    expect(fixed.diagnostics).toEqual([]);
    expect(fixed.file).toBe(first);
  });

  test('an import written among the declarations keeps its place after an edit above it', () => {
    const text =
      'namespace shop\nimport "a.idl"\n\nstruct A {\n    id string\n}\n\nstruct B {\n    id string\n}\n\nimport "b.idl"\n\nstruct C {\n    id string\n}\n';
    const reparsed = expectSameAsFullParse(text, text.replace('struct B {\n', 'struct B {\n    more int\n'));
    expect(reparsed.file.imports?.map((declaration) => declaration.span.start.line)).toEqual([2, 13]);
  });

  test('a declaration appended to a file that ends without a line break', () => {
    const text = 'namespace shop\n\nenum A {\n    x\n}\n\nstruct B {\n    id string\n}';
    expectSameAsFullParse(text, `${text}\n// Doc.\nstruct C {\n    id string\n}\n`);
    expectSameAsFullParse(text, `${text}\n\n// Detached.\n\n// Doc.\nstruct C {\n    id string\n}`);
  });

  test('detached comments of a reparsed tree are those of a full parse', () => {
    const text =
      '// header\nnamespace shop\n\nenum A {\n    x\n}\n\n// detached\n\nstruct B {\n    id string\n}\n\n// after\n\nstruct C {\n    id string\n\n    // end of C\n}\n';
    const reparsed = expectSameAsFullParse(
      text,
      text.replace('    id string\n}\n\n// after', '    id string\n    more int\n}\n\n// after'),
    );
    expect(reparsed.file.detachedComments?.map((comment) => comment.text)).toEqual(['detached', 'after', 'end of C']);
  });
});

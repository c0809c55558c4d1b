import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { droppedComments, sourceComments } from '../../src/idl/format.js';
import {
  checkIdl,
  codeFrame,
  compileIdl,
  formatDiagnostic,
  formatDiagnosticHeaders,
  formatDiagnostics,
  idlChecksum,
  MAX_REPORTED_DIAGNOSTICS,
  parseIdl,
  printIdl,
  quoteMessage,
  syntheticName,
  syntheticSpan,
  toIdlJson,
  type IdlFile,
} from '../../src/idl/index.js';
import { randomIdlFile } from './random-idl.js';
import { stripSpans } from './strip-spans.js';

describe('printIdl on trees built by code', () => {
  const span = syntheticSpan('built.idl');
  const name = (text: string) => syntheticName(text, 'built.idl');
  const file: IdlFile = {
    fileName: 'built.idl',
    source: '',
    namespace: { kind: 'namespace', name: name('pets'), span, comment: 'Converted from OpenAPI.\nSecond line.' },
    declarations: [
      {
        kind: 'struct',
        name: name('Pet'),
        extends: name('Animal'),
        comment: 'A pet.',
        span,
        fields: [
          { name: name('id'), type: { kind: 'builtIn', name: 'int', span }, optional: false, span },
          {
            name: name('tagsByOwner'),
            type: { kind: 'map', value: { kind: 'array', element: { kind: 'named', name: 'Tag', span }, span }, span },
            optional: true,
            comment: 'Tags per owner.',
            span,
          },
        ],
      },
      { kind: 'struct', name: name('Animal'), span, fields: [] },
      { kind: 'struct', name: name('Tag'), span, fields: [] },
      {
        kind: 'errors',
        span,
        errors: [{ code: 404, codeSpan: span, name: name('NotFound'), message: 'say "hi" \\ there\nnext line', span }],
      },
      {
        kind: 'interface',
        name: name('pets'),
        span,
        methods: [
          {
            name: name('getPet'),
            parameters: [
              { name: name('id'), type: { kind: 'builtIn', name: 'int', span }, span },
              { name: name('verbose'), type: { kind: 'builtIn', name: 'bool', span }, span },
            ],
            returnType: { kind: 'named', name: 'Pet', span },
            returnOptional: true,
            raises: [name('NotFound')],
            span,
            comment: 'One pet.',
          },
          {
            name: name('ping'),
            parameters: [],
            returnType: { kind: 'builtIn', name: 'bool', span },
            returnOptional: false,
            raises: [],
            span,
          },
        ],
      },
    ],
  };

  test('prints canonical text that compiles', () => {
    const text = printIdl(file);
    expect(text).toBe(
      [
        '// Converted from OpenAPI.',
        '// Second line.',
        'namespace pets',
        '',
        '// A pet.',
        'struct Pet extends Animal {',
        '    id           int',
        '    // Tags per owner.',
        '    tagsByOwner  map[string][]Tag  [optional]',
        '}',
        '',
        'struct Animal {',
        '}',
        '',
        'struct Tag {',
        '}',
        '',
        'errors {',
        '    404 NotFound "say \\"hi\\" \\\\ there next line"',
        '}',
        '',
        'interface pets {',
        '    // One pet.',
        '    getPet(id int, verbose bool) Pet [optional] raises(NotFound)',
        '',
        '    ping() bool',
        '}',
        '',
      ].join('\n'),
    );
    const model = compileIdl(text, 'built.idl');
    expect(model.errors[0].message).toBe('say "hi" \\ there next line');
  });

  test('the checker rejects names that the IDL cannot spell', () => {
    const bad: IdlFile = {
      ...file,
      declarations: [
        {
          kind: 'enum',
          name: name('Size'),
          span,
          values: [
            { name: name('x-large'), span },
            { name: name('string'), span },
          ],
        },
      ],
    };
    expect(checkIdl(bad).diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      "invalid-name: 'x-large' is not a valid name: use letters, digits and underscores, starting with a letter",
      "invalid-name: 'string' is a reserved word and cannot be used as a name",
    ]);
  });

  test('quoteMessage escapes quotes and backslashes and flattens line breaks', () => {
    expect(quoteMessage('a "b" \\c\r\nd')).toBe('"a \\"b\\" \\\\c d"');
  });

  test('printing is idempotent on parsed text', () => {
    const once = printIdl(parseIdl('namespace a\nenum E {\n  x // trailing\n  // doc\n  y\n}\n', 'a.idl'));
    expect(once).toBe('namespace a\n\nenum E {\n    x // trailing\n    // doc\n    y\n}\n');
    expect(printIdl(parseIdl(once, 'a.idl'))).toBe(once);
  });
});

describe('code frames', () => {
  const source = 'line one\n\tindented x\nline three\nline four\n';

  test('tabs before the caret are kept so it lines up in a terminal', () => {
    expect(codeFrame(source, 2, 11, 1)).toBe(['  1 | line one', '> 2 | \tindented x', '    | \t         ^', '  3 | line three'].join('\n'));
  });

  test('a diagnostic without source, or out of range, is one line', () => {
    const d = { severity: 'error' as const, code: 'x', message: 'bad', file: 'f.idl', line: 9, column: 2, length: 3 };
    expect(formatDiagnostic(d)).toBe('f.idl:9:2: error: bad');
    expect(formatDiagnostic(d, source)).toBe('f.idl:9:2: error: bad');
  });

  test('the gutter widens for two-digit line numbers', () => {
    const long = Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join('\n');
    expect(codeFrame(long, 10, 1, 3)).toBe(['   8 | l8', '   9 | l9', '> 10 | l10', '     | ^^^', '  11 | l11'].join('\n'));
  });

  /** One `unknown type` diagnostic per line 1..count of a file `f.idl`. */
  const diagnosticsOnLines = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      severity: 'error' as const,
      code: 'unknown-type',
      message: `bad ${i + 1}`,
      file: 'f.idl',
      line: i + 1,
      column: 1,
    }));

  test('a report shows the first 100 diagnostics, then "and N more"', () => {
    expect(MAX_REPORTED_DIAGNOSTICS).toBe(100);
    const source = Array.from({ length: 250 }, (_, i) => `line${i + 1}`).join('\n');
    const report = formatDiagnostics(diagnosticsOnLines(250), source);
    const headers = report.split('\n').filter((line) => line.startsWith('f.idl:'));
    expect(headers).toHaveLength(100);
    expect(headers[99]).toBe('f.idl:100:1: error: bad 100');
    expect(report.endsWith('> 100 | line100\n      | ^\n  101 | line101\n\nand 150 more')).toBe(true);
    expect(formatDiagnostics(diagnosticsOnLines(250)).endsWith('f.idl:100:1: error: bad 100\n\nand 150 more')).toBe(true);
    expect(formatDiagnosticHeaders(diagnosticsOnLines(250)).split('\n').slice(-2)).toEqual(['f.idl:100:1: error: bad 100', 'and 150 more']);
  });

  test('a report of 100 diagnostics or fewer shows them all, with no "more" line', () => {
    expect(formatDiagnostics(diagnosticsOnLines(100))).not.toContain('more');
    expect(formatDiagnosticHeaders(diagnosticsOnLines(100)).split('\n')).toHaveLength(100);
  });

  test('a long line is shown as a window around the column, with the caret under the same text', () => {
    const line = `${'a'.repeat(1000)}XYZ${'b'.repeat(1000)}`;
    const frame = codeFrame(`first\n${line}\nlast`, 2, 1001, 3).split('\n');
    expect(frame[1]).toBe(`> 2 | …${'a'.repeat(60)}XYZ${'b'.repeat(57)}…`);
    expect(frame[2]).toBe(`    |  ${' '.repeat(60)}^^^`);
    expect(frame[2].indexOf('^')).toBe(frame[1].indexOf('X'));
    expect(codeFrame(line, 1, 1, 1).split('\n')[0]).toBe(`> 1 | ${'a'.repeat(120)}…`);
  });

  test('a lone carriage return is shown as a space, so it cannot move the cursor over the frame', () => {
    expect(codeFrame('a int\r b int\n', 1, 6, 1)).toBe(['> 1 | a int  b int', '    |      ^', '  2 |'].join('\n'));
  });
});

/** A file with a comment in every position the IDL allows one. */
const COMMENTED = [
  '// File header: not a doc comment.',
  '//Second header line, no space.',
  '',
  '',
  '// Another detached group.',
  '',
  '// The namespace doc.',
  'namespace shop // after namespace',
  '// Between namespace and enum.',
  '',
  '// Doc of Size.',
  'enum Size { // after enum header',
  '  small // after small',
  '  // standalone in enum',
  '',
  '  // doc of medium',
  '  medium',
  '  x_large   // after x_large',
  '  // end of enum',
  '',
  '  // second end group',
  '} // after enum close',
  '// directly after a brace, then a blank line',
  '',
  'struct Base {}  // after an empty block',
  'struct Item extends Base {',
  '  id string // the id',
  '  // doc of tags',
  '  tags []string [optional]  // after [optional]',
  '  //',
  '  // an empty comment line above',
  '',
  '',
  '  count int',
  '}',
  'errors { // errors header',
  '  // doc of 404',
  '  404 NotFound "not // a comment" // after an error',
  '  1000 Conflict "conflict \\"x\\""',
  '}',
  'interface Shop { // interface header',
  '  // Doc of get.',
  '  get(id string) Item [optional] raises(NotFound) // after get',
  '  // standalone between methods',
  '',
  '  put( // after the open paren',
  '    // above item',
  '    item Item, // after item',
  '',
  '    replace bool // after replace',
  '    // end of the parameters',
  '  ) Item raises(Conflict)',
  '  ping(',
  '  ) bool',
  '  // end of interface',
  '}',
  '',
  '// end of file 1',
  '',
  '',
  '// end of file 2',
].join('\n');

const COMMENTED_FORMATTED = [
  '// File header: not a doc comment.',
  '// Second header line, no space.',
  '',
  '// Another detached group.',
  '',
  '// The namespace doc.',
  'namespace shop // after namespace',
  '',
  '// Between namespace and enum.',
  '',
  '// Doc of Size.',
  'enum Size { // after enum header',
  '    small   // after small',
  '    // standalone in enum',
  '',
  '    // doc of medium',
  '    medium',
  '    x_large // after x_large',
  '    // end of enum',
  '',
  '    // second end group',
  '} // after enum close',
  '',
  '// directly after a brace, then a blank line',
  '',
  'struct Base {',
  '} // after an empty block',
  '',
  'struct Item extends Base {',
  '    id           string               // the id',
  '    // doc of tags',
  '    tags         []string  [optional] // after [optional]',
  '    //',
  '    // an empty comment line above',
  '',
  '    count        int',
  '}',
  '',
  'errors { // errors header',
  '    // doc of 404',
  '    404  NotFound "not // a comment" // after an error',
  '    1000 Conflict "conflict \\"x\\""',
  '}',
  '',
  'interface Shop { // interface header',
  '    // Doc of get.',
  '    get(id string) Item [optional] raises(NotFound) // after get',
  '',
  '    // standalone between methods',
  '',
  '    put(',
  '        // after the open paren',
  '        // above item',
  '        item Item, // after item',
  '        replace bool // after replace',
  '        // end of the parameters',
  '    ) Item raises(Conflict)',
  '',
  '    ping() bool',
  '',
  '    // end of interface',
  '}',
  '',
  '// end of file 1',
  '',
  '// end of file 2',
  '',
].join('\n');

const CHECKOUT = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');

/** Comment texts of a source, sorted: equal lists mean the same comments, each as often. */
const commentTexts = (source: string) =>
  sourceComments(source)
    .map((c) => c.text)
    .sort();

/** A tree without non-doc comments and positions: what the checker and the contract can see. */
const docOnly = (file: IdlFile) =>
  JSON.parse(JSON.stringify(stripSpans(file), (key, value: unknown) => (key === 'comments' ? undefined : value))) as IdlFile;

/**
 * The formatter's promises for one input: printing again changes nothing, every comment is kept
 * exactly as often, the tree (doc and other comments included) and the contract are unchanged.
 */
function expectFormattingKeepsEverything(input: string): string {
  const parsed = parseIdl(input, 'in.idl');
  const formatted = printIdl(parsed);
  const reparsed = parseIdl(formatted, 'in.idl');
  expect(printIdl(reparsed)).toBe(formatted);
  expect(commentTexts(formatted)).toEqual(commentTexts(input));
  expect(droppedComments(input, formatted)).toEqual([]);
  expect(stripSpans(reparsed)).toEqual(stripSpans(parsed));
  const before = checkIdl(parsed);
  const after = checkIdl(reparsed);
  expect(after.diagnostics).toEqual(before.diagnostics.map((d) => ({ ...d, line: expect.any(Number), column: expect.any(Number) })));
  if (before.model) {
    expect(toIdlJson(after.model!)).toEqual(toIdlJson(before.model));
    expect(idlChecksum(after.model!)).toBe(idlChecksum(before.model));
  }
  return formatted;
}

describe('printIdl keeps every comment', () => {
  test('a comment in every position: each keeps its place, in canonical layout', () => {
    expect(printIdl(parseIdl(COMMENTED, 'c.idl'))).toBe(COMMENTED_FORMATTED);
    expect(expectFormattingKeepsEverything(COMMENTED)).toBe(COMMENTED_FORMATTED);
    expect(commentTexts(COMMENTED)).toHaveLength(37);
  });

  test('CRLF input formats exactly like LF input', () => {
    const crlf = COMMENTED.replace(/\n/g, '\r\n');
    expect(printIdl(parseIdl(crlf, 'c.idl'))).toBe(COMMENTED_FORMATTED);
    expect(expectFormattingKeepsEverything(crlf)).toBe(COMMENTED_FORMATTED);
  });

  test('doc comments stay doc comments, and no other comment becomes one', () => {
    const parsed = parseIdl(COMMENTED, 'c.idl');
    const reparsed = parseIdl(COMMENTED_FORMATTED, 'c.idl');
    const model = compileIdl(COMMENTED_FORMATTED, 'c.idl');
    const docs = (file: IdlFile) => {
      const found: string[] = [];
      JSON.stringify(file, (key, value: unknown) => {
        if (key === 'comment' && typeof value === 'string') found.push(value);
        return key === 'span' || key === 'codeSpan' || key === 'source' ? undefined : value;
      });
      return found;
    };
    const expected = ['The namespace doc.', 'Doc of Size.', 'doc of medium', 'doc of tags', 'doc of 404', 'Doc of get.'];
    expect(docs(parsed).sort()).toEqual(expected.sort());
    expect(docs(reparsed).sort()).toEqual(expected);
    expect(model.namespaceComment).toBe('The namespace doc.');
    expect(model.interfaces[0].methods.map((m) => m.comment)).toEqual(['Doc of get.', undefined, undefined]);
  });

  test('non-doc comments change nothing the checker, the IDL JSON or the checksum see', () => {
    const bare = COMMENTED.split('\n')
      .map((line) => line.replace(/\s*\/\/(?! a comment").*$/, ''))
      .join('\n');
    const withDocs = parseIdl(COMMENTED, 'c.idl');
    const plain = compileIdl(bare, 'c.idl');
    const commented = compileIdl(COMMENTED, 'c.idl');
    // The bare text lost the doc comments too; put them back through the doc-only tree.
    expect(toIdlJson(commented)).toEqual(toIdlJson(checkIdl({ ...docOnly(withDocs), source: '', fileName: 'c.idl' }).model!));
    expect(idlChecksum(commented)).toBe(idlChecksum(plain));
  });

  test('the parser records where each non-doc comment belongs', () => {
    const file = parseIdl(COMMENTED, 'c.idl');
    expect(file.namespace?.comments).toEqual({
      leading: [['File header: not a doc comment.', 'Second header line, no space.'], ['Another detached group.']],
      trailing: 'after namespace',
    });
    const [size, base, item, , shop] = file.declarations;
    expect(size.comments).toEqual({
      leading: [['Between namespace and enum.']],
      header: 'after enum header',
      end: [['end of enum'], ['second end group']],
      trailing: 'after enum close',
    });
    expect(size.kind === 'enum' && size.values.map((v) => v.comments)).toEqual([
      { trailing: 'after small' },
      { leading: [['standalone in enum']] },
      { trailing: 'after x_large' },
    ]);
    expect(base.comments).toEqual({ leading: [['directly after a brace, then a blank line']], trailing: 'after an empty block' });
    expect(item.kind === 'struct' && item.fields[2].comments).toEqual({ leading: [['', 'an empty comment line above']] });
    if (shop.kind !== 'interface') throw new Error('expected the interface');
    expect(shop.methods[1].comments).toEqual({ leading: [['standalone between methods']], end: [['end of the parameters']] });
    expect(shop.methods[1].parameters.map((p) => p.comments)).toEqual([
      { leading: [['after the open paren', 'above item']], trailing: 'after item' },
      { trailing: 'after replace' },
    ]);
    expect(shop.comments).toEqual({ header: 'interface header', end: [['end of interface']] });
    expect(file.comments).toEqual({ end: [['end of file 1'], ['end of file 2']] });
  });

  test('checkout.idl is already canonical and formats to itself', () => {
    expect(expectFormattingKeepsEverything(CHECKOUT)).toBe(CHECKOUT);
  });

  test('a file of comments only, and an empty file', () => {
    expect(expectFormattingKeepsEverything('// just\n\n\n//  a note  \n')).toBe('// just\n\n//  a note\n');
    expect(expectFormattingKeepsEverything('')).toBe('');
  });

  test('droppedComments finds what an output lacks, counting repeats, ignoring // in messages', () => {
    const input = 'namespace a // x\nerrors {\n  1 E "no // comment" // x\n}\n// y\n';
    expect(sourceComments(input)).toEqual([
      { text: 'x', line: 1, column: 13 },
      { text: 'x', line: 3, column: 23 },
      { text: 'y', line: 5, column: 1 },
    ]);
    expect(droppedComments(input, 'namespace a // x\n// y\n')).toEqual([{ text: 'x', line: 3, column: 23 }]);
    expect(droppedComments(input, printIdl(parseIdl(input, 'a.idl')))).toEqual([]);
  });
});

/** A comment text: any characters a line can hold, including quotes, slashes and Unicode. */
const commentText = fc.string({ unit: fc.constantFrom(...'ab Z/"\\{}()é€😀-\t'), maxLength: 10 });

/**
 * Adds comments to canonical IDL text at random places. With `nonDocOnly`, every added comment is
 * one that cannot be a doc comment (trailing, in a parameter list, or followed by a blank line, and
 * never inside an existing doc comment), so the tree's doc comments stay as they were.
 */
function addComments(g: fc.GeneratorValue, text: string, nonDocOnly: boolean): string {
  const comment = () => `// ${g(() => commentText)}`;
  const maybe = (percent: number) => g(() => fc.integer({ min: 1, max: 100 })) <= percent;
  const isCommentLine = (line: string | undefined) => line?.trimStart().startsWith('//') === true;
  const out: string[] = [];
  const group = (indent: string) => {
    const count = g(() => fc.integer({ min: 1, max: 2 }));
    for (let i = 0; i < count; i++) out.push(indent + comment());
    if (nonDocOnly || maybe(50)) out.push('');
  };
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (maybe(25) && (!nonDocOnly || !isCommentLine(out[out.length - 1]))) group('  ');
    const method = /^( +)([A-Za-z][A-Za-z0-9_]*)\(([^)]*)\)(.*)$/.exec(line);
    if (method && maybe(50)) {
      const [, indent, name, parameters, rest] = method;
      out.push(`${indent}${name}(` + (maybe(30) ? ` ${comment()}` : ''));
      const list = parameters === '' ? [] : parameters.split(', ');
      list.forEach((parameter, i) => {
        if (maybe(30)) out.push(`\t${comment()}`);
        if (maybe(20)) out.push('');
        const comma = i < list.length - 1 ? ',' : '';
        out.push(`  ${parameter}${comma}` + (maybe(40) ? ` ${comment()}` : ''));
      });
      if (maybe(30)) out.push(`  ${comment()}`);
      out.push(`${indent})${rest}` + (maybe(30) ? ` ${comment()}` : ''));
      continue;
    }
    out.push(line !== '' && !isCommentLine(line) && maybe(30) ? `${line} ${comment()}` : line);
  }
  if (maybe(30) && (!nonDocOnly || !isCommentLine(out[out.length - 1]))) group('');
  return out.join('\n') + '\n';
}

// endOnFailure: shrinking a counterexample this large exhausts memory; the first one is reported.
describe('printIdl keeps every comment (property)', () => {
  const base = (g: fc.GeneratorValue) => (g(() => fc.boolean()) ? CHECKOUT : printIdl(randomIdlFile(g)));

  test('random comments anywhere: idempotent, every comment kept once, same tree and contract', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const input = addComments(g, base(g), false);
        const formatted = expectFormattingKeepsEverything(input);
        expect(printIdl(parseIdl(input.replace(/\n/g, '\r\n'), 'in.idl'))).toBe(formatted);
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });

  test('comments that are not doc comments leave the doc comments and the contract as they were', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const original = base(g);
        const input = addComments(g, original, true);
        const parsed = parseIdl(input, 'in.idl');
        expect(docOnly(parsed)).toEqual(docOnly(parseIdl(original, 'in.idl')));
        const formatted = expectFormattingKeepsEverything(input);
        expect(docOnly(parseIdl(formatted, 'in.idl'))).toEqual(docOnly(parseIdl(original, 'in.idl')));
        const model = checkIdl(parsed).model!;
        const originalModel = checkIdl(parseIdl(original, 'in.idl')).model!;
        expect(toIdlJson(model)).toEqual(toIdlJson(originalModel));
        expect(idlChecksum(model)).toBe(idlChecksum(originalModel));
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });
});

import { describe, expect, test } from 'vitest';
import {
  checkIdl,
  codeFrame,
  compileIdl,
  formatDiagnostic,
  parseIdl,
  printIdl,
  quoteMessage,
  syntheticName,
  syntheticSpan,
  type IdlFile,
} from '../../src/index.js';

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
        errors: [
          { code: 404, codeSpan: span, name: name('NotFound'), message: 'say "hi" \\ there\nnext line', span },
        ],
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
          { name: name('ping'), parameters: [], returnType: { kind: 'builtIn', name: 'bool', span }, returnOptional: false, raises: [], span },
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
        { kind: 'enum', name: name('Size'), span, values: [{ name: name('x-large'), span }, { name: name('string'), span }] },
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
    expect(once).toBe('namespace a\n\nenum E {\n    x\n    // doc\n    y\n}\n');
    expect(printIdl(parseIdl(once, 'a.idl'))).toBe(once);
  });
});

describe('code frames', () => {
  const source = 'line one\n\tindented x\nline three\nline four\n';

  test('tabs before the caret are kept so it lines up in a terminal', () => {
    expect(codeFrame(source, 2, 11, 1)).toBe(
      ['  1 | line one', '> 2 | \tindented x', '    | \t         ^', '  3 | line three'].join('\n'),
    );
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
});

import { describe, expect, test } from 'vitest';
import { compileIdl, parseIdl, toIdlJson, type IdlFile } from '../../src/index.js';
import { stripSpans } from './strip-spans.js';

const CHECKOUTISH = [
  '// The shop.',
  'namespace shop',
  '',
  '// Colours.',
  'enum Colour {',
  '    // The first one.',
  '    red',
  '    green',
  '}',
  '',
  'struct Item {',
  '    id     string',
  '    tags   []string  [optional]',
  '}',
  '',
  'errors {',
  '    1 Gone "it is gone"',
  '}',
  '',
  'interface Shop {',
  '    // Looks one up.',
  '    get(id string) Item [optional] raises(Gone)',
  '}',
  '',
].join('\n');

describe('doc comments', () => {
  test('comment lines directly above an item are its doc comment', () => {
    const file = parseIdl(
      [
        '// Line one.',
        '//   indented',
        '//',
        '// Line four.',
        'namespace shop',
        'struct A {',
        '    // About x.',
        '    x int',
        '}',
        '',
      ].join('\n'),
      'a.idl',
    );
    expect(file.namespace?.comment).toBe('Line one.\n  indented\n\nLine four.');
    const struct = file.declarations[0];
    expect(struct.comment).toBeUndefined();
    expect(struct.kind === 'struct' && struct.fields[0].comment).toBe('About x.');
  });

  test('a blank line detaches a comment; trailing and end-of-block comments are no doc comments', () => {
    const file = parseIdl(
      [
        '// File header, not a doc comment.',
        '',
        'namespace shop // trailing',
        '',
        '// Detached.',
        '',
        '// Doc of E.',
        'enum E { // trailing after brace',
        '    a // trailing after value',
        '    // end of block',
        '}',
        '// end of file',
      ].join('\n'),
      'a.idl',
    );
    expect(file.namespace?.comment).toBeUndefined();
    const e = file.declarations[0];
    expect(e.kind === 'enum' && e.comment).toBe('Doc of E.');
    expect(e.kind === 'enum' && e.values[0].comment).toBeUndefined();
    expect(file.detachedComments?.map((c) => [c.text, c.span.start.line])).toEqual([
      ['File header, not a doc comment.', 1],
      ['Detached.', 5],
      ['end of block', 10],
      ['end of file', 12],
    ]);
  });

  test('every kind of item takes a doc comment', () => {
    const model = compileIdl(
      [
        '// ns',
        'namespace shop',
        '// enum',
        'enum E {',
        '    // value',
        '    a',
        '}',
        '// struct',
        'struct S {',
        '    // field',
        '    f E',
        '}',
        '// block',
        'errors {',
        '    // error',
        '    1 X "x"',
        '}',
        '// interface',
        'interface I {',
        '    // method',
        '    m() S',
        '}',
      ].join('\n'),
      'a.idl',
    );
    const errorsBlock = model.file.declarations[2];
    expect([
      model.namespaceComment,
      model.enums[0].comment,
      model.enums[0].values[0].comment,
      model.structs[0].comment,
      model.structs[0].fields[0].comment,
      errorsBlock.kind === 'errors' ? errorsBlock.comment : '',
      model.errors[0].comment,
      model.interfaces[0].comment,
      model.interfaces[0].methods[0].comment,
    ]).toEqual(['ns', 'enum', 'value', 'struct', 'field', 'block', 'error', 'interface', 'method']);
  });
});

describe('line endings, byte order mark, Unicode', () => {
  test('CRLF line endings give the same tree as LF', () => {
    const lf = parseIdl(CHECKOUTISH, 'a.idl');
    const crlf = parseIdl(CHECKOUTISH.replace(/\n/g, '\r\n'), 'a.idl');
    expect(stripSpans(crlf)).toEqual(stripSpans(lf));
    const item = crlf.declarations[1];
    expect(item.kind === 'struct' && item.fields[1].name.span.start).toMatchObject({ line: 13, column: 5 });
  });

  test('a file without a trailing newline parses, even ending in a comment', () => {
    const model = compileIdl('namespace shop\nenum E {\n    a\n}', 'a.idl');
    expect(model.enums[0].values.map((v) => v.name.text)).toEqual(['a']);
    expect(compileIdl('namespace shop\nenum E {\n    a\n}\n// done', 'a.idl').enums).toHaveLength(1);
    expect(compileIdl('namespace shop', 'a.idl').namespace).toBe('shop');
  });

  test('a byte order mark is ignored and positions start after it', () => {
    const file = parseIdl(`\uFEFF${CHECKOUTISH}`, 'a.idl');
    expect(stripSpans(file)).toEqual(stripSpans(parseIdl(CHECKOUTISH, 'a.idl')));
    expect(file.namespace?.name.span.start).toEqual({ offset: 23, line: 2, column: 11 });
  });

  test('Unicode in comments and messages is kept, and columns count UTF-16 units', () => {
    const source = [
      '// Größen und Preise: 価格 😀',
      'namespace shop',
      'errors {',
      '    // Ärger 🚫',
      '    1 Gone "weg: 😀 «fini» \\"quoted\\" back\\\\slash"',
      '}',
      '',
    ].join('\n');
    const json = toIdlJson(compileIdl(source, 'a.idl'));
    expect(json.errors?.[0]).toEqual({
      name: 'shop.Gone',
      namespace: 'shop',
      code: 1,
      message: 'weg: 😀 «fini» "quoted" back\\slash',
      comment: 'Ärger 🚫',
    });
    expect(compileIdl(source, 'a.idl').namespaceComment).toBe('Größen und Preise: 価格 😀');
    // "😀" is two UTF-16 units, so `x` after `"😀" ` is at column 14.
    expect(() => parseIdl('namespace shop\nerrors {\n    1 E "😀" x\n}\n', 'a.idl')).toThrow(
      /^a\.idl:3:14: error: expected the end of the line/,
    );
  });

  test('tabs indent as well as spaces', () => {
    const model = compileIdl('namespace shop\nstruct A {\n\tid\tstring\t[optional]\n}\n', 'a.idl');
    expect(model.structs[0].fields[0]).toMatchObject({ optional: true, type: { kind: 'builtIn', name: 'string' } });
  });
});

describe('syntax details', () => {
  test('method signatures are lenient with whitespace inside the parentheses', () => {
    const model = compileIdl(
      'namespace shop\nerrors {\n    1 E "e"\n    2 F "f"\n}\ninterface I {\n    m(  a int ,b  string ) bool [optional] raises( E ,F )\n    n(\n        a int,\n        b int\n    ) int\n}\n',
      'a.idl',
    );
    const [m, n] = model.interfaces[0].methods;
    expect(m.parameters.map((p) => p.name.text)).toEqual(['a', 'b']);
    expect(m.returnOptional).toBe(true);
    expect(m.raises.map((r) => r.text)).toEqual(['E', 'F']);
    expect(n.parameters.map((p) => p.name.text)).toEqual(['a', 'b']);
  });

  test('nested types to any depth', () => {
    const model = compileIdl('namespace shop\nstruct A {\n    x map[string][]map[string][][]int\n    y map[ string ]bool\n}\n', 'a.idl');
    expect(stripSpans(model.structs[0].fields[0].type)).toEqual({
      kind: 'map',
      value: {
        kind: 'array',
        element: { kind: 'map', value: { kind: 'array', element: { kind: 'array', element: { kind: 'builtIn', name: 'int' } } } },
      },
    });
  });

  test('types nested 100 levels deep are fine', () => {
    const model = compileIdl(`namespace shop\nstruct A {\n    a ${'map[string]'.repeat(50)}${'[]'.repeat(50)}int\n}\n`, 'a.idl');
    expect(model.structs[0].fields[0].type.kind).toBe('map');
  });

  test('empty blocks, on one line or two', () => {
    const model = compileIdl('namespace shop\nstruct A {}\nstruct B {\n}\ninterface I { }\nerrors {\n}\n', 'a.idl');
    expect(model.structs.map((s) => s.fields.length)).toEqual([0, 0]);
    expect(model.interfaces[0].methods).toEqual([]);
  });

  test('names that merely start with a reserved word are ordinary names', () => {
    const model = compileIdl(
      'namespace shop\nstruct structure {\n    stringValue string\n    mapping int\n}\nstruct S {\n    s structure\n}\n',
      'a.idl',
    );
    expect(model.structs[1].fields[0].type).toMatchObject({ kind: 'named', name: 'structure' });
  });

  test('spans cover the node and name spans cover the name', () => {
    const file = parseIdl(CHECKOUTISH, 'a.idl');
    const struct = file.declarations[1] as Extract<IdlFile['declarations'][number], { kind: 'struct' }>;
    expect(struct.span.start).toEqual({ offset: 98, line: 11, column: 1 });
    expect(struct.span.end).toMatchObject({ line: 14, column: 2 });
    const tags = struct.fields[1];
    expect(tags.span).toMatchObject({ file: 'a.idl', start: { line: 13, column: 5 }, end: { line: 13, column: 32 } });
    expect(tags.type.span).toMatchObject({ start: { line: 13, column: 12 }, end: { line: 13, column: 20 } });
    const error = (file.declarations[2] as Extract<IdlFile['declarations'][number], { kind: 'errors' }>).errors[0];
    expect(error.codeSpan).toMatchObject({ start: { line: 17, column: 5 }, end: { line: 17, column: 6 } });
    expect(error.name.span).toMatchObject({ start: { line: 17, column: 7 }, end: { line: 17, column: 11 } });
  });
});

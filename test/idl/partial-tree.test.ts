/**
 * `parse`: the tree of a file with syntax errors (what the parser read before and after each error),
 * together with the same diagnostics `parseIdl` throws.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { IdlSyntaxError, parse, parseIdl, printIdl, type Declaration, type IdlFile } from '../../src/index.js';
import { MAX_SYNTAX_ERRORS } from '../../src/idl/parser.js';
import { randomIdlFile } from './random-idl.js';
import { ns, syntaxCases } from './syntax-cases.js';
import { stripSpans } from './strip-spans.js';

/** Each declaration as `kind name extends? { items }`, items by name. */
function outline(file: IdlFile): string[] {
  return file.declarations.map((d: Declaration) => {
    if (d.kind === 'errors') return `errors { ${d.errors.map((e) => `${e.code} ${e.name.text}`).join(' ')} }`;
    if (d.kind === 'union') return `union ${d.name.text} { ${d.variants.map((v) => v.tag.text).join(' ')} }`;
    const items = d.kind === 'enum' ? d.values : d.kind === 'struct' ? d.fields : d.methods;
    const parent = d.kind === 'struct' && d.extends ? ` extends ${d.extends.text}` : '';
    return `${d.kind} ${d.name.text}${parent} { ${items.map((item) => item.name.text).join(' ')} }`;
  });
}

/** The span of a declaration as `line:column-line:column`. */
const extent = (d: Declaration) => `${d.span.start.line}:${d.span.start.column}-${d.span.end.line}:${d.span.end.column}`;

describe('parse on a valid file', () => {
  test('gives the tree parseIdl gives, and no diagnostics', () => {
    const source = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');
    const parsed = parse(source, 'checkout.idl');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.file).toEqual(parseIdl(source, 'checkout.idl'));
  });
});

describe('parse on a file with syntax errors', () => {
  test('gives the diagnostics parseIdl throws, for every syntax case', () => {
    for (const { source } of syntaxCases) {
      let thrown: IdlSyntaxError | undefined;
      try {
        parseIdl(source, 'broken.idl');
      } catch (error) {
        thrown = error as IdlSyntaxError;
      }
      expect(thrown).toBeInstanceOf(IdlSyntaxError);
      expect(parse(source, 'broken.idl').diagnostics).toEqual(thrown!.diagnostics);
    }
  });

  test('keeps every declaration read whole, and of a broken one its header and the items around the error', () => {
    const source = ns(
      [
        'struct Cart {', //                          2
        '    id', //                                 3: no type; parsing resumes on line 4
        '    total float', //                        4
        '}', //                                      5
        'enum Status {', //                          6
        '    open', //                               7
        '}', //                                      8
        'errors {', //                               9
        '    Missing 1001 "not there"', //           10: name where the code belongs
        '    1002 Gone "gone"', //                   11
        '}', //                                      12
        'interface CartService {', //                13
        '    get(id string) Cart', //                14
        '    add(cart Cart line Line) Cart', //      15: missing comma
        '    clear(id string) bool', //              16
        '}', //                                      17
        'struct Empty extend Cart {', //             18: misspelled extends; its block is skipped
        '    skipped int', //                        19
        '}', //                                      20
        'struct Open {', //                          21
        '    kept int', //                           22
        'struct Last extends Cart {', //             23: Open's '}' is missing
        '    x int', //                              24
        '}', //                                      25
        '',
      ].join('\n'),
    );
    const { file, diagnostics } = parse(source, 'shop.idl');
    expect(diagnostics.map((d) => `${d.line}:${d.column}`)).toEqual(['3:7', '10:5', '15:19', '18:14', '23:1']);
    expect(file.namespace?.name.text).toBe('shop');
    expect(file.source).toBe(source);
    expect(outline(file)).toEqual([
      'struct Cart { total }',
      'enum Status { open }',
      'errors { 1002 Gone }',
      'interface CartService { get clear }',
      'struct Empty {  }',
      'struct Open { kept }',
      'struct Last extends Cart { x }',
    ]);
    // A block closed after resuming in it ends at its '}'; one given up on, where its reading ended.
    expect(file.declarations.map(extent)).toEqual(['2:1-5:2', '6:1-8:2', '9:1-12:2', '13:1-17:2', '18:1-18:13', '21:1-22:13', '23:1-25:2']);
  });

  test('a broken declaration keeps its doc comment', () => {
    const { file } = parse(ns('// The cart.\n// Two lines.\nstruct Cart {\n    id\n}\n'), 'shop.idl');
    expect(file.declarations[0]).toMatchObject({ kind: 'struct', name: { text: 'Cart' }, comment: 'The cart.\nTwo lines.' });
  });

  test('a line with a type nested too deep is left out; the rest of its block is kept', () => {
    const deep = `${'[]'.repeat(200)}int`;
    const source = ns(`struct A {\n    a ${deep}\n    b int\n    c\n}\n`);
    const { file, diagnostics } = parse(source, 'shop.idl');
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      '3:7 this type is nested more than 100 levels deep',
      '5:6 expected a type such as string, int, float, bool, []T, map[string]T or a struct or enum name',
    ]);
    expect(file.source).toBe(source);
    expect(outline(file)).toEqual(['struct A { b }']);
  });

  test(`the tree ends where parsing stops, at the ${MAX_SYNTAX_ERRORS}th error`, () => {
    const broken = Array.from({ length: MAX_SYNTAX_ERRORS + 10 }, (_, k) => `struct S${k} {\n    x\n}\n`).join('');
    const { file, diagnostics } = parse(ns(broken), 'shop.idl');
    expect(diagnostics).toHaveLength(MAX_SYNTAX_ERRORS);
    expect(file.declarations.map((d) => d.kind !== 'errors' && d.name.text)).toEqual(
      Array.from({ length: MAX_SYNTAX_ERRORS }, (_, k) => `S${k}`),
    );
  });
});

describe('property: one garbled item line', () => {
  /** The names of a declaration's items. */
  const itemNames = (d: Declaration) =>
    (d.kind === 'enum'
      ? d.values
      : d.kind === 'struct'
        ? d.fields
        : d.kind === 'errors'
          ? d.errors
          : d.kind === 'union'
            ? []
            : d.methods
    ).map((item) => item.name.text);

  test('every other declaration is in the tree as parsed from the valid file; the broken one keeps its other items', () => {
    fc.assert(
      fc.property(fc.gen(), fc.nat(), (g, pick) => {
        const valid = printIdl(randomIdlFile(g));
        const whole = parseIdl(valid, 'random.idl');
        const items = whole.declarations.flatMap((declaration, index) =>
          (declaration.kind === 'enum'
            ? declaration.values
            : declaration.kind === 'struct'
              ? declaration.fields
              : declaration.kind === 'errors'
                ? declaration.errors
                : declaration.kind === 'union'
                  ? []
                  : declaration.methods
          ).map((item, position) => ({ index, position, line: item.span.start.line })),
        );
        if (items.length === 0) return;
        const garbled = items[pick % items.length];
        const lines = valid.split('\n');
        lines[garbled.line - 1] = '    %%%';

        const { file, diagnostics } = parse(lines.join('\n'), 'random.idl');
        expect(diagnostics).toHaveLength(1);
        expect(file.declarations).toHaveLength(whole.declarations.length);
        whole.declarations.forEach((declaration, i) => {
          if (i !== garbled.index) {
            expect(stripSpans(file.declarations[i])).toEqual(stripSpans(declaration));
            return;
          }
          const names = itemNames(declaration);
          // A garbled line in an interface might have been part of a method spread over several
          // lines: parsing resumes at the next declaration. Elsewhere it resumes on the next line.
          const expected =
            declaration.kind === 'interface' ? names.slice(0, garbled.position) : names.filter((_, k) => k !== garbled.position);
          expect(itemNames(file.declarations[i])).toEqual(expected);
          expect(file.declarations[i].kind).toBe(declaration.kind);
          expect(file.declarations[i].comment).toBe(declaration.comment);
        });
      }),
      { numRuns: 300 },
    );
  });
});

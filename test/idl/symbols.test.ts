/**
 * The resolve pass and the symbol table's queries, on files with errors above all: the tree of a
 * file with a syntax error and an unknown type still resolves, and every reference of a struct is
 * found.
 */
import { describe, expect, test } from 'vitest';
import {
  check,
  parse,
  referenceAt,
  referencesOf,
  resolve,
  symbolAt,
  type IdlSymbol,
  type SourceSpan,
  type SymbolReference,
  type SymbolTable,
} from '../../src/index.js';
import { ns } from './syntax-cases.js';

/** A cart service with one syntax error (line 17: a field without a type) and one unknown type (line 7). */
const brokenCartService = ns(
  [
    'struct Line {', //                                   2
    '    sku string', //                                  3
    '    cart Cart [optional]', //                        4
    '}', //                                               5
    'struct Cart {', //                                   6
    '    owner Usr', //                                   7: unknown type
    '    lines []Line', //                                8
    '    previous map[string][]Cart [optional]', //       9
    '}', //                                               10
    'errors {', //                                        11
    '    1001 CartNotFound "no such cart"', //            12
    '}', //                                               13
    '// A cart given away.', //                           14
    'struct GiftCart extends Cart {', //                  15
    '    note string', //                                 16
    '    sender', //                                      17: syntax error, no type
    '    original Cart [optional]', //                    18
    '}', //                                               19
    'interface Carts {', //                               20
    '    get(id string) Cart raises(CartNotFound)', //    21
    '    merge(a Cart, b Cart) Cart', //                  22
    '}', //                                               23
    '',
  ].join('\n'),
);

/** `line:column` of a span's start. */
const at = (span: SourceSpan) => `${span.start.line}:${span.start.column}`;
const describeReference = (r: SymbolReference) => `${at(r.span)} ${r.kind} from ${r.from.kind} ${r.from.name}`;

/** The offset of the `n`th (0-based) whole-word occurrence of `word` in `text`. */
function offsetOf(text: string, word: string, n = 0): number {
  const matches = [...text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))];
  return matches[n].index!;
}

describe('a file with a syntax error and an unknown type', () => {
  const parsed = parse(brokenCartService, 'carts.idl');
  const symbols = resolve(parsed.file);
  const cart = symbols.types.get('Cart')!;

  test('parse returns the syntax error and a tree of every declaration', () => {
    expect(parsed.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      '17:11 expected a type such as string, int, float, bool, []T, map[string]T or a struct or enum name',
    ]);
    const summary = parsed.file.declarations.map((d) =>
      d.kind === 'errors' ? `errors ${d.errors.map((e) => e.name.text)}` : `${d.kind} ${d.name.text}`,
    );
    expect(summary).toEqual(['struct Line', 'struct Cart', 'errors CartNotFound', 'struct GiftCart', 'interface Carts']);
    const giftCart = parsed.file.declarations[3];
    expect(giftCart).toMatchObject({ kind: 'struct', extends: { text: 'Cart' }, comment: 'A cart given away.' });
    expect(giftCart.kind === 'struct' && giftCart.fields.map((f) => f.name.text)).toEqual(['note', 'original']);
  });

  test('every reference of the struct Cart is found, on both sides of the syntax error', () => {
    expect(cart).toMatchObject({ kind: 'struct', name: 'Cart' });
    expect(at(cart.nameSpan)).toBe('6:8');
    expect(referencesOf(symbols, cart).map(describeReference)).toEqual([
      '4:10 type from field cart',
      '9:27 type from field previous',
      '15:25 extends from struct GiftCart',
      '18:14 type from field original',
      '21:20 type from method get',
      '22:13 type from parameter a',
      '22:21 type from parameter b',
      '22:27 type from method merge',
    ]);
    // Every `Cart` written in the file but its declaration, and nothing else.
    const written = [...brokenCartService.matchAll(/\bCart\b/g)]
      .map((m) => m.index!)
      .filter((offset) => offset !== cart.nameSpan.start.offset);
    expect(referencesOf(symbols, cart).map((r) => r.span.start.offset)).toEqual(written);
    for (const reference of referencesOf(symbols, cart)) {
      expect(brokenCartService.slice(reference.span.start.offset, reference.span.end.offset)).toBe('Cart');
    }
  });

  test('the unknown type is a reference that resolves to nothing, and the checker reports it', () => {
    const usr = referenceAt(symbols, offsetOf(brokenCartService, 'Usr'));
    expect(usr).toMatchObject({ kind: 'type', name: 'Usr', from: { kind: 'field', name: 'owner' } });
    expect(usr!.symbol).toBeUndefined();
    expect(symbols.references.filter((r) => !r.symbol).map((r) => r.name)).toEqual(['Usr']);
    expect(check(parsed.file, symbols).diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      "7:11 unknown-type unknown type 'Usr'",
    ]);
  });

  test('symbolAt finds the declaration from a reference and from its own name; its nameSpan is the definition', () => {
    const fromReference = symbolAt(symbols, offsetOf(brokenCartService, 'Cart', 4));
    expect(fromReference).toBe(cart);
    expect(symbolAt(symbols, cart.nameSpan.start.offset)).toBe(cart);
    // Right after a name still counts as on it (where an editor's cursor is after typing it).
    expect(symbolAt(symbols, cart.nameSpan.end.offset)).toBe(cart);
    const raised = symbolAt(symbols, offsetOf(brokenCartService, 'CartNotFound', 1));
    expect(raised).toMatchObject({ kind: 'error', name: 'CartNotFound' });
    expect(at(raised!.nameSpan)).toBe('12:10');
    const parameter = symbolAt(symbols, offsetOf(brokenCartService, 'b'));
    expect(parameter).toMatchObject({ kind: 'parameter', name: 'b', container: { kind: 'method', name: 'merge' } });
  });

  test('between names there is no symbol and no reference', () => {
    const openingBrace = brokenCartService.indexOf('{');
    expect(symbolAt(symbols, openingBrace + 1)).toBeUndefined();
    expect(referenceAt(symbols, openingBrace + 1)).toBeUndefined();
    expect(referenceAt(symbols, cart.nameSpan.start.offset)).toBeUndefined();
  });
});

describe('resolve', () => {
  const resolved = (body: string): SymbolTable => {
    const { file, diagnostics } = parse(ns(body), 'a.idl');
    expect(diagnostics).toEqual([]);
    return resolve(file);
  };
  const kinds = (symbols: SymbolTable) =>
    symbols.declarations.map((s: IdlSymbol) => `${s.kind} ${s.container ? `${s.container.name}.` : ''}${s.name}`);

  test('every declaration, members included, in source order, each with its container', () => {
    const symbols = resolved(
      'enum E {\n    a\n}\nstruct S {\n    f E\n}\nerrors {\n    1 Gone "gone"\n}\ninterface I {\n    m(p S) E raises(Gone)\n}\n',
    );
    expect(kinds(symbols)).toEqual([
      'namespace shop',
      'enum E',
      'enum-value E.a',
      'struct S',
      'field S.f',
      'error Gone',
      'interface I',
      'method I.m',
      'parameter m.p',
    ]);
    expect(symbols.references.map((r) => `${r.kind} ${r.name} -> ${r.symbol?.kind}`)).toEqual([
      'type E -> enum',
      'type S -> struct',
      'type E -> enum',
      'raises Gone -> error',
    ]);
  });

  test('types, interfaces and errors: a name resolves in its own space, whatever the kind found there', () => {
    const symbols = resolved(
      'struct A {\n    i I\n    g Gone\n}\nerrors {\n    1 Gone "gone"\n}\ninterface I {\n    m() A raises(A, Gone)\n}\n',
    );
    expect(symbols.references.map((r) => `${r.kind} ${r.name} -> ${r.symbol?.kind ?? 'nothing'}`)).toEqual([
      'type I -> interface',
      'type Gone -> nothing',
      'type A -> struct',
      'raises A -> nothing',
      'raises Gone -> error',
    ]);
  });

  test('a name declared twice resolves to its first declaration; both are declarations', () => {
    const symbols = resolved('struct A {\n}\nenum A {\n    x\n}\nstruct B {\n    a A\n}\n');
    const [first, second] = symbols.declarations.filter((s) => s.name === 'A');
    expect([first.kind, second.kind]).toEqual(['struct', 'enum']);
    expect(symbols.types.get('A')).toBe(first);
    expect(referencesOf(symbols, first)).toHaveLength(1);
    expect(referencesOf(symbols, second)).toEqual([]);
  });
});

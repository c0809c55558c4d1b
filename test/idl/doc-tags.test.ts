import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { compileIdl, idlChecksum, parseIdl, printIdl, toIdlJson, tryCompileIdl } from '../../src/index.js';
import { interfaceFingerprints } from '../../runtime/contract-fingerprint.js';
import { docCommentParts, docTags } from '../../src/idl/doc-tags.js';
import { memoryHost } from './memory-host.js';

const TAGGED = `namespace shop

// A product.
// @deprecated use Item
// @example {"id": "p1", "price": 3, "tags": ["a"]}
struct Product {
    id     string
    // The price in cents.
    // @example 250
    price  int
    // @deprecated no longer filled
    tags   []string  [optional]
}

// @example "small"
enum Size {
    small
    // @deprecated sizes are numbers now
    large
}

interface Shop {
    // Finds a product.
    // @readonly
    // @example {"id": "p1", "price": 3}
    find(id string) Product [optional]
    // @deprecated call find
    get(id string) Product
}
`;

/** The same contract without any tag line. */
const UNTAGGED = TAGGED.split('\n')
  .filter((line) => !/^\s*\/\/ @/.test(line))
  .join('\n');

describe('doc comment parts', () => {
  test('tag lines leave the description; other @ text stays', () => {
    const parts = docCommentParts('Finds it.\n@readonly\nMail me@example.com\n@deprecated  use x \n@see other');
    expect(parts.description).toBe('Finds it.\nMail me@example.com\n@see other');
    expect(parts.tags.map((t) => [t.name, t.argument, t.line, t.column])).toEqual([
      ['readonly', '', 1, 0],
      ['deprecated', 'use x', 3, 0],
    ]);
    expect(parts.unknown).toEqual([{ word: 'see', line: 4, column: 0 }]);
  });

  test('a comment of tags only has no description; @deprecatedly is no tag', () => {
    expect(docCommentParts('@deprecated\n@example [1]').description).toBeUndefined();
    expect(docTags('@deprecated\n@example [1]\n@example 2')).toEqual({ deprecated: '', examples: [[1], 2] });
    expect(docCommentParts('@deprecatedly').unknown).toEqual([{ word: 'deprecatedly', line: 0, column: 0 }]);
  });
});

describe('JSON form', () => {
  test('tags are members of their own, out of the description', () => {
    const json = toIdlJson(compileIdl(TAGGED, 'shop.idl'));
    expect(json.structs![0]).toMatchObject({
      name: 'Product',
      comment: 'A product.',
      deprecated: 'use Item',
      examples: [{ id: 'p1', price: 3, tags: ['a'] }],
    });
    expect(json.structs![0].fields![1]).toEqual({
      name: 'price',
      type: { builtIn: 'int' },
      comment: 'The price in cents.',
      examples: [250],
    });
    expect(json.structs![0].fields![2]).toEqual({
      name: 'tags',
      type: { array: { builtIn: 'string' } },
      optional: true,
      deprecated: 'no longer filled',
    });
    expect(json.enums![0].values![1]).toEqual({ name: 'large', deprecated: 'sizes are numbers now' });
    expect(json.enums![0].examples).toEqual(['small']);
    const [find, get] = json.interfaces![0].methods!;
    expect(find).toMatchObject({ comment: 'Finds a product.', readonly: true, examples: [{ id: 'p1', price: 3 }] });
    expect(get.comment).toBeUndefined();
    expect(get.deprecated).toBe('call find');
  });

  test('tags stay out of the checksum and of the contract fingerprints', () => {
    expect(idlChecksum(compileIdl(TAGGED, 'shop.idl'))).toBe(idlChecksum(compileIdl(UNTAGGED, 'shop.idl')));
    const fingerprints = (text: string) => [...interfaceFingerprints(toIdlJson(compileIdl(text, 'shop.idl')))];
    expect(fingerprints(TAGGED)).toEqual(fingerprints(UNTAGGED));
  });

  test('an IDL without tags gives the same JSON as before tags existed', () => {
    const json = toIdlJson(compileIdl(UNTAGGED, 'shop.idl'));
    const text = JSON.stringify(json);
    expect(text).not.toMatch(/"deprecated"|"readonly"|"examples"/);
    expect(json.structs![0].comment).toBe('A product.');
  });

  test('the checkout IDL changes only by its @readonly tags: readonly on those four methods, nothing without them', () => {
    const source = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');
    const json = toIdlJson(compileIdl(source, 'checkout.idl'));
    const reads = (json.interfaces ?? []).flatMap((iface) =>
      (iface.methods ?? []).filter((m) => m.readonly).map((m) => `${iface.name}.${m.name}`),
    );
    expect(reads).toEqual(['CatalogService.listProducts', 'CatalogService.getProduct', 'CartService.getCart', 'OrderService.getOrder']);
    expect(JSON.stringify(json)).not.toMatch(/"deprecated"|"examples"/);
    const untagged = source.replace(/^\s*\/\/ @readonly\n/gm, '');
    expect(untagged).not.toContain('@readonly');
    expect(JSON.stringify(toIdlJson(compileIdl(untagged, 'checkout.idl')))).not.toMatch(/"deprecated"|"readonly"|"examples"/);
  });
});

describe('the checker', () => {
  const errorsOf = (text: string) =>
    tryCompileIdl(text, 'shop.idl').diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`);

  test('accepts well-typed examples', () => {
    expect(errorsOf(TAGGED)).toEqual([]);
  });

  test('accepts examples of the built-in types in their wire forms', () => {
    const fields = [
      ['"2026-01-31t12:00:00.5+02:00"', 'timestamp'],
      ['"2024-02-29"', 'date'],
      ['"aGk="', 'bytes'],
      ['{"any": [1, null]}', 'json'],
      ['null', 'json'],
    ];
    const body = fields.map(([example, type], i) => `    // @example ${example}\n    f${i}  ${type}`).join('\n');
    expect(errorsOf(`namespace shop\n\nstruct Event {\n${body}\n}\n`)).toEqual([]);
  });

  test.each([
    [
      'struct Point {\n    // @example 1.5\n    x  int\n}',
      '4:17 error invalid-example: @example is not a value of this field: at $: expected an integer, found the number 1.5',
    ],
    [
      '// @example {"x": 1}\nstruct Point {\n    x  int\n    y  int\n}',
      "3:13 error invalid-example: @example is not a value of this struct: at $.y: the required field 'y' of struct 'Point' is missing",
    ],
    [
      '// @example {"x": 1, "z": 2}\nstruct Point {\n    x  int\n}',
      "3:13 error invalid-example: @example is not a value of this struct: at $.z: struct 'Point' has no field 'z'",
    ],
    [
      'struct Point {\n    // @example 9007199254740993\n    x  int\n}',
      '4:17 error invalid-example: @example is not a value of this field: at $: 9007199254740992 is out of the range of int (±9007199254740991)',
    ],
    [
      'struct Point {\n    // @example {"a": [1, "b"]}\n    x  map[string][]int\n}',
      '4:17 error invalid-example: @example is not a value of this field: at $.a[1]: expected an integer, found the string "b"',
    ],
    [
      'struct Event {\n    // @example "2026-02-30T00:00:00Z"\n    at  timestamp\n}',
      '4:17 error invalid-example: @example is not a value of this field: at $: expected a timestamp: an RFC 3339 date-time with an offset, such as 2026-01-31T12:00:00Z, found the string "2026-02-30T00:00:00Z"',
    ],
    [
      'struct Event {\n    // @example "2026-02-30"\n    day  date\n}',
      '4:17 error invalid-example: @example is not a value of this field: at $: expected a date that exists, written YYYY-MM-DD, found the string "2026-02-30"',
    ],
    [
      'struct Event {\n    // @example "aGk"\n    data  bytes\n}',
      '4:17 error invalid-example: @example is not a value of this field: at $: expected bytes: standard base64 with padding (RFC 4648, not base64url), found the string "aGk"',
    ],
    [
      '// @example "medium"\nenum Size {\n    small\n}',
      '3:13 error invalid-example: @example is not a value of this enum: at $: expected one of the values of enum \'Size\' ("small"), found the string "medium"',
    ],
    [
      'struct Point {\n    // @example {"x": 1,}\n    x  int\n}',
      expect.stringMatching(/^4:25 error invalid-example: @example is not valid JSON/),
    ],
    ['struct Point {\n    // @example\n    x  int\n}', '4:8 error invalid-example: @example is empty: write one JSON value after @example'],
    [
      'interface Api {\n    // @example true\n    ping() string\n}',
      "4:17 error invalid-example: @example is not a value of the method's result: at $: expected a string, found the value true",
    ],
    [
      'struct Point {\n    // @readonly\n    x  int\n}',
      '4:8 error misplaced-doc-tag: @readonly does not apply to a field: it goes on methods',
    ],
    [
      'interface Api {\n    // @readonly\n    // @readonly\n    ping() string\n}',
      '5:8 error duplicate-doc-tag: @readonly is written twice in this doc comment',
    ],
    [
      'interface Api {\n    // @readonly because\n    ping() string\n}',
      '4:18 error malformed-doc-tag: @readonly takes no text: write the explanation on a line of its own',
    ],
  ])('refuses, located: %s', (body, message) => {
    // Line numbers count the namespace line and the blank line after it.
    expect(errorsOf(`namespace shop\n\n${body}\n`)).toEqual([message]);
  });

  test('an optional field and an optional result take null; a struct example sees inherited fields', () => {
    const text =
      'namespace shop\n\nstruct Base {\n    id  string\n}\n\n// @example {"id": "a", "n": null}\nstruct Item extends Base {\n    n  int  [optional]\n}\n\ninterface Api {\n    // @example null\n    find() Item [optional]\n}\n';
    expect(errorsOf(text)).toEqual([]);
    expect(errorsOf(text.replace('"id": "a", ', ''))).toEqual([
      "7:13 error invalid-example: @example is not a value of this struct: at $.id: the required field 'id' of struct 'Item' is missing",
    ]);
  });

  test('an unknown @word is a note, located, and the model is still built', () => {
    const result = tryCompileIdl('namespace shop\n\nstruct Point {\n    //  @see Other\n    x  int\n}\n', 'shop.idl');
    expect(result.model).toBeDefined();
    expect(result.diagnostics).toMatchObject([{ severity: 'note', code: 'unknown-doc-tag', line: 4, column: 9, length: 4 }]);
    expect(toIdlJson(result.model!).structs![0].fields![0].comment).toBe(' @see Other');
  });

  test('a tag in an imported file is located in that file', () => {
    const host = memoryHost({ 'common.idl': 'namespace common\n\nstruct Money {\n    // @example "ten"\n    cents  int\n}\n' });
    const result = tryCompileIdl('namespace shop\n\nimport "common.idl"\n', 'shop.idl', { host });
    expect(result.diagnostics).toMatchObject([{ file: 'common.idl', line: 4, column: 17, code: 'invalid-example' }]);
  });
});

describe('the formatter', () => {
  test('prints tag lines back as written', () => {
    const formatted = printIdl(parseIdl(TAGGED, 'shop.idl'));
    expect(formatted).toContain('    // @readonly\n    // @example {"id": "p1", "price": 3}\n    find(id string) Product [optional]');
    expect(printIdl(parseIdl(formatted, 'shop.idl'))).toBe(formatted);
    expect(toIdlJson(compileIdl(formatted, 'shop.idl'))).toEqual(toIdlJson(compileIdl(TAGGED, 'shop.idl')));
  });
});

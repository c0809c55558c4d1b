/**
 * The checker's judgement of attribute lists and optional parameters (src/idl/checks/attributes.ts):
 * each refusal with its exact location, code and message; well-formed lists pass.
 */
import { describe, expect, test } from 'vitest';
import { checkIdl, parseIdl } from '../../src/idl/index.js';

const HEADER = `namespace shop

enum Color {
    red
    green
}

struct Item {
    id    string
    note  string [optional]
}
`;

/** The errors of HEADER + `body` as "line:column code: message" (HEADER is 11 lines). */
function problems(body: string): string[] {
  return checkIdl(parseIdl(HEADER + body, 'shop.idl'))
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`);
}

/** The diagnostics of one struct field written as `line`, on line 13. */
function fieldProblems(line: string): string[] {
  return problems(`struct Cart {\n    ${line}\n}\n`);
}

describe('attribute lists: well-formed lists pass', () => {
  test('every attribute where it applies, elements of arrays and maps, defaults of every kind', () => {
    expect(
      problems(`
struct Cart {
    quantity  int [min=1, max=99]
    price     float [exclusiveMin=0, exclusiveMax=1e6, multipleOf=0.5, format="double"]
    id        int [format="int64"]
    code      string [minLength=1, maxLength=8, pattern="^\\\\d+$"]
    email     string [optional, format="email"]
    tags      []string [minItems=1, maxItems=10, maxLength=20]
    scores    map[string]int [min=0]
    grid      [][]int [max=9]
    color     Color [optional, default="green"]
    item      Item [optional, default={"id": "a"}]
    items     []Item [optional, default=[{"id": "a", "note": null}]]
    when      timestamp [optional, default="2026-01-31T12:00:00.5+01:00"]
    day       date [optional, default="2024-02-29"]
    blob      bytes [optional, default="aGk="]
    extra     json [optional, default=null]
    size      int [optional, default=30, min=1, max=100, multipleOf=10]
    word      string [optional, default="ab", pattern="b"]
    limited   []int [optional, default=[1, 2], maxItems=2, min=1]
    plain     string [optional]
}

interface Shop {
    list(q string, cursor string [optional], perPage int [optional, default=30, max=100]) []Cart [optional, maxItems=100]
    count() int [min=0]
}
`),
    ).toEqual([]);
  });
});

describe('attribute lists: each refusal, located', () => {
  const cases: [string, string, string[]][] = [
    [
      'an unknown attribute, with a suggestion',
      'qty int [mni=1]',
      ["13:14 unknown-attribute: unknown attribute 'mni'; did you mean 'min'?"],
    ],
    [
      'an unknown attribute without a near name lists those valid there',
      'qty []int [zzzzzz]',
      [
        "13:16 unknown-attribute: unknown attribute 'zzzzzz': the attributes here are optional, default, min, max, exclusiveMin, exclusiveMax, multipleOf, minItems, maxItems, format",
      ],
    ],
    ['a repeated attribute', 'qty int [min=1, min=2]', ["13:21 duplicate-attribute: attribute 'min' is already given in this list"]],
    ['optional with a value', 'qty int [optional=true]', ['13:23 invalid-attribute-value: optional takes no value: write [optional]']],
    ['a constraint without a value', 'qty int [min]', ['13:14 invalid-attribute-value: min takes a value: write min=1']],
    ['a bare word where a number goes', 'qty int [max=ten]', ['13:18 invalid-attribute-value: max takes a number, not ten']],
    ['a quoted text where a number goes', 'qty int [max="10"]', ['13:18 invalid-attribute-value: max takes a number, not "10"']],
    ['multipleOf 0', 'qty int [multipleOf=0]', ['13:25 invalid-attribute-value: multipleOf takes a number greater than 0, not 0']],
    [
      'a negative length',
      'name string [maxLength=-1]',
      ['13:28 invalid-attribute-value: maxLength takes a whole number of 0 or more, not -1'],
    ],
    [
      'a fractional item count',
      'tags []string [minItems=1.5]',
      ['13:29 invalid-attribute-value: minItems takes a whole number of 0 or more, not 1.5'],
    ],
    [
      'a pattern written without quotes',
      'name string [pattern=abc]',
      ['13:26 invalid-attribute-value: pattern takes a quoted text such as "^[a-z]+$", not abc'],
    ],
    [
      'an empty format',
      'name string [format=""]',
      ['13:25 invalid-attribute-value: format takes a name such as "email", not an empty text'],
    ],
    [
      'an invalid pattern',
      'name string [pattern="("]',
      ['13:26 invalid-pattern: pattern is not a valid regular expression (ECMA-262, u flag): Unterminated group'],
    ],
    [
      'a pattern valid only without the u flag',
      'name string [pattern="\\\\-"]',
      ['13:26 invalid-pattern: pattern is not a valid regular expression (ECMA-262, u flag): Invalid escape'],
    ],
    [
      'a number constraint on a string',
      'name string [min=1]',
      ['13:18 attribute-type: min does not apply to a string: it bounds int and float (on an array or map, each element)'],
    ],
    [
      'a string constraint on an int',
      'qty int [maxLength=3]',
      ['13:14 attribute-type: maxLength does not apply to an int: it bounds string (on an array or map, each element)'],
    ],
    [
      'an item count on a map',
      'm map[string]int [maxItems=3]',
      ['13:23 attribute-type: maxItems does not apply to map[string]int: it bounds an array ([]T)'],
    ],
    [
      'a constraint on an enum',
      'c Color [minLength=1]',
      ["13:14 attribute-type: minLength does not apply to 'Color': it bounds string (on an array or map, each element)"],
    ],
    [
      'format on a bool',
      'b bool [format="x"]',
      ['13:13 attribute-type: format does not apply to a bool: it goes on string, int and float (on an array or map, each element)'],
    ],
    [
      'a number constraint on a timestamp',
      't timestamp [min=0]',
      ['13:18 attribute-type: min does not apply to a timestamp: it bounds int and float (on an array or map, each element)'],
    ],
    ['min above max', 'qty int [min=5, max=1]', ['13:14 conflicting-constraints: min=5 is greater than max=1: no value could meet both']],
    [
      'exclusiveMin equal to exclusiveMax',
      'x float [exclusiveMax=1, exclusiveMin=1]',
      ['13:30 conflicting-constraints: exclusiveMin=1 is equal to exclusiveMax=1: no value could meet both'],
    ],
    [
      'minLength above maxLength',
      's string [minLength=3, maxLength=2]',
      ['13:15 conflicting-constraints: minLength=3 is greater than maxLength=2: no value could meet both'],
    ],
    [
      'minItems above maxItems',
      'a []int [maxItems=1, minItems=2]',
      ['13:26 conflicting-constraints: minItems=2 is greater than maxItems=1: no value could meet both'],
    ],
    [
      'a default without optional',
      'qty int [default=1]',
      [
        "13:14 default-without-optional: field 'qty' has a default but is not optional: write [optional, default=...] (a default is what an item left out gets)",
      ],
    ],
    [
      'a default of the wrong type',
      'qty int [optional, default="1"]',
      ['13:32 invalid-default: the default of field \'qty\' is not a value of int: expected an integer, found the string "1"'],
    ],
    [
      'a null default of a string',
      's string [optional, default=null]',
      ["13:33 invalid-default: the default of field 's' is not a value of string: expected a string, found null"],
    ],
    [
      'a default that is not a value of the enum',
      'c Color [optional, default="blue"]',
      [
        '13:32 invalid-default: the default of field \'c\' is not a value of Color: expected one of the values of enum \'Color\' ("red", "green"), found the string "blue"',
      ],
    ],
    [
      'a struct default without a required field',
      'i Item [optional, default={"note": "x"}]',
      [
        "13:31 invalid-default: the default of field 'i' is not a value of Item: at $.id: the required field 'id' of struct 'Item' is missing",
      ],
    ],
    [
      'a struct default with an unknown field',
      'i Item [optional, default={"id": "a", "ID": 1}]',
      ["13:31 invalid-default: the default of field 'i' is not a value of Item: at $.ID: struct 'Item' has no field 'ID'"],
    ],
    [
      'a date that does not exist',
      'd date [optional, default="2026-02-30"]',
      [
        '13:31 invalid-default: the default of field \'d\' is not a value of date: expected a date that exists, written YYYY-MM-DD, found the string "2026-02-30"',
      ],
    ],
    [
      'a timestamp without an offset',
      't timestamp [optional, default="2026-01-31T12:00:00"]',
      [
        '13:36 invalid-default: the default of field \'t\' is not a value of timestamp: expected a timestamp: an RFC 3339 date-time with an offset, such as 2026-01-31T12:00:00Z, found the string "2026-01-31T12:00:00"',
      ],
    ],
    [
      'bytes in base64url',
      'b bytes [optional, default="_-8="]',
      [
        '13:32 invalid-default: the default of field \'b\' is not a value of bytes: expected bytes: standard base64 with padding (RFC 4648, not base64url), found the string "_-8="',
      ],
    ],
    [
      'a default above max',
      'qty int [optional, default=200, max=100]',
      ["13:32 invalid-default: the default of field 'qty' breaks its own constraints: 200 is greater than max=100"],
    ],
    [
      'a default off multipleOf',
      'qty int [optional, default=7, multipleOf=5]',
      ["13:32 invalid-default: the default of field 'qty' breaks its own constraints: 7 is not a multiple of 5"],
    ],
    [
      'a default string not matching the pattern',
      's string [optional, default="abc", pattern="^\\\\d+$"]',
      ['13:33 invalid-default: the default of field \'s\' breaks its own constraints: "abc" does not match the pattern'],
    ],
    [
      'a default string too long in code points',
      's string [optional, default="😀😀😀", maxLength=2]',
      ["13:33 invalid-default: the default of field 's' breaks its own constraints: 3 characters, more than maxLength=2"],
    ],
    [
      'a default array with too many items',
      'a []int [optional, default=[1, 2, 3], maxItems=2]',
      ["13:32 invalid-default: the default of field 'a' breaks its own constraints: 3 items, more than maxItems=2"],
    ],
    [
      'a default array with an element out of bounds',
      'a []int [optional, default=[1, 0], min=1]',
      ["13:32 invalid-default: the default of field 'a' breaks its own constraints: at $[1]: 0 is less than min=1"],
    ],
  ];
  for (const [name, line, expected] of cases) {
    test(name, () => expect(fieldProblems(line)).toEqual(expected));
  }
});

describe('defaults of a union type', () => {
  const UNION = 'struct Card {\n    number string\n}\nunion Payment [discriminator=type] {\n    card Card\n}\n';
  const withField = (field: string) => problems(`${UNION}struct Order {\n    ${field}\n}\n`);

  test('a variant with its tag passes', () => {
    expect(withField('pay Payment [optional, default={"type": "card", "number": "4111"}]')).toEqual([]);
  });

  test('an unknown tag is refused, with the tags', () => {
    expect(withField('pay Payment [optional, default={"type": "cash"}]')).toEqual([
      '19:36 invalid-default: the default of field \'pay\' is not a value of Payment: at $.type: expected one of the tags of union \'Payment\' ("card"), found the string "cash"',
    ]);
  });

  test("a variant without its struct's required field is refused", () => {
    expect(withField('pay Payment [optional, default={"type": "card"}]')).toEqual([
      "19:36 invalid-default: the default of field 'pay' is not a value of Payment: at $.number: the required field 'number' of struct 'Card' is missing",
    ]);
  });

  test('an @example of a union-typed field is judged the same way', () => {
    expect(problems(`${UNION}struct Order {\n    // @example {"kind": "card"}\n    pay Payment\n}\n`)).toEqual([
      "19:17 invalid-example: @example is not a value of this field: at $.type: the tag 'type' of union 'Payment' is missing (one of \"card\")",
    ]);
  });
});

describe('attribute lists on parameters and returns', () => {
  test('a default on a return is refused', () => {
    expect(problems('interface Shop {\n    count() int [optional, default=0]\n}\n')).toEqual([
      '13:28 misplaced-attribute: a return takes no default: a default fills what a request leaves out, never a result',
    ]);
  });

  test("a parameter's default is judged against its type and constraints", () => {
    expect(problems('interface Shop {\n    list(perPage int [optional, default=500, max=100]) int\n}\n')).toEqual([
      "13:41 invalid-default: the default of parameter 'perPage' breaks its own constraints: 500 is greater than max=100",
    ]);
  });

  test('a default on a required parameter is refused', () => {
    expect(problems('interface Shop {\n    list(perPage int [default=30]) int\n}\n')).toEqual([
      "13:23 default-without-optional: parameter 'perPage' has a default but is not optional: write [optional, default=...] (a default is what an item left out gets)",
    ]);
  });

  test('a required parameter after an optional one is refused at the required one', () => {
    const found = checkIdl(
      parseIdl(`${HEADER}interface Shop {\n    list(cursor string [optional], q string) int\n}\n`, 'shop.idl'),
    ).diagnostics;
    expect(found.map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`)).toEqual([
      "13:36 optional-parameter-order: required parameter 'q' comes after the optional parameter 'cursor': optional parameters go after the required ones",
    ]);
    expect(found[0].related?.[0]).toMatchObject({ message: "'cursor' is optional", range: { start: { line: 13, column: 10 } } });
  });

  test('a constraint on a return that does not fit its type is refused', () => {
    expect(problems('interface Shop {\n    name() string [min=1]\n}\n')).toEqual([
      '13:20 attribute-type: min does not apply to a string: it bounds int and float (on an array or map, each element)',
    ]);
  });
});

describe('unchecked formats', () => {
  test('a format the validators do not check is a note, and the file still checks', () => {
    const result = checkIdl(
      parseIdl(
        `${HEADER}struct Cart {\n    a string [format="iban"]\n    b int [format="int64"]\n    c string [format="email"]\n}\n`,
        'shop.idl',
      ),
    );
    expect(result.model).toBeDefined();
    expect(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`)).toEqual([
      '13:22 note unchecked-format: format "iban" is not checked: it is kept for documentation and OpenAPI (the checked formats are email, uri, uuid, ipv4, ipv6, hostname)',
      '14:19 note unchecked-format: format "int64" is not checked: it is kept for documentation and OpenAPI (formats of numbers are never checked)',
    ]);
  });
});

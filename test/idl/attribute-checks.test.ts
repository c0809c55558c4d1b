import { describe, expect, test } from 'vitest';
import { checkIdl, parseIdl } from '../../src/idl/index.js';

/** The diagnostics of `body` (after `namespace shop` and two helper types) as "line:column code: message". */
function problems(body: string): string[] {
  const source = `namespace shop\nenum Color {\n    red\n}\nstruct Point {\n    x int\n}\n${body}`;
  return checkIdl(parseIdl(source, 'shop.idl')).diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`);
}

const field = (line: string) => problems(`struct S {\n    ${line}\n}\n`);
const method = (line: string) => problems(`interface I {\n    ${line}\n}\n`);

describe('attribute lists: what the checker refuses, located', () => {
  test('valid lists of every kind pass', () => {
    expect(
      problems(
        [
          'struct S {',
          '    quantity int [min=1, max=99]',
          '    price float [exclusiveMin=0, multipleOf=0.01]',
          '    code string [minLength=3, maxLength=8, pattern="^[A-Z]+$"]',
          '    email string [optional, format="email"]',
          '    tags []string [optional, default=["a"], maxItems=10, maxLength=20]',
          '    scores map[string]int [min=0]',
          '    color Color [optional, default="red"]',
          '    at Point [optional, default={"x": 1}]',
          '    note json [optional, default=null]',
          '    when timestamp [optional, default="2026-01-01T00:00:00Z"]',
          '}',
          'interface I {',
          '    list(cursor string [optional], perPage int [optional, default=30, max=100]) []S [maxItems=100]',
          '}',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  test('an unknown attribute, with a suggestion', () => {
    expect(field('a int [optinal]')).toEqual(["9:12 error unknown-attribute: unknown attribute 'optinal'; did you mean 'optional'?"]);
  });

  test('a repeated attribute', () => {
    expect(field('a int [min=1, min=2]')).toEqual(["9:19 error duplicate-attribute: 'min' is written twice in this attribute list"]);
  });

  test('values of the wrong kind', () => {
    expect(field('a int [min="1"]')).toEqual(['9:16 error attribute-value: min takes a number, not "1"']);
    expect(field('a string [maxLength=-1]')).toEqual(['9:25 error attribute-value: maxLength takes a whole number from 0, not -1']);
    expect(field('a string [pattern=abc]')).toEqual(['9:23 error attribute-value: pattern takes a quoted text: write pattern="abc"']);
    expect(field('a int [multipleOf=0]')).toEqual(['9:23 error attribute-value: multipleOf takes a number above 0, not 0']);
    expect(field('a int [optional=true]')).toEqual(['9:21 error attribute-value: optional takes no value: write [optional]']);
    expect(field('a int [max]')).toEqual(['9:12 error attribute-value: max takes a value: write max=1']);
  });

  test('an attribute on a type it does not bound', () => {
    expect(field('a string [min=1]')).toEqual([
      '9:15 error attribute-type: min does not apply to string: it goes on int and float (and their arrays and maps)',
    ]);
    expect(field('a int [maxItems=3]')).toEqual(['9:12 error attribute-type: maxItems does not apply to int: it goes on arrays ([]T)']);
    expect(field('a Color [maxLength=3]')).toEqual([
      '9:14 error attribute-type: maxLength does not apply to the enum Color: it goes on string (and their arrays and maps)',
    ]);
  });

  test('bounds that cross', () => {
    expect(field('a int [min=5, max=4]')).toEqual(['9:23 error attribute-range: max=4 is below min=5: no value can meet both']);
    expect(field('a []int [minItems=2, maxItems=1]')).toEqual([
      '9:35 error attribute-range: maxItems=1 is below minItems=2: no value can meet both',
    ]);
  });

  test('a pattern that is not a regular expression', () => {
    expect(field('a string [pattern="(a"]')).toEqual([
      '9:23 error invalid-pattern: pattern is not a valid regular expression (read with the u flag): /(a/u: Unterminated group',
    ]);
  });

  test('bad defaults', () => {
    expect(field('a int [optional, default="x"]')).toEqual([
      '9:30 error invalid-default: default is not a value of this field\'s type: expected an integer, found the string "x"',
    ]);
    expect(field('a int [optional, default=200, max=100]')).toEqual([
      "9:30 error invalid-default: default breaks this field's own constraints: must be at most 100",
    ]);
    expect(field('a []string [optional, default=["toolong"], maxLength=3]')).toEqual([
      "9:35 error invalid-default: default breaks this field's own constraints: [0]: must be at most 3 characters long",
    ]);
    expect(field('a Color [optional, default="blue"]')[0]).toMatch(
      /^9:32 error invalid-default: default is not a value of this field's type/,
    );
    expect(field('a date [optional, default="2026-02-30"]')[0]).toMatch(/^9:31 error invalid-default/);
    expect(field('a int [default=1]')).toEqual([
      '9:12 error misplaced-default: a default needs optional: only an item callers may leave out gets one (write [optional, default=1])',
    ]);
    expect(method('get() int [default=1]')).toEqual([
      '9:16 error misplaced-default: a result takes no default: defaults fill what a request leaves out',
    ]);
  });

  test('a required parameter after an optional one', () => {
    expect(method('get(a int [optional], b int) int')).toEqual([
      "9:27 error optional-parameter-order: required parameter 'b' follows the optional parameter 'a': optional parameters come last",
    ]);
  });

  test('a format that is not checked is a note; the IDL still compiles', () => {
    const source = 'namespace shop\nstruct S {\n    id int [format="int64"]\n    e string [format="email"]\n}\n';
    const result = checkIdl(parseIdl(source, 'shop.idl'));
    expect(result.model).toBeDefined();
    expect(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(['3:20 note unchecked-format']);
  });
});

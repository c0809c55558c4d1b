/**
 * The rules one by one: old and new IDL, and the exact rule ids and levels the check reports.
 * Structs and enums are used in requests (`put`), responses (`get`), both (`swap`) or not at all,
 * so every directional rule is covered in each direction.
 */
import { describe, expect, test } from 'vitest';
import { RULES } from '../../src/breaking/index.js';
import { compareTexts, ruleLevels } from './compare-texts.js';

const api = (body: string, namespace = 'shop') => `namespace ${namespace}\n\n${body.trim()}\n`;
/** `body` with `Item` travelling as `way` says. */
const uses = {
  request: 'interface S {\n    put(item Item) bool\n}',
  response: 'interface S {\n    get() Item\n}',
  both: 'interface S {\n    swap(item Item) Item\n}',
  unused: '',
};
type Way = keyof typeof uses;
const withItem = (item: string, way: Way, extra = '') => api(`${item}\n${extra}\n${uses[way]}`);
const item = (fields: string) => `struct Item {\n${fields}\n}`;
const color = (values: string) => `enum Item {\n${values}\n}`;
/** Two structs a union's variants may select. */
const VARIANTS = 'struct A {\n    x int\n    z bool\n}\nstruct B {\n    y string\n}';
const union = (variants: string, discriminator?: string) =>
  `union Item${discriminator ? ` [discriminator=${discriminator}]` : ''} {\n    ${variants}\n}`;

interface Case {
  name: string;
  before: string;
  after: string;
  expected: string[];
}

const cases: Case[] = [
  // Namespace, interfaces, methods
  {
    name: 'namespace renamed',
    before: api('struct A {}', 'shop'),
    after: api('struct A {}', 'store'),
    expected: ['namespace-changed wire'],
  },
  {
    name: 'interface removed',
    before: api('interface A {\n    f() int\n}\ninterface B {}'),
    after: api('interface B {}'),
    expected: ['interface-removed wire'],
  },
  {
    name: 'interface added',
    before: api('struct X {}'),
    after: api('struct X {}\ninterface A {\n    f() int\n}'),
    expected: ['interface-added source'],
  },
  {
    name: 'interface renamed',
    before: api('interface A {\n    f() int\n}'),
    after: api('interface B {\n    f() int\n}'),
    expected: ['interface-added source', 'interface-removed wire'],
  },
  {
    name: 'method removed',
    before: api('interface A {\n    f() int\n    g() int\n}'),
    after: api('interface A {\n    f() int\n}'),
    expected: ['method-removed wire'],
  },
  {
    name: 'method added',
    before: api('interface A {\n    f() int\n}'),
    after: api('interface A {\n    f() int\n    g() int\n}'),
    expected: ['method-added source'],
  },
  // Parameters: by position and by name
  {
    name: 'parameter added',
    before: api('interface A {\n    f(a int) int\n}'),
    after: api('interface A {\n    f(a int, b int) int\n}'),
    expected: ['param-added wire'],
  },
  {
    name: 'parameter removed',
    before: api('interface A {\n    f(a int, b int) int\n}'),
    after: api('interface A {\n    f(a int) int\n}'),
    expected: ['param-removed wire'],
  },
  {
    name: 'parameters swapped (same checksum)',
    before: api('interface A {\n    f(a int, b int) int\n}'),
    after: api('interface A {\n    f(b int, a int) int\n}'),
    expected: ['param-reordered wire'],
  },
  {
    name: 'parameter renamed in place',
    before: api('interface A {\n    f(a int, b int) int\n}'),
    after: api('interface A {\n    f(a int, c int) int\n}'),
    expected: ['param-renamed openapi'],
  },
  {
    name: 'parameter renamed and retyped',
    before: api('interface A {\n    f(a int) int\n}'),
    after: api('interface A {\n    f(c string) int\n}'),
    expected: ['param-renamed openapi', 'param-type-changed wire'],
  },
  {
    name: 'parameter retyped',
    before: api('interface A {\n    f(a int) int\n}'),
    after: api('interface A {\n    f(a []int) int\n}'),
    expected: ['param-type-changed wire'],
  },
  {
    name: 'parameter type renamed, same JSON shape',
    before: api('struct P {\n    x int\n}\ninterface A {\n    f(a P) int\n}'),
    after: api('struct Q {\n    x int\n}\ninterface A {\n    f(a Q) int\n}'),
    expected: ['struct-added safe', 'struct-removed source', 'type-renamed source'],
  },
  {
    name: 'parameter type renamed to another shape',
    before: api('struct P {\n    x int\n}\ninterface A {\n    f(a P) int\n}'),
    after: api('struct Q {\n    x int [optional]\n}\ninterface A {\n    f(a Q) int\n}'),
    expected: ['param-type-changed wire', 'struct-added safe', 'struct-removed source'],
  },
  // The built-in types with a wire form change the type like any other (docs/breaking.md)
  {
    name: 'parameter type changed from string to timestamp',
    before: api('interface A {\n    f(at string) int\n}'),
    after: api('interface A {\n    f(at timestamp) int\n}'),
    expected: ['param-type-changed wire'],
  },
  {
    name: 'return type changed from bytes to string',
    before: api('interface A {\n    f() bytes\n}'),
    after: api('interface A {\n    f() string\n}'),
    expected: ['return-type-changed wire'],
  },
  {
    name: 'field type changed from date to timestamp',
    before: withItem(item('    a date'), 'request'),
    after: withItem(item('    a timestamp'), 'request'),
    expected: ['field-type-changed wire'],
  },
  {
    name: 'field type changed from string to json',
    before: withItem(item('    a string'), 'response'),
    after: withItem(item('    a json'), 'response'),
    expected: ['field-type-changed wire'],
  },
  {
    name: 'a struct named date replaced by the built-in date',
    before: api('struct date {\n    d string\n}\ninterface A {\n    f(a date) int\n}'),
    after: api('interface A {\n    f(a date) int\n}'),
    expected: ['param-type-changed wire', 'struct-removed source'],
  },
  // Return values and raised errors
  {
    name: 'return type changed',
    before: api('interface A {\n    f() int\n}'),
    after: api('interface A {\n    f() string\n}'),
    expected: ['return-type-changed wire'],
  },
  {
    name: 'return made optional',
    before: api('interface A {\n    f() int\n}'),
    after: api('interface A {\n    f() int [optional]\n}'),
    expected: ['return-made-optional wire'],
  },
  {
    name: 'return made required',
    before: api('interface A {\n    f() int [optional]\n}'),
    after: api('interface A {\n    f() int\n}'),
    expected: ['return-made-required source'],
  },
  {
    name: 'method made a stream',
    before: api('interface A {\n    f() int\n}'),
    after: api('interface A {\n    f() stream int\n}'),
    expected: ['method-stream-changed wire'],
  },
  {
    name: 'stream made a plain method',
    before: api('struct Order {\n    id string\n}\ninterface A {\n    watch(id string) stream Order\n}'),
    after: api('struct Order {\n    id string\n}\ninterface A {\n    watch(id string) Order\n}'),
    expected: ['method-stream-changed wire'],
  },
  {
    name: 'stream item type changed',
    before: api('interface A {\n    f() stream int\n}'),
    after: api('interface A {\n    f() stream string\n}'),
    expected: ['return-type-changed wire'],
  },
  {
    name: 'error raised',
    before: api('errors {\n    1 E "e"\n}\ninterface A {\n    f() int\n}'),
    after: api('errors {\n    1 E "e"\n}\ninterface A {\n    f() int raises(E)\n}'),
    expected: ['raises-added safe'],
  },
  {
    name: 'error no longer raised',
    before: api('errors {\n    1 E "e"\n}\ninterface A {\n    f() int raises(E)\n}'),
    after: api('errors {\n    1 E "e"\n}\ninterface A {\n    f() int\n}'),
    expected: ['raises-removed safe'],
  },
  {
    name: 'a type keeps its name but turns from an enum into a struct',
    before: api('enum Size {\n    s\n}\ninterface A {\n    f(size Size) int\n}'),
    after: api('struct Size {\n    s int\n}\ninterface A {\n    f(size Size) int\n}'),
    expected: ['enum-removed source', 'param-type-changed wire', 'struct-added safe'],
  },
  // Structs
  {
    name: 'struct added',
    before: api('struct A {}'),
    after: api('struct A {}\nstruct B {\n    x int\n}'),
    expected: ['struct-added safe'],
  },
  {
    name: 'unused struct removed',
    before: api('struct A {}\nstruct B {}'),
    after: api('struct A {}'),
    expected: ['struct-removed source'],
  },
  {
    name: 'parent changed, same fields',
    before: withItem('struct P {\n    x int\n}\nstruct Item extends P {}', 'request'),
    after: withItem('struct P {\n    x int\n}\nstruct R {\n    x int\n}\nstruct Item extends R {}', 'request'),
    expected: ['struct-added safe', 'struct-extends-changed source'],
  },
  {
    name: 'parent added to a request struct brings a required field',
    before: withItem('struct P {\n    x int\n}\nstruct Item {}', 'request'),
    after: withItem('struct P {\n    x int\n}\nstruct Item extends P {}', 'request'),
    expected: ['field-added-required wire', 'struct-extends-changed source'],
  },
  // Fields, by direction
  {
    name: 'required field added: request',
    before: withItem(item('    a int'), 'request'),
    after: withItem(item('    a int\n    b int'), 'request'),
    expected: ['field-added-required wire'],
  },
  {
    name: 'required field added: response',
    before: withItem(item('    a int'), 'response'),
    after: withItem(item('    a int\n    b int'), 'response'),
    expected: ['field-added-required source'],
  },
  {
    name: 'required field added: both',
    before: withItem(item('    a int'), 'both'),
    after: withItem(item('    a int\n    b int'), 'both'),
    expected: ['field-added-required wire'],
  },
  {
    name: 'required field added: unused',
    before: withItem(item('    a int'), 'unused'),
    after: withItem(item('    a int\n    b int'), 'unused'),
    expected: ['field-added-required source'],
  },
  {
    name: 'optional field added: request',
    before: withItem(item('    a int'), 'request'),
    after: withItem(item('    a int\n    b int [optional]'), 'request'),
    expected: ['field-added-optional safe'],
  },
  {
    name: 'optional field added: response',
    before: withItem(item('    a int'), 'response'),
    after: withItem(item('    a int\n    b int [optional]'), 'response'),
    expected: ['field-added-optional safe'],
  },
  {
    name: 'required field removed: response',
    before: withItem(item('    a int\n    b int'), 'response'),
    after: withItem(item('    a int'), 'response'),
    expected: ['field-removed wire'],
  },
  {
    name: 'required field removed: request',
    before: withItem(item('    a int\n    b int'), 'request'),
    after: withItem(item('    a int'), 'request'),
    expected: ['field-removed source'],
  },
  {
    name: 'required field removed: unused',
    before: withItem(item('    a int\n    b int'), 'unused'),
    after: withItem(item('    a int'), 'unused'),
    expected: ['field-removed source'],
  },
  {
    name: 'optional field removed: response',
    before: withItem(item('    a int\n    b int [optional]'), 'response'),
    after: withItem(item('    a int'), 'response'),
    expected: ['optional-field-removed source'],
  },
  {
    name: 'field made optional: response',
    before: withItem(item('    a int'), 'response'),
    after: withItem(item('    a int [optional]'), 'response'),
    expected: ['field-made-optional wire'],
  },
  {
    name: 'field made optional: request',
    before: withItem(item('    a int'), 'request'),
    after: withItem(item('    a int [optional]'), 'request'),
    expected: ['field-made-optional source'],
  },
  {
    name: 'field made required: request',
    before: withItem(item('    a int [optional]'), 'request'),
    after: withItem(item('    a int'), 'request'),
    expected: ['field-made-required wire'],
  },
  {
    name: 'field made required: response',
    before: withItem(item('    a int [optional]'), 'response'),
    after: withItem(item('    a int'), 'response'),
    expected: ['field-made-required source'],
  },
  {
    name: 'field retyped: request',
    before: withItem(item('    a int'), 'request'),
    after: withItem(item('    a float'), 'request'),
    expected: ['field-type-changed wire'],
  },
  {
    name: 'field retyped: response',
    before: withItem(item('    a int'), 'response'),
    after: withItem(item('    a map[string]int'), 'response'),
    expected: ['field-type-changed wire'],
  },
  {
    name: 'field retyped: unused',
    before: withItem(item('    a int'), 'unused'),
    after: withItem(item('    a bool'), 'unused'),
    expected: ['field-type-changed source'],
  },
  {
    name: 'field removed deep in a response (array, map)',
    before: api(
      'struct Inner {\n    x int\n    y int\n}\nstruct Outer {\n    inner map[string]Inner\n}\ninterface S {\n    list() []Outer\n}',
    ),
    after: api('struct Inner {\n    x int\n}\nstruct Outer {\n    inner map[string]Inner\n}\ninterface S {\n    list() []Outer\n}'),
    expected: ['field-removed wire'],
  },
  {
    name: "parent's field removed: the parent travels where its child does",
    before: api('struct P {\n    x int\n    y int\n}\nstruct C extends P {}\ninterface S {\n    get() C\n}'),
    after: api('struct P {\n    x int\n}\nstruct C extends P {}\ninterface S {\n    get() C\n}'),
    expected: ['field-removed wire', 'field-removed wire'],
  },
  {
    name: 'field moved from the parent into the child: only the parent changes',
    before: api('struct P {\n    x int\n}\nstruct C extends P {}\ninterface S {\n    put(c C) bool\n}'),
    after: api('struct P {}\nstruct C extends P {\n    x int\n}\ninterface S {\n    put(c C) bool\n}'),
    expected: ['field-removed source'],
  },
  // Enums, by direction
  {
    name: 'enum value added: response',
    before: withItem(color('    red'), 'response'),
    after: withItem(color('    red\n    blue'), 'response'),
    expected: ['enum-value-added wire'],
  },
  {
    name: 'enum value added: request',
    before: withItem(color('    red'), 'request'),
    after: withItem(color('    red\n    blue'), 'request'),
    expected: ['enum-value-added safe'],
  },
  {
    name: 'enum value added: both',
    before: withItem(color('    red'), 'both'),
    after: withItem(color('    red\n    blue'), 'both'),
    expected: ['enum-value-added wire'],
  },
  {
    name: 'enum value added: unused',
    before: withItem(color('    red'), 'unused'),
    after: withItem(color('    red\n    blue'), 'unused'),
    expected: ['enum-value-added safe'],
  },
  {
    name: 'enum value removed: request',
    before: withItem(color('    red\n    blue'), 'request'),
    after: withItem(color('    red'), 'request'),
    expected: ['enum-value-removed wire'],
  },
  {
    name: 'enum value removed: response',
    before: withItem(color('    red\n    blue'), 'response'),
    after: withItem(color('    red'), 'response'),
    expected: ['enum-value-removed source'],
  },
  {
    name: 'enum value removed, reached through a struct field in requests',
    before: api(
      'enum Status {\n    open\n    closed\n}\nstruct Order {\n    status Status\n}\ninterface S {\n    put(order Order) bool\n}',
    ),
    after: api('enum Status {\n    open\n}\nstruct Order {\n    status Status\n}\ninterface S {\n    put(order Order) bool\n}'),
    expected: ['enum-value-removed wire'],
  },
  { name: 'enum added', before: api('struct A {}'), after: api('struct A {}\nenum E {\n    a\n}'), expected: ['enum-added safe'] },
  { name: 'enum removed', before: api('struct A {}\nenum E {\n    a\n}'), after: api('struct A {}'), expected: ['enum-removed source'] },
  // Declared errors
  {
    name: 'error added',
    before: api('errors {\n    1 A "a"\n}'),
    after: api('errors {\n    1 A "a"\n    2 B "b"\n}'),
    expected: ['error-added safe'],
  },
  {
    name: 'error removed',
    before: api('errors {\n    1 A "a"\n    2 B "b"\n}'),
    after: api('errors {\n    1 A "a"\n}'),
    expected: ['error-removed source'],
  },
  {
    name: 'error code changed',
    before: api('errors {\n    1 A "a"\n}'),
    after: api('errors {\n    7 A "a"\n}'),
    expected: ['error-code-changed wire'],
  },
  {
    name: 'error message changed',
    before: api('errors {\n    1 A "a"\n}'),
    after: api('errors {\n    1 A "another"\n}'),
    expected: ['error-message-changed safe'],
  },
  // Doc tags
  {
    name: 'struct, field, enum, interface and method deprecated',
    before: api('struct Item {\n    a int\n}\nenum E {\n    x\n}\ninterface S {\n    f(item Item) E\n}'),
    after: api(
      '// @deprecated\nstruct Item {\n    // @deprecated use b\n    a int\n}\n// @deprecated\nenum E {\n    x\n}\n// @deprecated\ninterface S {\n    // @deprecated\n    // @readonly\n    f(item Item) E\n}',
    ),
    expected: ['deprecated safe', 'deprecated safe', 'deprecated safe', 'deprecated safe', 'deprecated safe'],
  },
  {
    name: 'a method loses @readonly (its reads over GET answer 405); a stream method losing it, or a method gaining it, is nothing',
    before: api('interface S {\n    // @readonly\n    f() int\n    // @readonly\n    w() stream int\n    g() int\n}'),
    after: api('interface S {\n    f() int\n    w() stream int\n    // @readonly\n    g() int\n}'),
    expected: ['readonly-removed wire'],
  },
  {
    name: 'deprecation removed, other tags added or removed',
    before: api('// @deprecated\nstruct Item {\n    // @example 1\n    a int\n}\ninterface S {\n    f(item Item) int\n}'),
    after: api('struct Item {\n    a int\n}\ninterface S {\n    // @readonly\n    f(item Item) int\n}'),
    expected: [],
  },
  // Unions: `Item` is a union of A and B travelling as `way` says.
  // Constraints and defaults: a field's in each direction; parameters travel in requests, results in responses
  ...(['request', 'response', 'both', 'unused'] as const).flatMap((way): Case[] => [
    {
      name: `constraint tightened: ${way}`,
      before: withItem(item('    n int [min=1]'), way),
      after: withItem(item('    n int [min=2, max=9]'), way),
      expected: [`constraint-tightened ${{ request: 'wire', response: 'safe', both: 'wire', unused: 'safe' }[way]}`],
    },
    {
      name: `constraint loosened: ${way}`,
      before: withItem(item('    s string [maxLength=5, pattern="^a"]'), way),
      after: withItem(item('    s string [maxLength=6]'), way),
      expected: [`constraint-loosened ${{ request: 'safe', response: 'wire', both: 'wire', unused: 'safe' }[way]}`],
    },
    {
      name: `constraint changed: ${way}`,
      before: withItem(item('    s string [pattern="^a"]'), way),
      after: withItem(item('    s string [pattern="^b"]'), way),
      expected: [`constraint-changed ${{ request: 'wire', response: 'wire', both: 'wire', unused: 'safe' }[way]}`],
    },
    {
      name: `default removed: ${way}`,
      before: withItem(item('    n int [optional, default=3]'), way),
      after: withItem(item('    n int [optional]'), way),
      expected: [`default-removed ${{ request: 'wire', response: 'safe', both: 'wire', unused: 'safe' }[way]}`],
    },
    {
      name: `default changed: ${way}`,
      before: withItem(item('    n int [optional, default=3]'), way),
      after: withItem(item('    n int [optional, default=4]'), way),
      expected: [`default-changed ${{ request: 'wire', response: 'safe', both: 'wire', unused: 'safe' }[way]}`],
    },
  ]),
  {
    name: 'default added',
    before: withItem(item('    n int [optional]'), 'request'),
    after: withItem(item('    n int [optional, default=3]'), 'request'),
    expected: ['default-added safe'],
  },
  {
    name: "a parameter's constraint tightened (requests)",
    before: api('interface A {\n    f(n int [max=10]) int\n}'),
    after: api('interface A {\n    f(n int [max=9]) int\n}'),
    expected: ['constraint-tightened wire'],
  },
  {
    name: "a result's constraint loosened (responses)",
    before: api('interface A {\n    f() []int [maxItems=10]\n}'),
    after: api('interface A {\n    f() []int\n}'),
    expected: ['constraint-loosened wire'],
  },
  {
    name: 'an optional parameter added after the others',
    before: api('interface A {\n    f(a int) int\n}'),
    after: api('interface A {\n    f(a int, b int [optional]) int\n}'),
    expected: ['param-added-optional safe'],
  },
  {
    name: 'an optional parameter made required',
    before: api('interface A {\n    f(a int [optional]) int\n}'),
    after: api('interface A {\n    f(a int) int\n}'),
    expected: ['param-made-required wire'],
  },
  {
    name: 'a parameter made optional',
    before: api('interface A {\n    f(a int) int\n}'),
    after: api('interface A {\n    f(a int [optional]) int\n}'),
    expected: ['param-made-optional source'],
  },
  {
    name: 'union added',
    before: api(`${VARIANTS}`),
    after: api(`${VARIANTS}\n${union('a A')}`),
    expected: ['union-added safe'],
  },
  {
    name: 'union removed',
    before: api(`${VARIANTS}\n${union('a A')}`),
    after: api(`${VARIANTS}`),
    expected: ['union-removed source'],
  },
  ...(['request', 'response', 'both', 'unused'] as const).flatMap((way): Case[] => [
    {
      name: `union variant added: ${way}`,
      before: withItem(union('a A'), way, VARIANTS),
      after: withItem(union('a A\n    b B'), way, VARIANTS),
      expected: [`union-variant-added ${{ request: 'safe', response: 'wire', both: 'wire', unused: 'safe' }[way]}`],
    },
    {
      name: `union variant removed: ${way}`,
      before: withItem(union('a A\n    b B'), way, VARIANTS),
      after: withItem(union('a A'), way, VARIANTS),
      expected: [`union-variant-removed ${{ request: 'wire', response: 'source', both: 'wire', unused: 'source' }[way]}`],
    },
  ]),
  {
    name: 'union discriminator changed: request',
    before: withItem(union('a A'), 'request', VARIANTS),
    after: withItem(union('a A', 'type'), 'request', VARIANTS),
    expected: ['union-discriminator-changed wire'],
  },
  {
    name: 'union discriminator changed: unused',
    before: withItem(union('a A'), 'unused', VARIANTS),
    after: withItem(union('a A', 'type'), 'unused', VARIANTS),
    expected: ['union-discriminator-changed source'],
  },
  {
    name: 'union variant selects another struct: response',
    before: withItem(union('a A'), 'response', VARIANTS),
    after: withItem(union('a B'), 'response', VARIANTS),
    expected: ['union-variant-type-changed wire'],
  },
  {
    name: "a variant's struct changes: reported on the struct, in the union's direction",
    before: withItem(union('a A'), 'response', VARIANTS),
    after: withItem(union('a A'), 'response', 'struct A {\n    x int\n}\nstruct B {\n    y string\n}'),
    expected: ['field-removed wire'],
  },
  {
    name: 'struct turned into a union: request',
    before: withItem(item('    x int'), 'request', VARIANTS),
    after: withItem(union('a A'), 'request', VARIANTS),
    expected: ['struct-made-union wire', 'param-type-changed wire'],
  },
  {
    name: 'union turned into a struct: response',
    before: withItem(union('a A'), 'response', VARIANTS),
    after: withItem(item('    x int'), 'response', VARIANTS),
    expected: ['struct-made-union wire', 'return-type-changed wire'],
  },
  // Nothing that matters
  {
    name: 'declarations, methods, fields and values reordered, comments changed',
    before: api(
      '// the item\nstruct Item {\n    a int\n    b string\n}\nenum E {\n    x\n    y\n}\ninterface S {\n    f(item Item) E\n    g() int\n}',
    ),
    after: api(
      'interface S {\n    // g\n    g() int\n\n    f(item Item) E // f\n}\nenum E {\n    y\n    x\n}\n\n// other words\n\nstruct Item {\n    b string\n    a int\n}',
    ),
    expected: [],
  },
];

describe('each rule, by example', () => {
  test.each(cases)('$name', ({ before, after, expected }) => {
    expect(ruleLevels(compareTexts(before, after))).toEqual([...expected].sort());
  });

  test('the table covers every rule, and each directional rule in each direction', () => {
    const reported = new Set(cases.flatMap((c) => c.expected.map((e) => e.split(' ')[0])));
    expect(RULES.map((rule) => rule.id).filter((id) => !reported.has(id))).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });
});

describe('locations and messages', () => {
  test('an addition points at the new file, a removal at the old one', () => {
    const report = compareTexts(
      withItem(item('    a int\n    b int'), 'response'),
      withItem(item('    a int\n    c int [optional]'), 'response'),
    );
    const byRule = Object.fromEntries(report.changes.map((c) => [c.rule, c]));
    expect(byRule['field-added-optional'].location).toEqual({ file: 'api.idl', line: 5, column: 5 });
    expect(byRule['field-removed'].location).toEqual({ file: 'old/api.idl', line: 5, column: 5 });
    expect(byRule['field-removed'].message).toBe(
      'required field Item.b is removed from struct Item, which travels in responses: old clients expect it',
    );
  });

  test('a declared type and the built-in type of the same name are told apart in the message', () => {
    const [change] = compareTexts(
      api('struct date {\n    d string\n}\ninterface A {\n    f(a date) int\n}'),
      api('interface A {\n    f(a date) int\n}'),
    ).changes;
    expect(change.message).toBe('the type of parameter A.f.a changes from date to date (built-in)');
  });

  test('the swapped parameters are named in the message', () => {
    const [change] = compareTexts(
      api('interface A {\n    f(a int, b int) int\n}'),
      api('interface A {\n    f(b int, a int) int\n}'),
    ).changes;
    expect(change.subject).toBe('A.f');
    expect(change.message).toContain('from (a, b) to (b, a)');
  });
});

describe('levels as thresholds', () => {
  const renamed = [api('interface A {\n    f(a int) int\n}'), api('interface A {\n    f(b int) int\n}')] as const;
  test('a change at openapi fails at openapi and source, not at wire', () => {
    expect(compareTexts(...renamed, { level: 'wire' }).failures).toEqual([]);
    expect(compareTexts(...renamed, { level: 'openapi' }).failures.map((c) => c.rule)).toEqual(['param-renamed']);
    expect(compareTexts(...renamed, { level: 'source' }).failures.map((c) => c.rule)).toEqual(['param-renamed']);
  });

  test('safe changes never fail', () => {
    expect(compareTexts(api('struct A {}'), api('struct A {}\nstruct B {}'), { level: 'source' }).failures).toEqual([]);
  });
});

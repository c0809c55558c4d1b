import { describe, expect, test } from 'vitest';
import { IdlCompileError, IdlSyntaxError, compileIdl, parseIdl, tryCompileIdl } from '../../src/index.js';

/** Prefixes a file with `namespace shop` so the cases stay short; line numbers count it. */
const ns = (body: string) => `namespace shop\n${body}`;

interface BrokenCase {
  name: string;
  source: string;
  /** Every expected diagnostic as `line:column code message`, in report order. */
  expected: string[];
}

const TYPE = 'expected a type such as string, int, float, bool, []T, map[string]T or a struct or enum name';
const RETURN_TYPE = 'expected a return type such as string, int, float, bool, []T, map[string]T or a struct or enum name';

const syntaxCases: BrokenCase[] = [
  { name: 'unknown top-level word', source: 'namespace shop\ntype Foo {\n}\n', expected: ['2:1 syntax expected a declaration (namespace, enum, struct, errors or interface)'] },
  { name: 'namespace without a name', source: 'namespace\n', expected: ['1:10 syntax expected a namespace name'] },
  { name: 'reserved word as namespace', source: 'namespace struct\n', expected: ["1:11 syntax 'struct' is a reserved word and cannot be used as a name"] },
  { name: 'second namespace', source: ns('namespace other\n'), expected: ['2:1 syntax the namespace must be declared once, before every other declaration'] },
  { name: 'namespace after a declaration', source: 'enum E {\n    a\n}\nnamespace shop\n', expected: ['4:1 syntax the namespace must be declared once, before every other declaration'] },
  { name: 'text after the namespace name', source: 'namespace shop v2\n', expected: ['1:16 syntax expected the end of the line'] },
  { name: 'field without a type', source: ns('struct A {\n    id\n}\n'), expected: [`3:7 syntax ${TYPE}`] },
  { name: 'number as a field type', source: ns('struct A {\n    id 42\n}\n'), expected: [`3:8 syntax ${TYPE}`] },
  { name: 'reserved word as a field name', source: ns('struct A {\n    string string\n}\n'), expected: ["3:5 syntax 'string' is a reserved word and cannot be used as a name"] },
  { name: 'reserved word as a type name', source: ns('struct A {\n    a int\n}\nstruct map {\n}\n'), expected: ["5:8 syntax 'map' is a reserved word and cannot be used as a name"] },
  { name: 'field name starting with a digit', source: ns('struct A {\n    1st string\n}\n'), expected: ["3:5 syntax expected a field name or '}'"] },
  { name: 'two fields on one line', source: ns('struct A {\n    a int b int\n}\n'), expected: ["3:11 syntax expected '[optional]' or the end of the line"] },
  { name: 'misspelled [optional]', source: ns('struct A {\n    a int [optinal]\n}\n'), expected: ["3:11 syntax expected '[optional]' or the end of the line"] },
  { name: 'struct without a closing brace at end of file', source: ns('struct A {\n    a int\n'), expected: ["4:1 syntax unexpected end of file: expected a field name or '}'"] },
  { name: 'struct without a closing brace before the next struct', source: ns('struct A {\n    a int\nstruct B {\n}\n'), expected: ["4:1 syntax expected '}' to close struct A (line 2) before this 'struct'"] },
  { name: 'enum without a closing brace before an interface', source: ns('enum E {\n    a\ninterface I {\n}\n'), expected: ["4:1 syntax expected '}' to close enum E (line 2) before this 'interface'"] },
  { name: 'struct without a name', source: ns('struct {\n}\n'), expected: ['2:8 syntax expected a struct name'] },
  { name: 'struct header without a brace', source: ns('struct A\n    a int\n}\n'), expected: ["2:9 syntax expected 'extends' or '{'"] },
  { name: 'misspelled extends', source: ns('struct A extend B {\n}\n'), expected: ["2:10 syntax expected 'extends' or '{'"] },
  { name: 'extends without a parent', source: ns('struct A extends {\n}\n'), expected: ['2:18 syntax expected the name of the struct to extend'] },
  { name: 'array without element type', source: ns('struct A {\n    a []\n}\n'), expected: [`3:9 syntax ${TYPE}`] },
  { name: 'map with int keys', source: ns('struct A {\n    a map[int]string\n}\n'), expected: ['3:11 syntax map keys must be string: write map[string]T'] },
  { name: 'map without value type', source: ns('struct A {\n    a map[string]\n}\n'), expected: [`3:18 syntax ${TYPE}`] },
  { name: 'map without brackets', source: ns('struct A {\n    a map string\n}\n'), expected: ["3:11 syntax expected '['"] },
  { name: 'two values on one enum line', source: ns('enum E {\n    a b\n}\n'), expected: ['3:7 syntax expected the end of the line'] },
  { name: 'enum value starting with a digit', source: ns('enum E {\n    1a\n}\n'), expected: ["3:5 syntax expected an enum value or '}'"] },
  { name: 'error without a message', source: ns('errors {\n    1001 Missing\n}\n'), expected: ['3:17 syntax expected a quoted message such as "cart does not exist"'] },
  { name: 'error message without closing quote', source: ns('errors {\n    1001 Missing "not there\n}\n'), expected: ['3:18 syntax the message has no closing quote (")'] },
  { name: 'unknown escape in an error message', source: ns('errors {\n    1001 Missing "a\\tb"\n}\n'), expected: ['3:20 syntax unknown escape in a message: only \\" and \\\\ are allowed'] },
  { name: 'error with a name where the code belongs', source: ns('errors {\n    Missing 1001 "x"\n}\n'), expected: ["3:5 syntax expected an error code (an integer) or '}'"] },
  { name: 'method without a return type', source: ns('interface I {\n    ping()\n}\n'), expected: [`3:11 syntax ${RETURN_TYPE}`] },
  { name: 'optional parameter', source: ns('interface I {\n    get(id string [optional]) int\n}\n'), expected: ['3:19 syntax parameters cannot be [optional]; use a struct parameter with an [optional] field instead'] },
  { name: 'parameters without a comma', source: ns('interface I {\n    add(a int b int) int\n}\n'), expected: ["3:15 syntax expected ',' or ')'"] },
  { name: 'parameter without a type', source: ns('interface I {\n    get(id) int\n}\n'), expected: [`3:11 syntax ${TYPE}`] },
  { name: 'method without parentheses', source: ns('interface I {\n    ping int\n}\n'), expected: ["3:10 syntax expected '('"] },
  { name: 'empty raises list', source: ns('interface I {\n    ping() int raises()\n}\n'), expected: ['3:23 syntax expected the name of a declared error'] },
  { name: 'raises before [optional]', source: ns('errors {\n    1 E "e"\n}\ninterface I {\n    ping() int raises(E) [optional]\n}\n'), expected: ['6:26 syntax expected the end of the line'] },
  { name: 'reserved word as a method name', source: ns('interface I {\n    import() int\n}\n'), expected: ["3:5 syntax 'import' is a reserved word and cannot be used as a name"] },
  { name: 'text after a closing brace', source: ns('struct A {\n} extra\n'), expected: ['3:3 syntax expected the end of the line'] },
  { name: 'a type nested deeper than 100 levels', source: ns(`struct A {\n    a ${'[]'.repeat(5000)}int\n}\n`), expected: ['3:7 syntax this type is nested more than 100 levels deep'] },
  { name: 'stray closing brace', source: ns('}\n'), expected: ['2:1 syntax expected a declaration (namespace, enum, struct, errors or interface)'] },
];

const semanticCases: BrokenCase[] = [
  { name: 'empty file', source: '', expected: ["1:1 missing-namespace missing namespace: start the file with 'namespace <name>'"] },
  { name: 'missing namespace', source: 'struct A {\n    a int\n}\n', expected: ["1:1 missing-namespace missing namespace: start the file with 'namespace <name>'"] },
  { name: 'duplicate struct', source: ns('struct A {\n}\nstruct A {\n}\n'), expected: ["4:8 duplicate-type 'A' is already declared as a struct on line 2"] },
  { name: 'enum and struct with the same name', source: ns('enum A {\n    x\n}\nstruct A {\n}\n'), expected: ["5:8 duplicate-type 'A' is already declared as an enum on line 2"] },
  { name: 'interface named like a struct', source: ns('struct A {\n}\ninterface A {\n}\n'), expected: ["4:11 duplicate-interface 'A' is already declared as a struct on line 2"] },
  { name: 'duplicate field', source: ns('struct A {\n    id int\n    id string\n}\n'), expected: ["4:5 duplicate-field field 'id' is already declared in struct 'A' on line 3"] },
  { name: 'field redeclared from the parent', source: ns('struct Base {\n    id int\n}\nstruct A extends Base {\n    id string\n}\n'), expected: ["6:5 duplicate-field field 'id' is already declared in parent struct 'Base' on line 3"] },
  { name: 'field redeclared from the grandparent', source: ns('struct Root {\n    id int\n}\nstruct Base extends Root {\n}\nstruct A extends Base {\n    id string\n}\n'), expected: ["8:5 duplicate-field field 'id' is already declared in parent struct 'Root' on line 3"] },
  { name: 'duplicate method', source: ns('interface I {\n    ping() int\n    ping() bool\n}\n'), expected: ["4:5 duplicate-method method 'ping' is already declared in interface 'I' on line 3"] },
  { name: 'duplicate parameter', source: ns('interface I {\n    add(a int, a int) int\n}\n'), expected: ["3:16 duplicate-parameter parameter 'a' appears twice in method 'add'"] },
  { name: 'duplicate enum value', source: ns('enum E {\n    a\n    b\n    a\n}\n'), expected: ["5:5 duplicate-enum-value enum value 'a' is already declared in enum 'E' on line 3"] },
  { name: 'empty enum', source: ns('enum E {\n}\n'), expected: ["2:6 empty-enum enum 'E' has no values: an enum needs at least one"] },
  { name: 'duplicate error name across blocks', source: ns('errors {\n    1 E "a"\n}\nerrors {\n    2 E "b"\n}\n'), expected: ["6:7 duplicate-error error 'E' is already declared on line 3"] },
  { name: 'duplicate error code', source: ns('errors {\n    1001 A "a"\n    1001 B "b"\n}\n'), expected: ["4:5 duplicate-error-code error code 1001 is already used by 'A' on line 3"] },
  { name: 'error code reserved by JSON-RPC', source: ns('errors {\n    -32601 A "a"\n}\n'), expected: ['3:5 error-code-reserved error code -32601 is reserved by JSON-RPC (-32768 to -32000): choose another code'] },
  { name: 'error code beyond safe integers', source: ns('errors {\n    9007199254740993 A "a"\n}\n'), expected: ['3:5 error-code-range error code 9007199254740993 is too large: use an integer within ±(2^53-1)'] },
  { name: 'unknown field type with a suggestion', source: ns('struct Product {\n}\nstruct A {\n    p Prodcut\n}\n'), expected: ["5:7 unknown-type unknown type 'Prodcut'; did you mean 'Product'?"] },
  { name: 'unknown type nested in map and array', source: ns('struct A {\n    m map[string][]Missing\n}\n'), expected: ["3:20 unknown-type unknown type 'Missing'"] },
  { name: 'unknown parameter and return types', source: ns('interface I {\n    get(id Id) Thing\n}\n'), expected: ["3:12 unknown-type unknown type 'Id'", "3:16 unknown-type unknown type 'Thing'"] },
  { name: 'interface used as a type', source: ns('interface I {\n}\nstruct A {\n    i I\n}\n'), expected: ["5:7 unknown-type 'I' is an interface, not a type: use a struct or enum here"] },
  { name: 'error used as a type', source: ns('errors {\n    1 Gone "gone"\n}\nstruct A {\n    g Gone\n}\n'), expected: ["6:7 unknown-type 'Gone' is a declared error, not a type: use a struct or enum here"] },
  { name: 'extends an unknown struct', source: ns('struct A extends Missing {\n}\n'), expected: ["2:18 unknown-parent struct 'A' extends 'Missing', which is not declared"] },
  { name: 'extends an enum', source: ns('enum E {\n    x\n}\nstruct A extends E {\n}\n'), expected: ["5:18 extends-non-struct struct 'A' can only extend a struct, and 'E' is an enum"] },
  { name: 'extends itself', source: ns('struct A extends A {\n}\n'), expected: ["2:18 extends-cycle struct 'A' extends itself: A -> A"] },
  { name: 'extends cycle of three', source: ns('struct A extends C {\n}\nstruct B extends A {\n}\nstruct C extends B {\n}\n'), expected: ["2:18 extends-cycle struct 'A' extends itself: A -> C -> B -> A"] },
  { name: 'raises an undeclared error', source: ns('errors {\n    1 NotFound "x"\n}\ninterface I {\n    get() int raises(NotFund)\n}\n'), expected: ["6:22 unknown-error 'NotFund' is not a declared error; did you mean 'NotFound'?"] },
  { name: 'raises a struct', source: ns('struct A {\n}\ninterface I {\n    get() int raises(A)\n}\n'), expected: ["5:22 unknown-error 'A' is a struct, not a declared error: raises(...) lists names from an errors block"] },
  { name: 'raises the same error twice', source: ns('errors {\n    1 E "x"\n}\ninterface I {\n    get() int raises(E, E)\n}\n'), expected: ["6:25 duplicate-raises 'E' is listed twice in raises(...) of method 'get'"] },
  { name: 'struct requiring itself', source: ns('struct Node {\n    next Node\n}\n'), expected: ["3:5 field-cycle struct 'Node' can never be built: its required fields lead back to it (Node.next -> Node); mark one of them [optional]"] },
  { name: 'two structs requiring each other', source: ns('struct A {\n    b B\n}\nstruct B {\n    a A\n}\n'), expected: ["3:5 field-cycle struct 'A' can never be built: its required fields lead back to it (A.b -> B.a -> A); mark one of them [optional]"] },
  { name: 'cycle through an inherited field', source: ns('struct Base {\n    child Child\n}\nstruct Child extends Base {\n}\n'), expected: ["3:5 field-cycle struct 'Child' can never be built: its required fields lead back to it (Child.child -> Child); mark one of them [optional]"] },
];

/** Cycles that an [optional] field, an array or a map ends: valid. */
const validCycles = [
  ns('struct Node {\n    next Node [optional]\n}\n'),
  ns('struct Tree {\n    children []Tree\n}\n'),
  ns('struct Dir {\n    entries map[string]Dir\n}\n'),
  ns('struct A {\n    b B\n}\nstruct B {\n    a A [optional]\n}\n'),
];

function diagnosticsOf(source: string): string[] {
  return tryCompileIdl(source, 'broken.idl').diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
}

describe('broken IDL: syntax errors', () => {
  test.each(syntaxCases)('$name', ({ source, expected }) => {
    expect(diagnosticsOf(source)).toEqual(expected);
  });
});

describe('broken IDL: semantic errors', () => {
  test.each(semanticCases)('$name', ({ source, expected }) => {
    expect(diagnosticsOf(source)).toEqual(expected);
  });

  test('there are at least 40 broken cases in all', () => {
    expect(syntaxCases.length + semanticCases.length).toBeGreaterThanOrEqual(40);
  });
});

describe('cycles that can be built', () => {
  test.each(validCycles)('%s', (source) => {
    expect(diagnosticsOf(source)).toEqual([]);
  });
});

describe('reporting', () => {
  test('all errors of a file are reported at once, sorted by position', () => {
    const source = ns(
      [
        'struct A extends Nope {',
        '    x Unknown1',
        '    x int',
        '}',
        'enum E {',
        '    v',
        '    v',
        '}',
        'interface I {',
        '    m(p Unknown2) E raises(Missing)',
        '}',
        '',
      ].join('\n'),
    );
    expect(diagnosticsOf(source).map((d) => d.split(' ').slice(0, 2).join(' '))).toEqual([
      '2:18 unknown-parent',
      '3:7 unknown-type',
      '4:5 duplicate-field',
      '8:5 duplicate-enum-value',
      '11:9 unknown-type',
      '11:28 unknown-error',
    ]);
  });

  test('a syntax error names file:line:column and shows a code frame with a caret', () => {
    let error: unknown;
    try {
      parseIdl(ns('struct Cart {\n    items []\n}\n'), 'shop.idl');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IdlSyntaxError);
    const syntax = error as IdlSyntaxError;
    expect(syntax.diagnostic).toMatchObject({ file: 'shop.idl', line: 3, column: 13, code: 'syntax', severity: 'error' });
    expect(syntax.message).toBe(
      [
        `shop.idl:3:13: error: ${TYPE}`,
        '  1 | namespace shop',
        '  2 | struct Cart {',
        '> 3 |     items []',
        '    |             ^',
        '  4 | }',
      ].join('\n'),
    );
  });

  test('the caret underlines the whole offending token', () => {
    const lengths = (source: string) => tryCompileIdl(source, 'a.idl').diagnostics.map((d) => d.length);
    expect(lengths(ns('interface I {\n    get(id string [optional]) int\n}\n'))).toEqual([10]);
    expect(lengths(ns('struct A {\n    a int garbage\n}\n'))).toEqual([7]);
    expect(lengths(ns('struct A {\n    a\n}\n'))).toEqual([1]);
  });

  test('compileIdl throws every diagnostic with frames, and the caret spans the offending name', () => {
    const source = ns('struct A {\n    a Missing\n    b AlsoMissing\n}\n');
    let error: unknown;
    try {
      compileIdl(source, 'shop.idl');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IdlCompileError);
    const compile = error as IdlCompileError;
    expect(compile.diagnostics.map((d) => [d.line, d.column, d.length])).toEqual([
      [3, 7, 7],
      [4, 7, 11],
    ]);
    expect(compile.message).toContain("shop.idl:3:7: error: unknown type 'Missing'\n");
    expect(compile.message).toContain('> 4 |     b AlsoMissing\n    |       ^^^^^^^^^^^');
    expect(compile.message.endsWith('\n\n2 errors')).toBe(true);
  });
});

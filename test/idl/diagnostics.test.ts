import { describe, expect, test } from 'vitest';
import { IdlCompileError, IdlSyntaxError, compileIdl, parseIdl, tryCompileIdl } from '../../src/index.js';
import { type BrokenCase, TYPE, ns, syntaxCases } from './syntax-cases.js';

const semanticCases: BrokenCase[] = [
  { name: 'empty file', source: '', expected: ["1:1 missing-namespace missing namespace: start the file with 'namespace <name>'"] },
  {
    name: 'missing namespace',
    source: 'struct A {\n    a int\n}\n',
    expected: ["1:1 missing-namespace missing namespace: start the file with 'namespace <name>'"],
  },
  {
    name: 'duplicate struct',
    source: ns('struct A {\n}\nstruct A {\n}\n'),
    expected: ["4:8 duplicate-type 'A' is already declared as a struct on line 2"],
  },
  {
    name: 'enum and struct with the same name',
    source: ns('enum A {\n    x\n}\nstruct A {\n}\n'),
    expected: ["5:8 duplicate-type 'A' is already declared as an enum on line 2"],
  },
  {
    name: 'interface named like a struct',
    source: ns('struct A {\n}\ninterface A {\n}\n'),
    expected: ["4:11 duplicate-interface 'A' is already declared as a struct on line 2"],
  },
  {
    name: 'duplicate field',
    source: ns('struct A {\n    id int\n    id string\n}\n'),
    expected: ["4:5 duplicate-field field 'id' is already declared in struct 'A' on line 3"],
  },
  {
    name: 'field redeclared from the parent',
    source: ns('struct Base {\n    id int\n}\nstruct A extends Base {\n    id string\n}\n'),
    expected: ["6:5 duplicate-field field 'id' is already declared in parent struct 'Base' on line 3"],
  },
  {
    name: 'field redeclared from the grandparent',
    source: ns('struct Root {\n    id int\n}\nstruct Base extends Root {\n}\nstruct A extends Base {\n    id string\n}\n'),
    expected: ["8:5 duplicate-field field 'id' is already declared in parent struct 'Root' on line 3"],
  },
  {
    name: 'duplicate method',
    source: ns('interface I {\n    ping() int\n    ping() bool\n}\n'),
    expected: ["4:5 duplicate-method method 'ping' is already declared in interface 'I' on line 3"],
  },
  {
    name: 'duplicate parameter',
    source: ns('interface I {\n    add(a int, a int) int\n}\n'),
    expected: ["3:16 duplicate-parameter parameter 'a' appears twice in method 'add'"],
  },
  {
    name: 'duplicate enum value',
    source: ns('enum E {\n    a\n    b\n    a\n}\n'),
    expected: ["5:5 duplicate-enum-value enum value 'a' is already declared in enum 'E' on line 3"],
  },
  { name: 'empty enum', source: ns('enum E {\n}\n'), expected: ["2:6 empty-enum enum 'E' has no values: an enum needs at least one"] },
  {
    name: 'duplicate error name across blocks',
    source: ns('errors {\n    1 E "a"\n}\nerrors {\n    2 E "b"\n}\n'),
    expected: ["6:7 duplicate-error error 'E' is already declared on line 3"],
  },
  {
    name: 'duplicate error code',
    source: ns('errors {\n    1001 A "a"\n    1001 B "b"\n}\n'),
    expected: ["4:5 duplicate-error-code error code 1001 is already used by 'A' on line 3"],
  },
  {
    name: 'error code reserved by JSON-RPC',
    source: ns('errors {\n    -32601 A "a"\n}\n'),
    expected: ['3:5 error-code-reserved error code -32601 is reserved by JSON-RPC (-32768 to -32000): choose another code'],
  },
  {
    name: 'error code beyond safe integers',
    source: ns('errors {\n    9007199254740993 A "a"\n}\n'),
    expected: ['3:5 error-code-range error code 9007199254740993 is too large: use an integer within ±(2^53-1)'],
  },
  {
    name: 'unknown field type with a suggestion',
    source: ns('struct Product {\n}\nstruct A {\n    p Prodcut\n}\n'),
    expected: ["5:7 unknown-type unknown type 'Prodcut'; did you mean 'Product'?"],
  },
  {
    name: 'unknown type nested in map and array',
    source: ns('struct A {\n    m map[string][]Missing\n}\n'),
    expected: ["3:20 unknown-type unknown type 'Missing'"],
  },
  {
    name: 'unknown parameter and return types',
    source: ns('interface I {\n    get(id Id) Thing\n}\n'),
    expected: ["3:12 unknown-type unknown type 'Id'", "3:16 unknown-type unknown type 'Thing'"],
  },
  {
    name: 'interface used as a type',
    source: ns('interface I {\n}\nstruct A {\n    i I\n}\n'),
    expected: ["5:7 unknown-type 'I' is an interface, not a type: use a struct or enum here"],
  },
  {
    name: 'error used as a type',
    source: ns('errors {\n    1 Gone "gone"\n}\nstruct A {\n    g Gone\n}\n'),
    expected: ["6:7 unknown-type 'Gone' is a declared error, not a type: use a struct or enum here"],
  },
  {
    name: 'extends an unknown struct',
    source: ns('struct A extends Missing {\n}\n'),
    expected: ["2:18 unknown-parent struct 'A' extends 'Missing', which is not declared"],
  },
  {
    name: 'extends an enum',
    source: ns('enum E {\n    x\n}\nstruct A extends E {\n}\n'),
    expected: ["5:18 extends-non-struct struct 'A' can only extend a struct, and 'E' is an enum"],
  },
  { name: 'extends itself', source: ns('struct A extends A {\n}\n'), expected: ["2:18 extends-cycle struct 'A' extends itself: A -> A"] },
  {
    name: 'extends cycle of three',
    source: ns('struct A extends C {\n}\nstruct B extends A {\n}\nstruct C extends B {\n}\n'),
    expected: ["2:18 extends-cycle struct 'A' extends itself: A -> C -> B -> A"],
  },
  {
    name: 'raises an undeclared error',
    source: ns('errors {\n    1 NotFound "x"\n}\ninterface I {\n    get() int raises(NotFund)\n}\n'),
    expected: ["6:22 unknown-error 'NotFund' is not a declared error; did you mean 'NotFound'?"],
  },
  {
    name: 'raises a struct',
    source: ns('struct A {\n}\ninterface I {\n    get() int raises(A)\n}\n'),
    expected: ["5:22 unknown-error 'A' is a struct, not a declared error: raises(...) lists names from an errors block"],
  },
  {
    name: 'raises the same error twice',
    source: ns('errors {\n    1 E "x"\n}\ninterface I {\n    get() int raises(E, E)\n}\n'),
    expected: ["6:25 duplicate-raises 'E' is listed twice in raises(...) of method 'get'"],
  },
  {
    name: 'struct requiring itself',
    source: ns('struct Node {\n    next Node\n}\n'),
    expected: [
      "3:5 field-cycle struct 'Node' can never be built: its required fields lead back to it (Node.next -> Node); mark one of them [optional]",
    ],
  },
  {
    name: 'two structs requiring each other',
    source: ns('struct A {\n    b B\n}\nstruct B {\n    a A\n}\n'),
    expected: [
      "3:5 field-cycle struct 'A' can never be built: its required fields lead back to it (A.b -> B.a -> A); mark one of them [optional]",
    ],
  },
  {
    name: 'cycle through an inherited field',
    source: ns('struct Base {\n    child Child\n}\nstruct Child extends Base {\n}\n'),
    expected: [
      "3:5 field-cycle struct 'Child' can never be built: its required fields lead back to it (Child.child -> Child); mark one of them [optional]",
    ],
  },
  {
    name: 'suggestion: the first declared of two equally close names',
    source: ns('struct Cart {\n}\nstruct Card {\n}\nstruct A {\n    c Carx\n}\n'),
    expected: ["7:7 unknown-type unknown type 'Carx'; did you mean 'Cart'?"],
  },
  {
    name: 'suggestion: a swap of two letters is one edit',
    source: ns('struct Order {\n}\nstruct A {\n    o Odrer\n}\n'),
    expected: ["5:7 unknown-type unknown type 'Odrer'; did you mean 'Order'?"],
  },
  {
    name: 'suggestion: none for a name longer than 64 characters',
    source: ns(`struct ${'A'.repeat(65)} {\n}\nstruct B {\n    a ${'A'.repeat(64)}B\n}\n`),
    expected: [`5:7 unknown-type unknown type '${'A'.repeat(64)}B'`],
  },
  {
    name: 'extends cycle of nine: the path is shortened',
    source: ns(Array.from({ length: 9 }, (_, i) => `struct S${i} extends S${(i + 1) % 9} {\n}\n`).join('')),
    expected: ["2:19 extends-cycle struct 'S0' extends itself: S0 -> S1 -> S2 -> S3 -> ... (2 more) ... -> S6 -> S7 -> S8 -> S0"],
  },
  {
    name: 'extends cycle of eight: the path is whole',
    source: ns(Array.from({ length: 8 }, (_, i) => `struct S${i} extends S${(i + 1) % 8} {\n}\n`).join('')),
    expected: ["2:19 extends-cycle struct 'S0' extends itself: S0 -> S1 -> S2 -> S3 -> S4 -> S5 -> S6 -> S7 -> S0"],
  },
  {
    name: 'extends cycle reported at its first struct in source order',
    source: ns('struct Top extends B {\n}\nstruct B extends A {\n}\nstruct A extends B {\n}\n'),
    expected: ["4:18 extends-cycle struct 'B' extends itself: B -> A -> B"],
  },
  {
    name: 'field cycle through a chain of parents',
    source: ns('struct Root {\n    leaf Leaf\n}\nstruct Mid extends Root {\n}\nstruct Leaf extends Mid {\n}\n'),
    expected: [
      "3:5 field-cycle struct 'Leaf' can never be built: its required fields lead back to it (Leaf.leaf -> Leaf); mark one of them [optional]",
    ],
  },
  {
    name: 'field cycle: one report for structs that all lead back to each other',
    source: ns('struct Hub {\n    a A\n    b B\n}\nstruct A {\n    hub Hub\n}\nstruct B {\n    hub Hub\n}\n'),
    expected: [
      "3:5 field-cycle struct 'Hub' can never be built: its required fields lead back to it (Hub.a -> A.hub -> Hub); mark one of them [optional]",
    ],
  },
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
    expect(lengths(ns('interface I {\n    get(id string optional) int\n}\n'))).toEqual([8]);
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

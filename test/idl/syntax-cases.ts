/**
 * IDL inputs with exactly one syntax error each, and the diagnostic each must produce. Shared by
 * diagnostics.test.ts (the message and position) and syntax-recovery.test.ts (recovery adds no
 * second, cascading error).
 */
/** Prefixes a file with `namespace shop` so the cases stay short; line numbers count it. */
export const ns = (body: string) => `namespace shop\n${body}`;

export interface BrokenCase {
  name: string;
  source: string;
  /** Every expected diagnostic as `line:column code message`, in report order. */
  expected: string[];
}

export const TYPE = 'expected a type such as string, int, float, bool, []T, map[string]T or a struct or enum name';
export const LONE_CR = 'a carriage return (CR) must be followed by a line feed (LF): end lines with LF or CRLF';
export const RETURN_TYPE = 'expected a return type such as string, int, float, bool, []T, map[string]T or a struct or enum name';

export const syntaxCases: BrokenCase[] = [
  {
    name: 'lone carriage return ending a comment',
    source: ns('// hello\rworld\nstruct A {\n    a int\n}\n'),
    expected: [`2:9 syntax ${LONE_CR}`],
  },
  { name: 'lone carriage return after a field', source: ns('struct A {\n    a int\r    b int\n}\n'), expected: [`3:10 syntax ${LONE_CR}`] },
  { name: 'lone carriage return in an error message', source: ns('errors {\n    1 E "a\rb"\n}\n'), expected: [`3:11 syntax ${LONE_CR}`] },
  {
    name: 'lone carriage return in a parameter list',
    source: ns('interface I {\n    m(a int,\r b int) int\n}\n'),
    expected: [`3:13 syntax ${LONE_CR}`],
  },
  {
    name: 'unknown top-level word',
    source: 'namespace shop\ntype Foo {\n}\n',
    expected: ['2:1 syntax expected a declaration (namespace, import, enum, struct, union, errors or interface)'],
  },
  { name: 'namespace without a name', source: 'namespace\n', expected: ['1:10 syntax expected a namespace name'] },
  {
    name: 'reserved word as namespace',
    source: 'namespace struct\n',
    expected: ["1:11 syntax 'struct' is a reserved word and cannot be used as a name"],
  },
  {
    name: 'second namespace',
    source: ns('namespace other\n'),
    expected: ['2:1 syntax the namespace must be declared once, before every other declaration'],
  },
  {
    name: 'namespace after a declaration',
    source: 'enum E {\n    a\n}\nnamespace shop\n',
    expected: ['4:1 syntax the namespace must be declared once, before every other declaration'],
  },
  { name: 'text after the namespace name', source: 'namespace shop v2\n', expected: ['1:16 syntax expected the end of the line'] },
  { name: 'field without a type', source: ns('struct A {\n    id\n}\n'), expected: [`3:7 syntax ${TYPE}`] },
  { name: 'number as a field type', source: ns('struct A {\n    id 42\n}\n'), expected: [`3:8 syntax ${TYPE}`] },
  {
    name: 'reserved word as a field name',
    source: ns('struct A {\n    string string\n}\n'),
    expected: ["3:5 syntax 'string' is a reserved word and cannot be used as a name"],
  },
  {
    name: 'reserved word as a type name',
    source: ns('struct A {\n    a int\n}\nstruct map {\n}\n'),
    expected: ["5:8 syntax 'map' is a reserved word and cannot be used as a name"],
  },
  {
    name: 'field name starting with a digit',
    source: ns('struct A {\n    1st string\n}\n'),
    expected: ["3:5 syntax expected a field name or '}'"],
  },
  {
    name: 'two fields on one line',
    source: ns('struct A {\n    a int b int\n}\n'),
    expected: ["3:11 syntax expected '[optional]' or the end of the line"],
  },
  {
    name: 'struct without a closing brace at end of file',
    source: ns('struct A {\n    a int\n'),
    expected: ["4:1 syntax unexpected end of file: expected a field name or '}'"],
  },
  {
    name: 'struct without a closing brace before the next struct',
    source: ns('struct A {\n    a int\nstruct B {\n}\n'),
    expected: ["4:1 syntax expected '}' to close struct A (line 2) before this 'struct'"],
  },
  {
    name: 'enum without a closing brace before an interface',
    source: ns('enum E {\n    a\ninterface I {\n}\n'),
    expected: ["4:1 syntax expected '}' to close enum E (line 2) before this 'interface'"],
  },
  { name: 'struct without a name', source: ns('struct {\n}\n'), expected: ['2:8 syntax expected a struct name'] },
  { name: 'struct header without a brace', source: ns('struct A\n    a int\n}\n'), expected: ["2:9 syntax expected 'extends' or '{'"] },
  { name: 'misspelled extends', source: ns('struct A extend B {\n}\n'), expected: ["2:10 syntax expected 'extends' or '{'"] },
  {
    name: 'extends without a parent',
    source: ns('struct A extends {\n}\n'),
    expected: ['2:18 syntax expected the name of the struct to extend'],
  },
  { name: 'array without element type', source: ns('struct A {\n    a []\n}\n'), expected: [`3:9 syntax ${TYPE}`] },
  {
    name: 'map with int keys',
    source: ns('struct A {\n    a map[int]string\n}\n'),
    expected: ['3:11 syntax map keys must be string: write map[string]T'],
  },
  { name: 'map without value type', source: ns('struct A {\n    a map[string]\n}\n'), expected: [`3:18 syntax ${TYPE}`] },
  { name: 'map without brackets', source: ns('struct A {\n    a map string\n}\n'), expected: ["3:11 syntax expected '['"] },
  { name: 'two values on one enum line', source: ns('enum E {\n    a b\n}\n'), expected: ['3:7 syntax expected the end of the line'] },
  { name: 'enum value starting with a digit', source: ns('enum E {\n    1a\n}\n'), expected: ["3:5 syntax expected an enum value or '}'"] },
  {
    name: 'error without a message',
    source: ns('errors {\n    1001 Missing\n}\n'),
    expected: ['3:17 syntax expected a quoted message such as "cart does not exist"'],
  },
  {
    name: 'error message without closing quote',
    source: ns('errors {\n    1001 Missing "not there\n}\n'),
    expected: ['3:18 syntax the message has no closing quote (")'],
  },
  {
    name: 'unknown escape in an error message',
    source: ns('errors {\n    1001 Missing "a\\tb"\n}\n'),
    expected: ['3:20 syntax unknown escape in a message: only \\" and \\\\ are allowed'],
  },
  {
    name: 'error with a name where the code belongs',
    source: ns('errors {\n    Missing 1001 "x"\n}\n'),
    expected: ["3:5 syntax expected an error code (an integer) or '}'"],
  },
  { name: 'method without a return type', source: ns('interface I {\n    ping()\n}\n'), expected: [`3:11 syntax ${RETURN_TYPE}`] },
  {
    name: 'parameters without a comma',
    source: ns('interface I {\n    add(a int b int) int\n}\n'),
    expected: ["3:15 syntax expected ',', ')' or '[optional]'"],
  },
  { name: 'parameter without a type', source: ns('interface I {\n    get(id) int\n}\n'), expected: [`3:11 syntax ${TYPE}`] },
  { name: 'method without parentheses', source: ns('interface I {\n    ping int\n}\n'), expected: ["3:10 syntax expected '('"] },
  {
    name: 'empty raises list',
    source: ns('interface I {\n    ping() int raises()\n}\n'),
    expected: ['3:23 syntax expected the name of a declared error'],
  },
  {
    name: 'raises before [optional]',
    source: ns('errors {\n    1 E "e"\n}\ninterface I {\n    ping() int raises(E) [optional]\n}\n'),
    expected: ['6:26 syntax expected the end of the line'],
  },
  {
    name: 'reserved word as a method name',
    source: ns('interface I {\n    import() int\n}\n'),
    expected: ["3:5 syntax 'import' is a reserved word and cannot be used as a name"],
  },
  { name: 'text after a closing brace', source: ns('struct A {\n} extra\n'), expected: ['3:3 syntax expected the end of the line'] },
  {
    name: 'a type nested deeper than 100 levels',
    source: ns(`struct A {\n    a ${'[]'.repeat(5000)}int\n}\n`),
    expected: ['3:7 syntax this type is nested more than 100 levels deep'],
  },
  {
    name: 'stray closing brace',
    source: ns('}\n'),
    expected: ['2:1 syntax expected a declaration (namespace, import, enum, struct, union, errors or interface)'],
  },
];

/**
 * IDL files of a given size in the shapes that once made the checker slow, eat memory or overflow
 * the stack. Shared by test/hostile/checker.test.ts (correct result, bounded output) and the compiler
 * benchmark (time grows linearly with `n`). Each returns the file's lines, `namespace hostile` first.
 */

/** `struct S<i> extends S<i-1>`, each struct with one field of its own. */
export function extendsChain(n: number): string[] {
  const lines = ['namespace hostile', 'struct S0 {', '    f0 int', '}'];
  for (let i = 1; i < n; i++) lines.push(`struct S${i} extends S${i - 1} {`, `    f${i} int`, '}');
  return lines;
}

/** `struct S<i> extends S<i+1>`, the last extending S0: one cycle of `n` structs. */
export function extendsCycle(n: number): string[] {
  const lines = ['namespace hostile'];
  for (let i = 0; i < n; i++) lines.push(`struct S${i} extends S${(i + 1) % n} {`, `    f${i} int`, '}');
  return lines;
}

/** `S<i>` has a required field `next S<i+1>`; the last one's is `last` (`int` ends the chain). */
export function requiredFieldChain(n: number, last: string): string[] {
  const lines = ['namespace hostile'];
  for (let i = 0; i < n; i++) lines.push(`struct S${i} {`, `    next ${i + 1 < n ? `S${i + 1}` : last}`, '}');
  return lines;
}

/** `n` structs `Type<i>`, each with a field of the mistyped type `Typo<i>`: `n` unknown names. */
export function mistypedNames(n: number): string[] {
  const lines = ['namespace hostile'];
  for (let i = 0; i < n; i++) lines.push(`struct Type${i} {`, `    f Typo${i}`, '}');
  return lines;
}

/** One struct whose `n` fields each have an undeclared type `Missing<i>`. */
export function unknownTypes(n: number): string[] {
  return ['namespace hostile', 'struct S {', ...numbered(n, (i) => `    f${i} Missing${i}`), '}'];
}

export function bigEnum(n: number): string[] {
  return ['namespace hostile', 'enum E {', ...numbered(n, (i) => `    v${i}`), '}'];
}

export function bigStruct(n: number): string[] {
  return ['namespace hostile', 'struct S {', ...numbered(n, (i) => `    f${i} int`), '}'];
}

export function bigInterface(n: number): string[] {
  return ['namespace hostile', 'interface I {', ...numbered(n, (i) => `    m${i}() int`), '}'];
}

export function bigErrors(n: number): string[] {
  return ['namespace hostile', 'errors {', ...numbered(n, (i) => `    ${i + 1} E${i} "failed"`), '}'];
}

/** One struct of `n` fields, each with a full, valid attribute list and a default to judge. */
export function attributedStruct(n: number): string[] {
  const field = (i: number) => `    f${i} []int [optional, default=[1, 2, 3], min=0, max=9, multipleOf=1, minItems=1, maxItems=3]`;
  return ['namespace hostile', 'struct S {', ...numbered(n, field), '}'];
}

/**
 * Attribute mistakes in bulk: `n` fields each with a mistyped attribute name `mni<i>` (a suggestion
 * to look for each), one list of `n` repeated `min=1` items, and one method whose one optional
 * parameter comes before `n` required ones.
 */
export function attributeMistakes(n: number): string[] {
  const repeated = Array.from({ length: n }, () => 'min=1').join(', ');
  const parameters = ['first int [optional]', ...numbered(n, (i) => `p${i} int`)].join(', ');
  return [
    'namespace hostile',
    'struct S {',
    ...numbered(n, (i) => `    f${i} int [mni${i}=1]`),
    `    repeated int [${repeated}]`,
    '}',
    'interface I {',
    `    m(${parameters}) int`,
    '}',
  ];
}

function numbered(n: number, line: (i: number) => string): string[] {
  return Array.from({ length: n }, (_, i) => line(i));
}

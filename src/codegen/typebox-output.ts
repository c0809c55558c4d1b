/**
 * The one place that reads TypeBox's compiler output (`TypeCompiler.Code`). The generator takes that
 * text apart (variables, named checks, the final check) to share pieces between validators, which
 * depends on how TypeBox prints its code: that shape is pinned to the TypeBox line it was written
 * for, and a different line fails here, by name, instead of producing broken validators.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { dependencyPackage } from '../own-package.js';
import { CodegenError } from './names.js';
import { ANCHOR_CHARACTERS } from './source-anchor.js';

/** The TypeBox release line whose compiler output this file parses. */
export const SUPPORTED_TYPEBOX_LINE = '0.34.';

let checkedVersion = false;

function assertSupportedTypeBox(): void {
  if (checkedVersion) return;
  const { version } = dependencyPackage('@sinclair/typebox').manifest;
  if (!version.startsWith(SUPPORTED_TYPEBOX_LINE)) {
    throw new CodegenError(
      `@sinclair/typebox ${version} is installed, but the generator reads the compiler output of ${SUPPORTED_TYPEBOX_LINE}x: install @sinclair/typebox@0.34`,
    );
  }
  checkedVersion = true;
}

/** One `TypeCompiler.Code` output, split into its top-level statements. */
export interface CompiledParts {
  /** `const local_N = ...` variables, in TypeBox's order. */
  variables: { name: string; expression: string }[];
  /** `function check_<Id>(value) {...}`, one per named schema reached. */
  functions: { name: string; text: string }[];
  /** The final `return function check(...) {...}`, without `return `. */
  check: string;
}

/** The alias a named schema is compiled under: TypeBox names its check `check_T<index>`. */
export const alias = (index: number) => `T${index}`;
/** A call or declaration of an aliased check in TypeBox's output (not a quoted field name). */
export const ALIASED_CHECK = /(?<![\w'$])check_T(\d+)\b(?!')/g;
/** A `local_N` variable of TypeBox's output, not inside quotes (a field may be called `local_0`). */
export const LOCAL_VARIABLE = /(?<![\w'])local_\d+\b(?!')/g;

/**
 * The characters that mark source anchors, as TypeBox may write them: it prints a `pattern` as a
 * regular expression literal, control characters and all.
 */
const RAW_ANCHOR_CHARACTERS = new RegExp(ANCHOR_CHARACTERS.source, 'g');

/**
 * TypeBox's standalone code for `schema` (`references` resolve its `$ref`s). TypeScript output gets
 * two repairs for `strict`: TypeBox annotates `for (const value: any of ...)`, which TypeScript
 * rejects (the type is inferred anyway), and `Object.entries` of a map would give `unknown` values.
 * A source anchor character from a user's `pattern` is written `\xNN`, which means the same in a
 * regular expression or a string (IDL patterns are checked with the `u` flag, where no backslash may
 * stand before a control character), so that it cannot pose as a marker.
 */
export function compiledCode(schema: TSchema, references: TSchema[], language: 'javascript' | 'typescript'): string {
  assertSupportedTypeBox();
  const code = TypeCompiler.Code(schema, references, { language }).replace(RAW_ANCHOR_CHARACTERS, hexEscape);
  return language === 'typescript'
    ? code.replace(/for\(const (\w+): any of /g, 'for(const $1 of ').replace(/Object\.entries\(/g, 'Object.entries<any>(')
    : code;
}

/** `\xNN` for a character below U+0100. */
function hexEscape(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** Splits compiled code into its variables, named check functions and final check. */
export function splitCompiled(code: string): CompiledParts {
  const statements: string[] = [];
  for (const line of code.split('\n')) {
    if (/^(const |function |return )/.test(line)) statements.push(line);
    else if (statements.length > 0) statements[statements.length - 1] += `\n${line}`;
    else throw new CodegenError(`unexpected TypeBox compiler output: ${line}`);
  }
  const parts: CompiledParts = { variables: [], functions: [], check: '' };
  for (const statement of statements) {
    const variable = /^const (local_\d+) = (.*)$/.exec(statement);
    const fn = /^function (check_\w+)\(/.exec(statement);
    // TypeBox ends a `Type.RegExp` variable's expression with its own `;` (one more is printed).
    if (variable) parts.variables.push({ name: variable[1], expression: variable[2].replace(/;$/, '') });
    else if (fn) parts.functions.push({ name: fn[1], text: statement });
    else if (statement.startsWith('return function check(')) parts.check = statement.slice('return '.length);
    else throw new CodegenError(`unexpected TypeBox compiler output: ${statement}`);
  }
  if (!parts.check) throw new CodegenError('TypeBox compiler output has no check function');
  return parts;
}

/** Whether compiled check code needs TypeBox's run-time helpers (custom kinds, formats, `uniqueItems`). */
export function needsRuntimeHelpers(text: string): boolean {
  return /\b(kind|format|hash)\(/.test(text);
}

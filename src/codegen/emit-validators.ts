/**
 * The validators of `types.ts`, with checks compiled ahead of time by TypeBox's `TypeCompiler.Code`
 * from the runtime's own schemas, so the generated code needs no `eval` at run time.
 *
 * TypeBox compiles each schema into standalone code: `const local_N = ...` variables, one
 * `function check_<Id>` per named schema it reaches, then `return function check(value) {...}`. Compiled
 * one validator at a time, the check of a struct would be repeated in every validator that reaches it,
 * so the pieces are split apart and each variable and named check is emitted once, shared by all.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { TypeRef } from '../idl/ast.js';
import { typeText } from '../idl/json.js';
import type { IdlModel } from '../idl/model.js';
import type { IdlSchemas } from '../../runtime/schema.js';
import type { Declaration, Use } from './declarations.js';
import { CodegenError, schemaName, uniqueName } from './names.js';
import { docComment, indent, stringLiteral } from './source-text.js';
import { nullableSchemaSource, schemaSource, typeLabel } from './type-mapping.js';

export const SCHEMA_REFERENCES = 'schemaReferences';
export const VALIDATORS = 'validators';

const typeboxValidator: Use = { from: 'runtime', name: 'typeboxValidator', typeOnly: false };

/** TypeScript and JavaScript forms of one piece of compiled code. */
interface Both {
  ts: string;
  js: string;
}

/** One `TypeCompiler.Code` output, split into its top-level statements. */
interface CompiledParts {
  variables: { name: string; expression: string }[];
  functions: { name: string; text: string }[];
  /** The final `return function check(...) {...}`, without `return `. */
  check: string;
}

function splitCompiled(code: string): CompiledParts {
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
    if (variable) parts.variables.push({ name: variable[1], expression: variable[2] });
    else if (fn) parts.functions.push({ name: fn[1], text: statement });
    else if (statement.startsWith('return function check(')) parts.check = statement.slice('return '.length);
    else throw new CodegenError(`unexpected TypeBox compiler output: ${statement}`);
  }
  if (!parts.check) throw new CodegenError('TypeBox compiler output has no check function');
  return parts;
}

/** How TypeBox's compiler turns a schema `$id` into a function name suffix (alphanumerics kept). */
function encodeId(id: string): string {
  return id.replace(/[^A-Za-z0-9]/g, (char) => `_${char.charCodeAt(0)}_`).replace(/__/g, '_');
}

/**
 * Compiles checks for a module: every variable and named check function is declared once (in the
 * order first needed); each `compile` returns the expression of one check.
 */
class SharedChecks {
  readonly declarations: Declaration[] = [];
  private readonly variables = new Map<string, string>(); // expression -> shared name
  private readonly functions = new Set<string>();

  constructor(
    private readonly references: TSchema[],
    private readonly taken: Set<string>,
  ) {}

  /** The doc comment of a named check function: `check_Cart` checks a `Cart` against `CartSchema`. */
  private describe(functionName: string): string {
    const id = this.references.map((schema) => schema.$id as string).find((id) => `check_${encodeId(id)}` === functionName);
    return id ? `Whether a value is a valid \`${id}\` (see {@link ${schemaName(id)}}); compiled ahead of time by TypeBox.` : '';
  }

  /** The check of `schema`: the name of a shared function, or a function expression. */
  compile(schema: TSchema): Both {
    const js = splitCompiled(TypeCompiler.Code(schema, this.references, { language: 'javascript' }));
    if ([...js.functions.map((f) => f.text), js.check].some((text) => /\b(kind|format|hash)\(/.test(text))) {
      // TypeBox passes these helpers only for custom kinds, formats and `uniqueItems`, which IDL
      // schemas never produce; their code could not run without them.
      throw new CodegenError(`TypeBox compiled a check that needs run-time helpers: ${JSON.stringify(schema)}`);
    }
    // TypeBox's TypeScript needs two repairs for `strict`: it annotates `for (const value: any of ...)`,
    // which TypeScript rejects (the type is inferred anyway), and `Object.entries` of a map would give
    // `unknown` values.
    const ts = splitCompiled(
      TypeCompiler.Code(schema, this.references, { language: 'typescript' })
        .replace(/for\(const (\w+): any of /g, 'for(const $1 of ')
        .replace(/Object\.entries\(/g, 'Object.entries<any>('),
    );
    // Both languages list the same variables and functions in the same order.
    const rename = new Map<string, string>();
    for (const { name, expression } of js.variables) {
      let shared = this.variables.get(expression);
      if (!shared) {
        shared = uniqueName('keyPattern', this.taken);
        this.variables.set(expression, shared);
        this.declarations.push({
          kind: 'const', part: 'types', name: shared, doc: '', exported: false, uses: [],
          declaredType: 'RegExp', value: [expression],
        });
      }
      rename.set(name, shared);
    }
    // Not inside quotes: a struct field may be called `local_0` too (`value['local_0']`).
    const renamed = (text: string) => text.replace(/(?<![\w'])local_\d+\b(?!')/g, (local) => rename.get(local) ?? local);
    js.functions.forEach((fn, i) => {
      if (this.functions.has(fn.name)) return;
      this.functions.add(fn.name);
      this.taken.add(fn.name);
      this.declarations.push({
        kind: 'code', part: 'types', name: fn.name, exported: false, uses: [],
        doc: docComment(this.describe(fn.name)),
        code: [{ ts: renamed(ts.functions[i].text), js: renamed(fn.text) }],
      });
    });
    // A schema with an `$id` compiles to a check that only calls its named function: use that.
    const direct = /^function check\(value(?:: any)?\)(?:: boolean)? \{\n {2}return (check_\w+)\(value\)\n\}$/.exec(js.check);
    if (direct) return { ts: direct[1], js: direct[1] };
    return { ts: renamed(ts.check), js: renamed(js.check) };
  }
}

/**
 * The validator table of every method: one validator per distinct parameter or result type, shared
 * by the methods that use it, wrapping a compiled check with the runtime's `typeboxValidator`.
 */
export function validatorDeclarations(model: IdlModel, schemas: IdlSchemas, taken: Set<string>): Declaration[] {
  const referencesById = new Map(schemas.references.map((schema) => [schema.$id as string, schema]));
  const checks = new SharedChecks(schemas.references, taken);
  const validators: Declaration[] = [];
  const validatorsBySource = new Map<string, string>();

  const validatorOf = (type: TypeRef, optional: boolean, schema: TSchema): string => {
    // A bare named type is validated against its named schema; anything else against its own.
    const named = !optional && type.kind === 'named' ? type.name : undefined;
    const source = named ? schemaName(named) : optional ? nullableSchemaSource(type) : schemaSource(type);
    const existing = validatorsBySource.get(source);
    if (existing) return existing;
    const label = typeLabel(type, optional);
    const name = uniqueName(`${label[0].toLowerCase()}${label.slice(1)}Validator`, taken);
    validatorsBySource.set(source, name);
    const check = checks.compile(named ? referencesById.get(named)! : schema);
    const doc = docComment(`Validates \`${typeText(type)}${optional ? ' [optional]' : ''}\` values.`);
    const base = { kind: 'const', part: 'types', name, doc, exported: false, declaredType: 'Validator' } as const;
    if (named) {
      validators.push({ ...base, uses: [typeboxValidator], value: [`/*#__PURE__*/ typeboxValidator(${check.js}, ${source}, ${SCHEMA_REFERENCES})`] });
    } else {
      // The schema argument calls TypeBox, which a pure mark on the outer call alone would keep.
      const argument = (text: string) => indent(text, '    ').trimStart();
      validators.push({
        ...base,
        uses: [typeboxValidator, { from: 'typebox', name: 'Type', typeOnly: false }],
        value: [
          '/*#__PURE__*/ (() =>\n  typeboxValidator(\n    ',
          { ts: argument(check.ts), js: argument(check.js) },
          `,\n    ${argument(source)},\n    ${SCHEMA_REFERENCES},\n  ))()`,
        ],
      });
    }
    return name;
  };

  const entries: string[] = [];
  for (const iface of model.interfaces) {
    for (const method of iface.methods) {
      const key = `${iface.name.text}.${method.name.text}`;
      const methodSchemas = schemas.methods[key];
      const params = method.parameters.map((p, i) => validatorOf(p.type, false, methodSchemas.params[i]));
      const result = validatorOf(method.returnType, method.returnOptional, methodSchemas.result);
      entries.push(`  ${stringLiteral(key)}: { params: [${params.join(', ')}], result: ${result} },\n`);
    }
  }
  const table: Declaration = {
    kind: 'const',
    part: 'types',
    name: VALIDATORS,
    doc: docComment('The validators of every method, keyed `"<Interface>.<method>"`, with checks compiled ahead of time.'),
    exported: true,
    uses: [{ from: 'runtime', name: 'ValidatorTable', typeOnly: true }],
    annotation: 'ValidatorTable',
    declaredType: 'ValidatorTable',
    value: [entries.length === 0 ? '{}' : `{\n${entries.join('')}}`],
  };
  return [...checks.declarations, ...validators, table];
}

/**
 * The validators of `types.ts`, with checks compiled ahead of time by TypeBox's `TypeCompiler.Code`
 * from the runtime's own schemas, so the generated code needs no `eval` at run time.
 *
 * TypeBox compiles each schema into standalone code: `const local_N = ...` variables, one
 * `function check_<Id>` per named schema it reaches, then `return function check(value) {...}`. Compiled
 * one validator at a time, the check of a struct would be repeated in every validator that reaches it,
 * so the pieces are split apart and each variable and named check is emitted once, shared by all.
 *
 * TypeBox is given the named schemas under aliases local to each schema (`T0` its own, `T1`, ... those
 * it refers to; its own names for checks are not one-to-one: `a___` and `a_95_` would both be
 * `check_a_95_95_95_`), and the checks are renamed to `check_<Name>`, unique among all generated
 * names. TypeBox's code is cached by the schema's canonical text (compiled-check-cache.ts): types
 * of one shape, and every unchanged type when an IDL is generated again, are compiled once.
 */
import type { TSchema } from '@sinclair/typebox';
import type { TypeRef } from '../idl/ast.js';
import { printType } from '../idl/format.js';
import type { IdlModel } from '../idl/model.js';
import type { IdlSchemas } from '../../runtime/schema.js';
import { type Code, type Declaration, typeOnly, type Use } from './declarations.js';
import { CodegenError, SCHEMA_REFERENCES, uniqueName, VALIDATORS, type TypeScriptNames } from './names.js';
import { type Both, ProblemWalkers, walkerUses } from './emit-problem-walkers.js';
import { docComment, indent, propertyKey, stringLiteral } from './source-text.js';
import { constrainedSource, constrainedUses, schemaSource, typeLabel } from './type-mapping.js';
import type { Attribute } from '../idl/ast.js';
import { ALIASED_CHECK, LOCAL_VARIABLE, needsRuntimeHelpers, splitCompiled } from './typebox-output.js';
import { compileCached } from './compiled-check-cache.js';
import { keepPrinted } from './print.js';

const generatedValidator: Use = { from: 'runtime', name: 'generatedValidator', typeOnly: false };
const validatorType: Use = { from: 'runtime', name: 'Validator', typeOnly: true };

/** The `$ref`s a schema contains (not those of the schemas they name), in order of first appearance. */
function directReferences(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) directReferences(item, found);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') found.add(value);
      else directReferences(value, found);
    }
  }
  return found;
}

/** One schema compiled on its own, in one language. */
interface Piece {
  /** `local_N` variables in TypeBox's order (numbered per compile). */
  variables: { name: string; expression: string }[];
  /** The named check function of a named schema, or the `function check(...)` of any other. */
  text: string;
}

/**
 * TypeScript output of a piece, produced the first time it is read: `generateModule` prints
 * JavaScript only and never pays for it.
 */
function lazyBoth(js: string, ts: () => string): Both {
  let cached: string | undefined;
  return {
    js,
    get ts() {
      return (cached ??= ts());
    },
  };
}

/**
 * The declaration of a named check. Its TypeScript form is made when first printed, from its
 * arguments alone: a declaration kept for later generations (CHECK_RECORDS) must hold no
 * generation's state (a closure made where `this` is in scope would hold the whole generation).
 */
function checkDeclaration(
  name: string,
  doc: string,
  javaScript: string,
  schema: TSchema,
  names: readonly string[],
  rename: (text: string) => string,
): Declaration {
  return {
    kind: 'code',
    part: 'types',
    name,
    exported: false,
    uses: [],
    doc,
    code: [lazyBoth(javaScript, () => rename(typeScriptPiece(schema, names)))],
  };
}

/**
 * The TypeScript text of a named schema's check: TypeBox's code with its aliases renamed to `names`
 * (by alias index). Reads nothing but its arguments, so a declaration kept for later generations
 * holds no generation's state.
 */
function typeScriptPiece(schema: TSchema, names: readonly string[]): string {
  const { code } = compileCached(schema, 'typescript');
  const parts = splitCompiled(code.replace(ALIASED_CHECK, (_call, index: string) => names[Number(index)]));
  return parts.functions[0].text;
}

/** A named schema's check as compiled in an earlier generation, for compiling it again (CHECK_RECORDS). */
interface CheckRecord {
  /** The `$id`s TypeBox's code named, and each one's check name, in the order the code was renamed. */
  renamed: readonly { id: string; name: string }[];
  compiled: { piece: Piece; calls: string[] };
  /** Its declaration, with what its text was made of: its name, doc comment and shared variables. */
  declared?: { name: string; doc: string; variables: string; declaration: Declaration };
}

/**
 * The latest check compiled from each schema object: a dev server regenerating an edited file gets
 * the unchanged types' schemas as the same objects (interned-schemas.ts). A check whose renamed calls
 * answer as they did (asked again in their order, as compiling would) is the same check.
 */
const CHECK_RECORDS = new WeakMap<TSchema, CheckRecord>();

/** How many named check declarations were taken from CHECK_RECORDS, and how many made to be remembered (tests read it). */
export const checkMemoStats = { reused: 0, remembered: 0 };

/**
 * Compiles checks for a module: every variable and named check function is declared once (in the
 * order first needed); each `compile` returns the expression of one check.
 *
 * Each named schema is compiled ONCE, on its own: the schemas it references are given to TypeBox
 * as `Type.Unknown({ $id })` stand-ins, so TypeBox emits only the calls `check_<Name>(...)` (their
 * check functions are compiled on their own in turn) and never re-validates or re-emits everything a
 * schema reaches. TypeBox compiles a reference to a call whatever the referenced schema is, so the
 * pieces are exactly what one compile over all the real references would give.
 */
class SharedChecks {
  readonly declarations: Declaration[] = [];
  private readonly variables = new Map<string, string>(); // expression -> shared name
  private readonly declaredChecks = new Set<string>(); // `$id`s whose check function is declared
  private readonly referencesById: Map<string, TSchema>;
  /** The generated name of each named schema's check reached so far, by `$id`. */
  private readonly checkNames = new Map<string, string>();
  private readonly idsByCheckName = new Map<string, string>();
  /** Named schemas compiled so far (JavaScript), by `$id`. */
  private readonly named = new Map<string, { piece: Piece; calls: string[] }>();

  constructor(
    references: TSchema[],
    private readonly names: TypeScriptNames,
    private readonly taken: Set<string>,
    /** Reuse and remember named checks across generations (CHECK_RECORDS): a file generated again and again. */
    private readonly remember = false,
  ) {
    this.referencesById = new Map(references.map((schema) => [schema.$id as string, schema]));
  }

  /**
   * The name of a named schema's check, made up when first asked for: a schema no validator reaches
   * takes no name, so that the validators depend on the reached schemas alone (phase-memo.ts).
   */
  checkName(id: string): string {
    let name = this.checkNames.get(id);
    if (name === undefined) {
      name = uniqueName(`check_${id.replaceAll('.', '_')}`, this.taken);
      this.checkNames.set(id, name);
      this.idsByCheckName.set(name, id);
    }
    return name;
  }

  /** The doc comment of a named check function: `check_Cart` checks a `Cart` against `CartSchema`. */
  private describe(id: string): string {
    return `Whether a value is a valid \`${this.names.declared(id)}\` (see {@link ${this.names.schema(id)}}); compiled ahead of time by TypeBox.`;
  }

  /**
   * Compiles `schema` alone. Returns its piece and the named schemas it calls, in TypeBox's order.
   * A named schema's own check is its first function; the others are the stand-ins'.
   */
  private compileAlone(
    schema: TSchema,
    language: 'javascript' | 'typescript',
    renamed?: { id: string; name: string }[],
  ): { piece: Piece; calls: string[] } {
    const { code: compiled, ids } = compileCached(schema, language);
    for (const id of ids.slice(1)) if (!this.referencesById.has(id)) throw new CodegenError(`schema refers to unknown type ${id}`);
    const code = compiled.replace(ALIASED_CHECK, (_call, index: string) => {
      const id = ids[Number(index)];
      const name = this.checkName(id);
      renamed?.push({ id, name });
      return name;
    });
    const parts = splitCompiled(code);
    const own = typeof schema.$id === 'string' ? parts.functions[0] : undefined;
    const text = own ? own.text : parts.check;
    if (language === 'javascript' && needsRuntimeHelpers(text)) {
      // TypeBox passes these helpers only for custom kinds, formats and `uniqueItems`, which IDL
      // schemas never produce; their code could not run without them.
      throw new CodegenError(`TypeBox compiled a check that needs run-time helpers: ${JSON.stringify(schema)}`);
    }
    const calls = parts.functions.filter((fn) => fn !== own).map((fn) => this.idsByCheckName.get(fn.name)!);
    return { piece: { variables: parts.variables, text }, calls };
  }

  private compileNamed(id: string): { piece: Piece; calls: string[] } {
    let compiled = this.named.get(id);
    if (!compiled) {
      const schema = this.referencesById.get(id)!;
      compiled = this.remember ? this.compileRemembered(schema) : this.compileAlone(schema, 'javascript');
      this.named.set(id, compiled);
    }
    return compiled;
  }

  /** `compileAlone(schema, 'javascript')`, from CHECK_RECORDS when its renamed calls answer as recorded. */
  private compileRemembered(schema: TSchema): { piece: Piece; calls: string[] } {
    const record = CHECK_RECORDS.get(schema);
    if (record?.renamed.every(({ id, name }) => this.checkName(id) === name)) return record.compiled;
    const renamed: { id: string; name: string }[] = [];
    const compiled = this.compileAlone(schema, 'javascript', renamed);
    CHECK_RECORDS.set(schema, { renamed, compiled });
    return compiled;
  }

  /**
   * The declaration of the named check of `id`, called `name`, whose text `rename` gives its shared
   * variables' names (listed in `variables`): the one of an earlier generation when all of that is
   * as it was.
   */
  private namedCheckDeclaration(id: string, name: string, rename: (text: string) => string, variables: string): Declaration {
    const schema = this.referencesById.get(id)!;
    const doc = docComment(this.describe(id));
    const record = this.remember ? CHECK_RECORDS.get(schema) : undefined;
    const kept = record?.declared;
    if (kept && kept.name === name && kept.doc === doc && kept.variables === variables) {
      checkMemoStats.reused++;
      return kept.declaration;
    }
    const javaScript = rename(this.compileNamed(id).piece.text);
    const declaration = checkDeclaration(name, doc, javaScript, schema, this.checkNamesOf(schema), rename);
    if (record) {
      checkMemoStats.remembered++;
      record.declared = { name, doc, variables, declaration };
      keepPrinted([declaration]);
    }
    return declaration;
  }

  /**
   * Declares the variables of a piece that are not declared yet and returns the piece's text with
   * its `local_N` renamed to the shared names.
   */
  private share(piece: Piece): (text: string) => string {
    return this.shareNamed(piece).rename;
  }

  /**
   * The check names of the `$id`s TypeBox's code of `schema` refers to, by alias index: those the
   * JavaScript form was given (TypeBox gives the TypeScript form the same aliases).
   */
  private checkNamesOf(schema: TSchema): string[] {
    return compileCached(schema, 'javascript').ids.map((referenced) => this.checkName(referenced));
  }

  /** {@link share}, with the shared names the piece's variables got, in order (one text). */
  private shareNamed(piece: Piece): { rename: (text: string) => string; variables: string } {
    const rename = new Map<string, string>();
    for (const { name, expression } of piece.variables) {
      let shared = this.variables.get(expression);
      if (!shared) {
        shared = uniqueName('keyPattern', this.taken);
        this.variables.set(expression, shared);
        this.declarations.push({
          kind: 'const',
          part: 'types',
          name: shared,
          doc: '',
          exported: false,
          uses: [],
          declaredType: 'RegExp',
          value: [expression],
        });
      }
      rename.set(name, shared);
    }
    return {
      rename: (text) => text.replace(LOCAL_VARIABLE, (local) => rename.get(local) ?? local),
      variables: [...rename.values()].join(' '),
    };
  }

  /** The check of `schema`: the name of a shared function, or a function expression. */
  compile(schema: TSchema): Both {
    const id = typeof schema.$id === 'string' ? schema.$id : undefined;
    const top = id === undefined ? this.compileAlone(schema, 'javascript') : undefined;
    // The named checks this one reaches and that are not declared yet, depth first in the order
    // TypeBox visits them (the order one compile over all references would declare them in).
    // A stack, not recursion: an `extends` chain thousands of structs long is that deep.
    const reached: string[] = [];
    const seen = new Set<string>();
    const stack = [...(id !== undefined ? [id] : top!.calls)].reverse();
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (this.declaredChecks.has(name) || seen.has(name)) continue;
      seen.add(name);
      reached.push(name);
      stack.push(...[...this.compileNamed(name).calls].reverse());
    }
    // Variables first, then functions, as TypeBox declares them.
    const renameTop = top ? this.share(top.piece) : undefined;
    const renames = reached.map((name) => this.shareNamed(this.compileNamed(name).piece));
    reached.forEach((name, i) => {
      const functionName = this.checkName(name);
      this.declaredChecks.add(name);
      this.taken.add(functionName);
      this.declarations.push(this.namedCheckDeclaration(name, functionName, renames[i].rename, renames[i].variables));
    });
    if (id !== undefined) return { ts: this.checkName(id), js: this.checkName(id) };
    return lazyBoth(renameTop!(top!.piece.text), () => renameTop!(this.compileAlone(schema, 'typescript').piece.text));
  }
}

/**
 * The validator table of every method: one validator per distinct parameter or result type, shared
 * by the methods that use it, made by the runtime's `generatedValidator` from a compiled check and a
 * problem walker generated ahead of time (emit-problem-walkers.ts). What it reads (but the names) is
 * what `validatorsKey` (phase-keys.ts) writes down: a new read belongs there too. `remember`: the
 * module is generated again and again, and its named walkers are remembered for the next time.
 */
export function validatorDeclarations(
  model: IdlModel,
  schemas: IdlSchemas,
  names: TypeScriptNames,
  taken: Set<string>,
  remember = false,
): Declaration[] {
  const referencesById = new Map(schemas.references.map((schema) => [schema.$id as string, schema]));
  const checks = new SharedChecks(schemas.references, names, taken, remember);
  const walkers = new ProblemWalkers(schemas.references, names, taken, (id) => checks.checkName(id), remember);
  const validators: Declaration[] = [];
  const validatorsBySource = new Map<string, string>();
  // The named types some validated schema refers to, and the name of the table of their checks
  // (given to the validators whose schema refers to a named type: for a value the walkers cannot
  // vouch for, the runtime's explainer skips the parts of it whose check passes).
  const referenced = new Set<string>();
  let namedChecks: string | undefined;
  const noteReferences = (schema: TSchema): boolean => {
    const direct = directReferences(schema);
    // A work list, not recursion: an `extends` chain thousands of structs long is that deep.
    const pending = [...direct];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (referenced.has(id)) continue;
      referenced.add(id);
      pending.push(...directReferences(referencesById.get(id)!));
    }
    return direct.size > 0;
  };

  const validatorOf = (type: TypeRef, optional: boolean, schema: TSchema, attributes: readonly Attribute[] | undefined): string => {
    // A bare named type is validated against its named schema; anything else against its own.
    const named = !optional && type.kind === 'named' ? type.name : undefined;
    const own = constrainedSource(schemaSource(type), attributes);
    const source = named ? names.schema(named) : optional ? `Type.Union([${own}, Type.Null()])` : own;
    const existing = validatorsBySource.get(source);
    if (existing) return existing;
    const label = typeLabel(type, optional);
    const name = uniqueName(`${label[0].toLowerCase()}${label.slice(1)}Validator`, taken);
    validatorsBySource.set(source, name);
    const validated = named ? referencesById.get(named)! : schema;
    const check = checks.compile(validated);
    const walker = walkers.rootWalker(validated);
    const references = noteReferences(validated)
      ? [SCHEMA_REFERENCES, (namedChecks ??= uniqueName('namedChecks', taken))]
      : [SCHEMA_REFERENCES];
    const doc = docComment(`Validates \`${printType(type)}${optional ? ' [optional]' : ''}\` values.`);
    // The schema argument calls TypeBox: a pure mark on the outer call alone would keep it.
    const argument = (text: string) => indent(text, '  ').trimStart();
    const made: Code = named
      ? [`generatedValidator(${check.js}, ${walker.js}, ${source}, ${references.join(', ')})`]
      : [
          'generatedValidator(\n  ',
          { ts: argument(check.ts), js: argument(check.js) },
          ',\n  ',
          { ts: argument(walker.ts), js: argument(walker.js) },
          `,\n  ${argument(source)},\n${references.map((name) => `  ${name},\n`).join('')})`,
        ];
    const uses = named
      ? [generatedValidator]
      : [
          generatedValidator,
          { from: 'typebox', name: 'Type', typeOnly: false } as const,
          ...constrainedUses(source),
          ...walkerUses(walker.ts),
        ];
    validators.push(...madeValidator(name, doc, made, uses, taken));
    return name;
  };

  const entries: string[] = [];
  const tableFunction = uniqueName('validatorTable', taken);
  for (const iface of model.interfaces) {
    for (const method of iface.methods) {
      const key = `${iface.name.text}.${method.name.text}`;
      const methodSchemas = schemas.methods[key];
      const params = method.parameters.map((p, i) => validatorOf(p.type, false, methodSchemas.params[i], p.attributes));
      const result = validatorOf(method.returnType, method.returnOptional, methodSchemas.result, method.returnAttributes);
      entries.push(`  ${stringLiteral(key)}: { params: [${params.join(', ')}], result: ${result} },\n`);
    }
  }
  const table: Declaration = {
    kind: 'const',
    part: 'types',
    name: VALIDATORS,
    doc: docComment(
      'The validators of every method, keyed `"<Interface>.<method>"`, with checks and problem lists generated ahead of time.',
    ),
    exported: true,
    uses: [{ from: 'runtime', name: 'ValidatorTable', typeOnly: true }],
    annotation: 'ValidatorTable',
    declaredType: 'ValidatorTable',
    value: [entries.length === 0 ? '{}' : `/*#__PURE__*/ ${tableFunction}()`],
  };
  // Built in a function: a reference to a top-level `const` in a top-level expression makes the
  // checker walk the module's control flow back to the declaration, past every `const` between
  // (so a table of every validator cost the square of the IDL's size); in a function body it
  // stops at the function's start.
  const tableCode: Declaration = {
    kind: 'code',
    part: 'types',
    name: tableFunction,
    doc: '',
    exported: false,
    uses: [{ from: 'runtime', name: 'ValidatorTable', typeOnly: true }],
    code: [`function ${tableFunction}()`, typeOnly(': ValidatorTable'), ` {\n  return {\n${indent(entries.join(''), '  ')}  };\n}`],
  };
  return [
    ...checks.declarations,
    ...namedChecksDeclaration(namedChecks, schemas.references, referenced, (id) => checks.checkName(id)),
    ...walkers.allDeclarations(),
    ...validators,
    ...(entries.length === 0 ? [] : [tableCode]),
    table,
  ];
}

/**
 * `const <name> = make_<name>()` and the function making it. The validator is made in a function
 * declaration, not in a top-level expression nor an arrow invoked in place: the checker traces
 * every reference to a top-level `const` there (the schemas, `schemaReferences`, `namedChecks`)
 * back through every `const` of the module before it, which made the validators cost the square
 * of the IDL's size to type-check; in a function declaration the trace stops at its start.
 */
function madeValidator(name: string, doc: string, made: Code, uses: readonly Use[], taken: Set<string>): Declaration[] {
  const maker = uniqueName(`make_${name}`, taken);
  return [
    { kind: 'const', part: 'types', name, doc, exported: false, uses: [], declaredType: 'Validator', value: [`/*#__PURE__*/ ${maker}()`] },
    {
      kind: 'function',
      part: 'types',
      name: maker,
      doc: '',
      exported: false,
      uses: [...uses, validatorType],
      parameters: [],
      returnType: 'Validator',
      body: [['return ', ...made, ';']],
    },
  ];
}

const NAMED_CHECKS_TYPE = 'Record<string, (value: unknown) => boolean>';

/**
 * `const namedChecks = { CartItem: check_CartItem, ... }`: the compiled checks of the named types
 * other schemas refer to, in IDL order, for `generatedValidator` (its explainer, for values the
 * walkers cannot vouch for). Annotated with the runtime's `NamedChecks` shape, so every validator
 * that takes it is checked against one plain record type, however many types the IDL has; an object
 * literal of functions is dropped with the validators from a bundle that does not use them.
 */
function namedChecksDeclaration(
  name: string | undefined,
  references: TSchema[],
  referenced: Set<string>,
  checkName: (id: string) => string,
): Declaration[] {
  if (name === undefined) return [];
  const entries = references
    .map((schema) => schema.$id as string)
    .filter((id) => referenced.has(id))
    // A bare `__proto__:` key would set the prototype instead of adding a field.
    .map((id) => `  ${id === '__proto__' ? `[${stringLiteral(id)}]` : propertyKey(id)}: ${checkName(id)},\n`);
  return [
    {
      kind: 'const',
      part: 'types',
      name,
      doc: docComment(
        'The compiled checks of the named types other schemas refer to: for a value its walker cannot vouch for, `errors()` skips every part whose check passes.',
      ),
      exported: false,
      uses: [],
      annotation: NAMED_CHECKS_TYPE,
      declaredType: NAMED_CHECKS_TYPE,
      value: [`{\n${entries.join('')}}`],
    },
  ];
}

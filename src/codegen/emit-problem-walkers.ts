/**
 * The problem walkers of `types.ts`: what `errors()` of a generated validator runs after its
 * compiled check said no. One plain function per named type (`problems_Cart(value, path, issues)`)
 * and one per validator, printed from the runtime's own schemas, so listing problems reads no schema
 * and creates no code at run time.
 *
 * The list must be the runtime explainer's (runtime/explain.ts `buildExplainer` with the named
 * checks), word for word and in the same order: the walkers here mirror its cases one by one,
 * including where each stops at `MAX_ISSUES` (the " or null" rule counts the problems a walk gave).
 * The explainer skips a part whose named type's check passes; the walkers read fields as the checks
 * do (`value.field`), so such a part has no problems for them either, and they skip only items and
 * entries that way (cheaper than walking them). Where the two could read a value differently (an
 * inherited field, a hole), a walker defers and the runtime asks the explainer (`listProblems`).
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import type { Declaration, Use } from './declarations.js';
import {
  FORMAT_RULES,
  hasConstraints,
  IDL_CONSTRAINTS,
  type StringConstraints,
  stringConstraintSource,
} from '../../runtime/constraints.js';
import { BASE64_PATTERN, DATE_PATTERN, TIMESTAMP_PATTERN, wireFormProblem } from '../../runtime/wire-formats.js';
import { CodegenError, uniqueName, type TypeScriptNames } from './names.js';
import { docComment, stringLiteral } from './source-text.js';
import { keepPrinted } from './print.js';
import { CallRecorder, type RecordedCall } from './call-recorder.js';

/**
 * The most fields a walker compares with `Object.prototype`'s in one condition (a larger struct asks
 * `Object.hasOwn` for each: a condition of thousands of terms is a deep tree to compile).
 */
const MAX_COMPARED_FIELDS = 64;

/** TypeScript and JavaScript forms of one piece of code. */
export interface Both {
  ts: string;
  js: string;
}

const runtime = (name: string, typeOnly = false): Use => ({ from: 'runtime', name, typeOnly });
/** What a walker may call, and the types of its parameters. */
const ALL_USES: readonly Use[] = [
  runtime('MAX_ISSUES'),
  runtime('recordProblem'),
  runtime('recordProblemAt'),
  runtime('isObjectValue'),
  runtime('integerProblem'),
  runtime('markOrNull'),
  runtime('deferToExplainer'),
  runtime('ownField'),
  runtime('ProblemPath', true),
  runtime('ValidationIssue', true),
  runtime('inheritedProblems'),
  runtime('isTimestampText'),
  runtime('isDateText'),
  runtime('isBase64Text'),
  runtime('codePointCount'),
];

/** A number as a JavaScript literal (a negative one in parentheses, so that `value < -1` reads right everywhere). */
function numberLiteral(n: number): string {
  return n < 0 || Object.is(n, -0) ? `(${n})` : String(n);
}

// The bounds as digits, as type-mapping.ts writes them (no global the checker would trace back).
const INTEGER_SOURCE = 'Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991 })';

/** TypeBox source of a scalar schema without constraints, or undefined for any other schema. */
function plainScalarSource(schema: TSchema): string | undefined {
  if (hasConstraints(schema)) return constrainedSchemaSource(schema);
  switch (schema[Kind]) {
    case 'String':
      return schema.pattern === undefined ? 'Type.String()' : `Type.String({ pattern: ${stringLiteral(schema.pattern as string)} })`;
    case 'Integer':
      return INTEGER_SOURCE;
    case 'Number':
      return 'Type.Number()';
    case 'Boolean':
      return 'Type.Boolean()';
    default:
      return undefined;
  }
}

/**
 * `constrainedSchema(<base>, {...})`: source that builds `schema` (made by the runtime's
 * `constrainedSchema`) again, or undefined when it holds a reference (then its walk defers).
 */
function constrainedSchemaSource(schema: TSchema): string | undefined {
  const constraints: Record<string, unknown> = {};
  const take = (key: string, name: string, unless?: number) => {
    if (typeof schema[key] === 'number' && schema[key] !== unless) constraints[name] = schema[key];
  };
  switch (schema[Kind]) {
    case 'RegExp':
      return `constrainedSchema(Type.String(), ${JSON.stringify(schema[IDL_CONSTRAINTS])})`;
    case 'Integer':
    case 'Number': {
      const isInteger = schema[Kind] === 'Integer';
      take('minimum', 'min', isInteger ? -Number.MAX_SAFE_INTEGER : undefined);
      take('maximum', 'max', isInteger ? Number.MAX_SAFE_INTEGER : undefined);
      take('exclusiveMinimum', 'exclusiveMin');
      take('exclusiveMaximum', 'exclusiveMax');
      take('multipleOf', 'multipleOf');
      return `constrainedSchema(${isInteger ? INTEGER_SOURCE : 'Type.Number()'}, ${JSON.stringify(constraints)})`;
    }
    case 'Array': {
      const items = plainScalarSource(schema.items as TSchema);
      if (items === undefined) return undefined;
      take('minItems', 'minItems');
      take('maxItems', 'maxItems');
      return `constrainedSchema(Type.Array(${items}), ${JSON.stringify(constraints)})`;
    }
    default:
      return undefined;
  }
}

/** The runtime names the TypeScript form of a walker uses (a superset of the JavaScript form's). */
export function walkerUses(ts: string): Use[] {
  return USE_PATTERNS.filter(({ pattern }) => pattern.test(ts)).map(({ use }) => use);
}
const USE_PATTERNS = ALL_USES.map((use) => ({ use, pattern: new RegExp(`\\b${use.name}\\b`) }));

/** The parameters of every walker: JavaScript, and TypeScript (`any` like TypeBox's checks: every use is tested first). */
const PARAMETERS: Both = { js: 'value, path, issues', ts: 'value: any, path: ProblemPath, issues: ValidationIssue[]' };

/**
 * The parameters of the walker of a constrained string or number: its problems are at `key` below
 * `path` (at `path` itself without one), so that a struct or array need not push the key onto the
 * path and pop it again around the call, a fifth of the time a walk of such fields took.
 */
const KEYED_PARAMETERS: Both = { js: `${PARAMETERS.js}, key`, ts: `${PARAMETERS.ts}, key?: string | number` };

/** Whether a constrained schema's walker takes a key (a string or a number; an array's pushes it). */
function isKeyedConstraint(schema: TSchema): boolean {
  const kind = schema[Kind];
  return hasConstraints(schema) && (kind === 'RegExp' || kind === 'Integer' || kind === 'Number');
}

/** The scalar kinds, each with its test of a valid value and its problem. */
const SCALARS: Readonly<Record<string, { invalid: (v: string) => string; message: string }>> = {
  String: { invalid: (v) => `typeof ${v} !== 'string'`, message: 'expected string' },
  Number: { invalid: (v) => `!Number.isFinite(${v})`, message: 'expected number' },
  Integer: { invalid: (v) => `!Number.isSafeInteger(${v})`, message: 'expected integer' },
  Boolean: { invalid: (v) => `typeof ${v} !== 'boolean'`, message: 'expected boolean' },
  [`String:${TIMESTAMP_PATTERN}`]: { invalid: (v) => `!isTimestampText(${v})`, message: wireFormProblem(TIMESTAMP_PATTERN)! },
  [`String:${DATE_PATTERN}`]: { invalid: (v) => `!isDateText(${v})`, message: wireFormProblem(DATE_PATTERN)! },
  [`String:${BASE64_PATTERN}`]: { invalid: (v) => `!isBase64Text(${v})`, message: wireFormProblem(BASE64_PATTERN)! },
};

/** The key of a schema with the constraints of an attribute list: its walk defers to the explainer. */
const CONSTRAINED = 'Constrained';

/** The key of a schema in SCALARS: its kind, with the pattern of a wire form (timestamp, date, bytes). */
function scalarKey(schema: TSchema): string {
  const kind = schema[Kind] as string;
  if (hasConstraints(schema)) return CONSTRAINED; // never a plain scalar
  return kind === 'String' && typeof schema.pattern === 'string' ? `String:${schema.pattern}` : kind;
}

/** The problem message of an invalid scalar of `kind` (a source expression), `... or null` when null was allowed. */
function scalarMessage(kind: string, v: string, orNull: boolean): string {
  if (kind === 'Integer') return orNull ? `integerProblem(${v}, true)` : `integerProblem(${v})`;
  return stringLiteral(orNull ? `${SCALARS[kind].message} or null` : SCALARS[kind].message);
}

/** The member of `T | null` (an `[optional]` field or result), or undefined for any other schema. */
function optionalMember(schema: TSchema): TSchema | undefined {
  if (schema[Kind] !== 'Union') return undefined;
  const members = schema.anyOf as TSchema[];
  return members.length === 2 && members[1][Kind] === 'Null' && members[0][Kind] !== 'Null' ? members[0] : undefined;
}

/** An enum's schema: a union of literals. */
const isEnum = (schema: TSchema): boolean =>
  schema[Kind] === 'Union' && (schema.anyOf as TSchema[]).every((member) => member[Kind] === 'Literal');

/**
 * The one problem of a value of an enum that is not one of its values: `expected one of: a, b`; an
 * enum of one value is that value's schema (TypeBox makes a union of one member that member), one
 * without values `Never`. `undefined` for any other schema.
 */
function valueProblem(schema: TSchema): string | undefined {
  if (isEnum(schema)) return `expected one of: ${(schema.anyOf as TSchema[]).map((member) => String(member.const)).join(', ')}`;
  if (schema[Kind] === 'Literal') return `expected ${JSON.stringify(schema.const)}`;
  if (schema[Kind] === 'Never') return 'no value is allowed here';
  return undefined;
}

/** The longest enum problem written where the enum is used (a longer one is left to its walker). */
const MAX_INLINE_MESSAGE = 200;

/** A struct's schema: an object, or an intersection for one that extends another. */
const isStruct = (schema: TSchema): boolean => schema[Kind] === 'Object' || isExtendingStruct(schema);

/** `Type.Intersect([Type.Ref(parent), Type.Object(own fields)])`: the schema of a struct that extends another. */
function isExtendingStruct(schema: TSchema): boolean {
  const members = schema.allOf as TSchema[] | undefined;
  return schema[Kind] === 'Intersect' && members?.length === 2 && members[0][Kind] === 'Ref' && members[1][Kind] === 'Object';
}

/**
 * Whether the walker of a type that refers to a named type would be written the same with either
 * schema of it: it reads only its kind, whether it is a struct, and an enum's one problem.
 */
function sameForCallers(a: TSchema | undefined, b: TSchema | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a[Kind] === b[Kind] && isStruct(a) === isStruct(b) && valueProblem(a) === valueProblem(b);
}

/** Statements being written, with their indentation, and fresh names for the variables they declare. */
class Body {
  private readonly lines: (string | Both)[] = [];
  private depth = 1;
  private count = 0;

  /** A statement; `{ js, ts }` when TypeScript needs it written otherwise. */
  line(text: string | Both): void {
    const pad = '  '.repeat(this.depth);
    this.lines.push(typeof text === 'string' ? `${pad}${text}` : { js: `${pad}${text.js}`, ts: `${pad}${text.ts}` });
  }

  /** `open` (ending in `{`), the statements `inside` writes, one level deeper, and `}`. */
  block(open: string, inside: () => void): void {
    this.line(open);
    this.depth++;
    inside();
    this.depth--;
    this.line('}');
  }

  /** A number for the names of variables not declared in this function yet (`index1`, `item1`). */
  fresh(): number {
    return ++this.count;
  }

  text(): Both {
    const print = (language: keyof Both) => `${this.lines.map((line) => (typeof line === 'string' ? line : line[language])).join('\n')}\n`;
    return { js: print('js'), ts: print('ts') };
  }
}

/** A call the generation of a named walker made to the walkers' shared state, and its answer. */
type SharedCall = RecordedCall<SharedMethod, readonly unknown[]>;

type SharedMethod = 'walkerOf' | 'checkOf' | 'extendedOf' | 'constraintWalkerOf' | 'patternOf' | 'schemaOf' | 'declaredName';

/** How the named walker of one schema was generated: what it asked and what it declared. */
interface WalkerRecord {
  /** The walker's own name, and whether another struct extended its struct. */
  name: string;
  extended: boolean;
  calls: readonly SharedCall[];
  declaration: Declaration;
}

/**
 * The latest named walker generated from each schema object, for generating it again: a dev server
 * regenerating an edited file gets the unchanged types' schemas as the same objects
 * (interned-schemas.ts), and a walker whose calls all answer as they did is the same walker. The
 * calls are made again in their order, so that what they declare and the names they take are as a
 * generation from scratch would have them.
 */
const WALKER_RECORDS = new WeakMap<TSchema, WalkerRecord>();

/** How many named walkers were taken from WALKER_RECORDS, and how many generated to be remembered (tests read it). */
export const walkerMemoStats = { reused: 0, remembered: 0 };

/**
 * The walkers of a module. `rootWalker` gives each validator's; the named walkers it reaches are
 * declared once each, in the order first reached (a work list: no recursion along the types, so an
 * `extends` chain or a chain of required fields thousands of structs long is fine).
 */
export class ProblemWalkers {
  private readonly declarations: Declaration[] = [];
  private readonly byId: ReadonlyMap<string, TSchema>;
  private readonly walkerNames = new Map<string, string>();
  /** Constraint walkers by the source of their schema. */
  private readonly constraintWalkers = new Map<string, string>();
  /** The regular expressions of constraint walkers by their source. */
  private readonly patterns = new Map<string, string>();
  private readonly pending: string[] = [];
  /** Structs that other reached structs extend, with the name of their `ExtendedStruct`. */
  private readonly extendedNames = new Map<string, string>();
  /** Every struct another struct extends. */
  private readonly extended = new Set<string>();
  /** The shared calls of a named walker generated to be remembered (see WALKER_RECORDS). */
  private readonly recorder = new CallRecorder<SharedMethod, readonly unknown[]>();

  constructor(
    references: readonly TSchema[],
    private readonly names: TypeScriptNames,
    private readonly taken: Set<string>,
    /** The name of a named type's compiled check, by `$id`. */
    private readonly checkName: (id: string) => string,
    /** Reuse and remember named walkers across generations (WALKER_RECORDS): a file generated again and again. */
    private readonly remember = false,
  ) {
    this.byId = new Map(references.map((schema) => [schema.$id as string, schema]));
    for (const schema of references) if (isExtendingStruct(schema)) this.extended.add((schema.allOf as TSchema[])[0].$ref as string);
  }

  /** The walker of a validator of `schema`: a named walker's name, or a function expression (see `walkerUses`). */
  rootWalker(schema: TSchema): Both {
    let walker: Both;
    if (typeof schema.$id === 'string') {
      // A validator of a bare named type: its walker is the named type's, whose check just failed.
      const name = this.walkerOf(schema.$id);
      walker = { js: name, ts: name };
    } else {
      const body = new Body();
      this.walkValue(body, schema, 'value');
      const text = body.text();
      walker = { js: `function problems(${PARAMETERS.js}) {\n${text.js}}`, ts: `function problems(${PARAMETERS.ts}): void {\n${text.ts}}` };
    }
    this.declarePending();
    return walker;
  }

  /** The named walkers and `ExtendedStruct`s reached so far (walkers first, then structs root first). */
  allDeclarations(): Declaration[] {
    return [...this.declarations, ...this.extendedDeclarations()];
  }

  /** A named check's name. */
  private checkOf(id: string): string {
    return this.shared('checkOf', [id], () => {
      if (!this.byId.has(id)) throw new CodegenError(`schema refers to unknown type ${id}`);
      return this.checkName(id);
    });
  }

  /** The schema of the named type `id`, if there is one (read by a walker as `sameForCallers` says). */
  private schemaOf(id: string): TSchema | undefined {
    return this.shared('schemaOf', [id], () => this.byId.get(id));
  }

  /** The TypeScript name of the named type `id`. */
  private declaredName(id: string): string {
    return this.shared('declaredName', [id], () => this.names.declared(id));
  }

  /** `compute()`, recorded with `method` and `args` when it is an outermost call of a walker being remembered. */
  private shared<T>(method: SharedMethod, args: readonly unknown[], compute: () => T): T {
    return this.recorder.shared(method, args, compute);
  }

  /** Makes `calls` again, in order; whether each answered as recorded. */
  private answersAsRecorded(calls: readonly SharedCall[]): boolean {
    for (const { kind: method, argument: args, answer } of calls) {
      const [first, second] = args;
      const again =
        method === 'constraintWalkerOf'
          ? this.constraintWalkerOf(first as TSchema)
          : method === 'patternOf'
            ? this.patternOf(first as string, second as 'u' | '')
            : this[method](first as string);
      if (again !== answer && !(method === 'schemaOf' && sameForCallers(again as TSchema | undefined, answer as TSchema | undefined)))
        return false;
    }
    return true;
  }

  /**
   * The module-level walker of a schema with the constraints of an attribute list (declared once per
   * schema), or undefined when it holds a reference or anything but scalars (its walk defers). It
   * lists what the explainer's walker of the schema lists (runtime/explain.ts, constraints.ts), word
   * for word, with every message but a measured length written out here: no closure, no template
   * and no second regular expression per value at run time.
   */
  private constraintWalkerOf(schema: TSchema): string | undefined {
    return this.shared('constraintWalkerOf', [schema], () => this.declareConstraintWalker(schema));
  }

  private declareConstraintWalker(schema: TSchema): string | undefined {
    const source = constrainedSchemaSource(schema);
    if (source === undefined) return undefined;
    let name = this.constraintWalkers.get(source);
    if (name !== undefined) return name;
    const body = new Body();
    if (!this.constraintStatements(body, schema)) return undefined;
    name = uniqueName('constraintProblems', this.taken);
    this.constraintWalkers.set(source, name);
    const text = body.text();
    const parameters = isKeyedConstraint(schema) ? KEYED_PARAMETERS : PARAMETERS;
    const code = { js: `function ${name}(${parameters.js}) {\n${text.js}}`, ts: `function ${name}(${parameters.ts}): void {\n${text.ts}}` };
    this.declarations.push({ kind: 'code', part: 'types', name, exported: false, uses: walkerUses(code.ts), doc: '', code: [code] });
    return name;
  }

  /**
   * A module-level regular expression of `source` (`flags` `u`, or none), declared once per source
   * and flags.
   */
  private patternOf(source: string, flags: 'u' | '' = 'u'): string {
    return this.shared('patternOf', [source, flags], () => this.declarePattern(source, flags));
  }

  private declarePattern(source: string, flags: 'u' | ''): string {
    const key = `${flags}/${source}`;
    let name = this.patterns.get(key);
    if (name === undefined) {
      name = uniqueName('constraintPattern', this.taken);
      this.patterns.set(key, name);
      this.declarations.push({
        kind: 'const',
        part: 'types',
        name,
        doc: '',
        exported: false,
        uses: [],
        declaredType: 'RegExp',
        value: [`/*#__PURE__*/ new RegExp(${stringLiteral(source)}${flags === '' ? '' : ", 'u'"})`],
      });
    }
    return name;
  }

  /** The statements of a constraint walker of `schema` (see `constraintWalkerOf`); false when it cannot have one. */
  private constraintStatements(body: Body, schema: TSchema): boolean {
    switch (schema[Kind]) {
      case 'RegExp':
        this.stringConstraintStatements(body, schema[IDL_CONSTRAINTS] as StringConstraints);
        return true;
      case 'Integer':
      case 'Number':
        this.numberConstraintStatements(body, schema);
        return true;
      case 'Array':
        return this.boundedArrayStatements(body, schema);
      default:
        return false;
    }
  }

  /**
   * A string's problems in the order of `stringConstraintProblems`: the lengths, the pattern, the
   * format. The combined expression (one test, what the check ran) answers first only when there are
   * both a pattern and a format, where it spares a valid string a second test; a length is counted
   * without one, so with a length and one expression the two tests are as cheap, and a string that
   * breaks a rule (what the walker mostly meets) is spared the combined one.
   */
  private stringConstraintStatements(body: Body, constraints: StringConstraints): void {
    const { minLength, maxLength, pattern, format } = constraints;
    const rule = format === undefined ? undefined : FORMAT_RULES[format];
    const hasLength = minLength !== undefined || maxLength !== undefined;
    body.line('if (issues.length >= MAX_ISSUES) return;');
    body.line("if (typeof value !== 'string') return recordProblemAt(issues, path, key, 'expected string');");
    if (pattern !== undefined && rule !== undefined)
      body.line(`if (${this.patternOf(stringConstraintSource(constraints))}.test(value)) return;`);
    if (hasLength) {
      body.line('const length = codePointCount(value);');
      if (minLength !== undefined) {
        const message = stringLiteral(`too short: at least ${minLength} characters, got `);
        body.line(`if (length < ${minLength}) recordProblemAt(issues, path, key, ${message} + length);`);
      }
      if (maxLength !== undefined) {
        const message = stringLiteral(`too long: at most ${maxLength} characters, got `);
        body.line(`if (length > ${maxLength} && issues.length < MAX_ISSUES) recordProblemAt(issues, path, key, ${message} + length);`);
      }
    }
    if (pattern !== undefined) {
      const message = stringLiteral(`expected a string matching /${pattern}/u`);
      body.line(
        `if (!${this.patternOf(pattern)}.test(value) && issues.length < MAX_ISSUES) recordProblemAt(issues, path, key, ${message});`,
      );
    }
    if (rule !== undefined) {
      // Without the `u` flag, which costs up to 1.7x per test: a format's expression matches ASCII
      // only, so it accepts the same strings either way (a surrogate, paired or not, fails both).
      const test = `${this.patternOf(`^(?:${rule.source})$`, '')}.test(value)`;
      body.line(`if (!${test} && issues.length < MAX_ISSUES) recordProblemAt(issues, path, key, ${stringLiteral(rule.message)});`);
    }
  }

  /** A number's problems as the explainer's constrained number walker lists them: its type's, or every bound it breaks. */
  private numberConstraintStatements(body: Body, schema: TSchema): void {
    body.line('if (issues.length >= MAX_ISSUES) return;');
    if (schema[Kind] === 'Integer')
      body.line('if (!Number.isSafeInteger(value)) return recordProblemAt(issues, path, key, integerProblem(value));');
    else body.line("if (!Number.isFinite(value)) return recordProblemAt(issues, path, key, 'expected number');");
    const bound = (key: string, unless?: number) =>
      typeof schema[key] === 'number' && schema[key] !== unless ? (schema[key] as number) : undefined;
    const tests: [number | undefined, (n: string) => string, string][] = [
      [bound('minimum', -Number.MAX_SAFE_INTEGER), (n) => `value < ${n}`, 'expected a value >= '],
      [bound('maximum', Number.MAX_SAFE_INTEGER), (n) => `value > ${n}`, 'expected a value <= '],
      [bound('exclusiveMinimum'), (n) => `!(value > ${n})`, 'expected a value > '],
      [bound('exclusiveMaximum'), (n) => `!(value < ${n})`, 'expected a value < '],
      [bound('multipleOf'), (n) => `value % ${n} !== 0`, 'expected a multiple of '],
    ];
    for (const [limit, broken, message] of tests) {
      if (limit === undefined) continue;
      // The limit as JavaScript writes it, in the test and in the message alike (`1e+21`, `0.1`).
      const n = numberLiteral(limit);
      body.line(
        `if (${broken(n)} && issues.length < MAX_ISSUES) recordProblemAt(issues, path, key, ${stringLiteral(`${message}${limit}`)});`,
      );
    }
  }

  /**
   * A bounded array's problems as the explainer's array walker lists them: its item count, then its
   * items'. Items that are scalars or constrained scalars only (else false: the walk defers); a hole
   * defers (the explainer skips it, the check fails on it).
   */
  private boundedArrayStatements(body: Body, schema: TSchema): boolean {
    const items = schema.items as TSchema;
    const itemKind = scalarKey(items);
    const itemWalker = itemKind === CONSTRAINED ? this.constraintWalkerOf(items) : undefined;
    if (!(itemKind in SCALARS) && itemWalker === undefined) return false;
    body.line('if (issues.length >= MAX_ISSUES) return;');
    body.line("if (!Array.isArray(value)) return recordProblem(issues, path, 'expected array');");
    const few = typeof schema.minItems === 'number' ? schema.minItems : undefined;
    const many = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
    const counts: string[] = [];
    if (few !== undefined) {
      counts.push(
        `if (value.length < ${few}) recordProblem(issues, path, ${stringLiteral(`too few items: at least ${few}, got `)} + value.length);`,
      );
    }
    if (many !== undefined) {
      counts.push(
        `if (value.length > ${many}) recordProblem(issues, path, ${stringLiteral(`too many items: at most ${many}, got `)} + value.length);`,
      );
    }
    for (const [i, line] of counts.entries()) body.line(i === 0 ? line : `else ${line}`);
    body.block('for (let index = 0; index < value.length && issues.length < MAX_ISSUES; index++) {', () => {
      body.line('const item = value[index];');
      if (itemWalker === undefined) {
        body.block(`if (${SCALARS[itemKind].invalid('item')}) {`, () => {
          body.line('if (item === undefined && !(index in value)) deferToExplainer();');
          body.line(`else recordProblemAt(issues, path, index, ${scalarMessage(itemKind, 'item', false)});`);
        });
      } else {
        body.line('if (item === undefined && !(index in value)) deferToExplainer();');
        if (isKeyedConstraint(items)) body.line(`else ${itemWalker}(item, path, issues, index);`);
        else {
          body.block('else {', () => {
            body.line('path.push(index);');
            body.line(`${itemWalker}(item, path, issues);`);
            body.line('path.pop();');
          });
        }
      }
    });
    return true;
  }

  /** The name of the walker of the named type `id`, declared later (see `declarePending`). */
  private walkerOf(id: string): string {
    return this.shared('walkerOf', [id], () => this.claimWalker(id));
  }

  private claimWalker(id: string): string {
    let name = this.walkerNames.get(id);
    if (name === undefined) {
      if (!this.byId.has(id)) throw new CodegenError(`schema refers to unknown type ${id}`);
      name = uniqueName(`problems_${id.replaceAll('.', '_')}`, this.taken);
      this.walkerNames.set(id, name);
      this.pending.push(id);
    }
    return name;
  }

  /** Declares the walkers reached and not declared yet (and those they reach, and so on). */
  private declarePending(): void {
    for (let id = this.pending.shift(); id !== undefined; id = this.pending.shift()) this.declareNamed(id);
  }

  private declareNamed(id: string): void {
    const schema = this.byId.get(id)!;
    const name = this.walkerNames.get(id)!;
    const extended = this.extended.has(id);
    if (!this.remember) {
      this.declarations.push(this.namedWalker(id, schema, name));
      return;
    }
    const record = WALKER_RECORDS.get(schema);
    if (record && record.name === name && record.extended === extended && this.answersAsRecorded(record.calls)) {
      walkerMemoStats.reused++;
      this.declarations.push(record.declaration);
      return;
    }
    walkerMemoStats.remembered++;
    const { value: declaration, calls } = this.recorder.record(() => this.namedWalker(id, schema, name));
    WALKER_RECORDS.set(schema, { name, extended, calls, declaration });
    keepPrinted([declaration]);
    this.declarations.push(declaration);
  }

  /** The walker of the named type `id`, whose schema is `schema`. */
  private namedWalker(id: string, schema: TSchema, name: string): Declaration {
    const typeName = `\`${this.declaredName(id)}\``;
    // Every walked type has a compiled check: its validator's check reaches it too.
    const check = `{@link ${this.checkOf(id)}}`;
    const body = new Body();
    let parameters = PARAMETERS;
    let doc = `Lists the problems of a value that is not a valid ${typeName} (see ${check}); generated ahead of time.`;
    if (typeof schema.discriminator === 'string') {
      // A discriminated union: the runtime's explainer names the tags and walks the variant.
      body.line('deferToExplainer();');
    } else if (isExtendingStruct(schema)) {
      const [parent, own] = schema.allOf as TSchema[];
      const parentId = parent.$ref as string;
      this.walkerOf(parentId);
      const extended = this.extendedOf(parentId);
      body.line(`if (ownFieldsOnly ? issues.length >= MAX_ISSUES : !inheritedProblems(value, path, issues, ${extended})) return;`);
      this.walkFields(body, own, true);
      parameters = { js: `${PARAMETERS.js}, ownFieldsOnly`, ts: `${PARAMETERS.ts}, ownFieldsOnly?: boolean` };
      doc = `Lists the problems of a value that is not a valid ${typeName}, or with \`ownFieldsOnly\` of its own fields.`;
    } else if (schema[Kind] === 'Object') {
      body.line('if (issues.length >= MAX_ISSUES) return;');
      body.line("if (!isObjectValue(value)) return recordProblem(issues, path, 'expected object');");
      this.walkFields(body, schema, this.extended.has(id));
      if (!this.extended.has(id) && !this.isCompact(schema)) {
        // `__proto__` is what V8 makes nearly free (`Object.getPrototypeOf` is a call); an own
        // property of that name makes it differ from the prototype, which defers too.
        body.line('// The explainer reads own fields only: it decides for an object with problems that inherits.');
        body.line('if (issues.length > before && value.__proto__ !== Object.prototype) deferToExplainer();');
      }
    } else if (schema[Kind] === 'Never') {
      body.line(`if (issues.length < MAX_ISSUES) recordProblem(issues, path, ${stringLiteral(valueProblem(schema)!)});`);
    } else if (valueProblem(schema) !== undefined) {
      body.line(
        `if (!${this.checkOf(id)}(value) && issues.length < MAX_ISSUES) recordProblem(issues, path, ${stringLiteral(valueProblem(schema)!)});`,
      );
    } else {
      throw new CodegenError(`no problem walker for the schema of ${id}: ${JSON.stringify(schema)}`);
    }
    const text = body.text();
    const code = { js: `function ${name}(${parameters.js}) {\n${text.js}}`, ts: `function ${name}(${parameters.ts}): void {\n${text.ts}}` };
    return { kind: 'code', part: 'types', name, exported: false, uses: walkerUses(code.ts), doc: docComment(doc), code: [code] };
  }

  /** The name of the `ExtendedStruct` of struct `id`, declared at the end (see `extendedDeclarations`). */
  private extendedOf(id: string): string {
    return this.shared('extendedOf', [id], () => this.claimExtended(id));
  }

  private claimExtended(id: string): string {
    let name = this.extendedNames.get(id);
    if (name === undefined) {
      name = uniqueName(`extended_${id.replaceAll('.', '_')}`, this.taken);
      this.extendedNames.set(id, name);
    }
    return name;
  }

  /**
   * `const extended_Base = { walk: problems_Base, parent: undefined }`, one per extended struct, each
   * after its parent's (it reads it when the module loads). Every struct is looked at once.
   */
  private extendedDeclarations(): Declaration[] {
    const declared = new Set<string>();
    const ordered: string[] = [];
    for (const id of this.extendedNames.keys()) {
      const chain: string[] = [];
      for (let at: string | undefined = id; at !== undefined && !declared.has(at); at = this.parentOf(at)) {
        declared.add(at);
        chain.push(at);
      }
      ordered.push(...chain.reverse());
    }
    return ordered.map((id) => {
      const parent = this.parentOf(id);
      const name = this.extendedOf(id);
      return {
        kind: 'const',
        part: 'types',
        name,
        doc: '', // an `extends` chain may be thousands of structs long: see `ExtendedStruct`
        exported: false,
        uses: [runtime('ExtendedStruct', true)],
        annotation: 'ExtendedStruct',
        declaredType: 'ExtendedStruct',
        value: [`{ walk: ${this.walkerOf(id)}, parent: ${parent === undefined ? 'undefined' : this.extendedOf(parent)} }`],
      };
    });
  }

  /** The struct `id` extends, if any. */
  private parentOf(id: string): string | undefined {
    const schema = this.byId.get(id)!;
    return isExtendingStruct(schema) ? ((schema.allOf as TSchema[])[0].$ref as string) : undefined;
  }

  /** Whether the walker of a struct reads each field with `Object.hasOwn` (see `walkFields`). */
  private isCompact(schema: TSchema): boolean {
    return Object.keys(schema.properties as Record<string, TSchema>).length > MAX_COMPARED_FIELDS;
  }

  /**
   * The fields of an object schema, in schema order.
   *
   * The explainer reads own properties (an inherited one is no field), a compiled check reads
   * `value.field`; for plain data (what `JSON.parse` gives) they agree. `Object.hasOwn` costs more than
   * everything else a walker does for a field (Node 20 does not inline it), so a walker reads
   * `value.field` and makes sure it may: a field `Object.prototype` has a property of that name for
   * is asked (`constructor`, `__proto__`, ...), a value equal to `Object.prototype`'s property of the
   * field's name defers to the explainer, and so does an object with problems whose prototype is
   * not `Object.prototype` (checked at the end, see `declareNamed`). The walkers of structs in an
   * `extends` chain (`compact`: thousands may be generated, and the same object is walked by each)
   * and of large structs (a condition of thousands of terms is a deep tree to compile) ask
   * `Object.hasOwn` for every field present.
   */
  private walkFields(body: Body, schema: TSchema, compact: boolean): void {
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries(schema.properties as Record<string, TSchema>).map(([key, fieldSchema], index) => ({
      key,
      schema: fieldSchema,
      literal: stringLiteral(key),
      v: /^\w+$/.test(key) ? `f_${key}` : `field${index}`,
    }));
    const asked = (v: string, literal: string) => `if (${v} !== undefined && !Object.hasOwn(value, ${literal})) ${v} = deferToExplainer();`;
    const askAll = compact || this.isCompact(schema);
    if (!askAll) body.line('const before = issues.length;');
    for (const { key, literal, v } of fields) {
      if (askAll) body.line(`const ${v} = ownField(value, ${literal});`);
      else if (key in Object.prototype) {
        body.line(`let ${v} = value[${literal}];`);
        body.line(asked(v, literal));
      } else {
        body.line(`const ${v} = value[${literal}];`);
      }
    }
    const compared = askAll ? [] : fields.filter(({ key }) => !(key in Object.prototype));
    if (compared.length > 0) {
      const condition = (prototype: string) =>
        `if (${compared.map(({ literal, v }) => `(${v} !== undefined && ${v} === ${prototype}[${literal}])`).join(' || ')}) deferToExplainer(); // maybe inherited from Object.prototype`;
      body.line({ js: condition('Object.prototype'), ts: condition('(Object.prototype as any)') });
    }
    for (const { key, schema: fieldSchema, literal, v } of fields) {
      if (required.has(key)) {
        body.line(`if (${v} === undefined) recordProblem(issues, path, ${stringLiteral(`missing required field '${key}'`)});`);
        this.walkChild(body, fieldSchema, v, literal, { prefix: 'else ' });
      } else {
        this.walkChild(body, fieldSchema, v, literal, { condition: `${v} !== undefined` });
      }
    }
  }

  /**
   * The problems of `v`, the value at `key` of a container (a field, item or entry), as the container
   * walks a child: nothing when it is a valid scalar or its named type's check passes, else the
   * child's walker one level down the path. The statement written is one `if` (or block), after
   * `prefix` and with `condition` first. `element`: `v` is an item or a map entry.
   */
  private walkChild(
    body: Body,
    schema: TSchema,
    v: string,
    key: string,
    at: { prefix?: string; condition?: string; element?: boolean },
  ): void {
    const { prefix = '' } = at;
    const conditions = at.condition === undefined ? [] : [at.condition];
    const kind = scalarKey(schema);
    const member = optionalMember(schema);
    // json: any value is valid (a required field's absence is recorded by its struct).
    if (kind === 'Unknown' || member?.[Kind] === 'Unknown') return;
    if (kind in SCALARS) {
      const condition = [...conditions, SCALARS[kind].invalid(v), 'issues.length < MAX_ISSUES'].join(' && ');
      body.line(`${prefix}if (${condition}) recordProblemAt(issues, path, ${key}, ${scalarMessage(kind, v, false)});`);
    } else if (member !== undefined && scalarKey(member) in SCALARS) {
      // An [optional] scalar: one problem of the value itself, so always `... or null`.
      const memberKind = scalarKey(member);
      const condition = [...conditions, `${v} !== null`, SCALARS[memberKind].invalid(v), 'issues.length < MAX_ISSUES'].join(' && ');
      body.line(`${prefix}if (${condition}) recordProblemAt(issues, path, ${key}, ${scalarMessage(memberKind, v, true)});`);
    } else if (kind === 'Ref' || member?.[Kind] === 'Ref') {
      // A named type: its walker one level down (an enum's only when its check fails: it has one
      // problem at most, and checking spares the push). For an [optional] one, maybe `... or null`.
      const id = (member ?? schema).$ref as string;
      const target = this.schemaOf(id);
      const tests = [...conditions, ...(member ? [`${v} !== null`] : [])];
      const message = target === undefined ? undefined : valueProblem(target);
      if (message !== undefined && message.length <= MAX_INLINE_MESSAGE) {
        // An enum: its one problem recorded here, without a call or a push.
        const text = member && message.startsWith('expected ') ? `${message} or null` : message;
        if (target![Kind] !== 'Never') tests.push(`!${this.checkOf(id)}(${v})`);
        tests.push('issues.length < MAX_ISSUES');
        body.line(`${prefix}if (${tests.join(' && ')}) recordProblemAt(issues, path, ${key}, ${stringLiteral(text)});`);
        return;
      }
      // A struct that is an item or entry (of many, most of them fine) is first given to its check,
      // cheaper than its walker; a part whose check passes has no problems, or none the explainer lists.
      if (target !== undefined && (!isStruct(target) || at.element)) tests.push(`!${this.checkOf(id)}(${v})`);
      body.block(tests.length === 0 ? `${prefix}{` : `${prefix}if (${tests.join(' && ')}) {`, () => {
        body.line(`path.push(${key});`);
        if (member === undefined) body.line(`${this.walkerOf(id)}(${v}, path, issues);`);
        else {
          const before = `before${body.fresh()}`;
          body.line(`const ${before} = issues.length;`);
          body.line(`${this.walkerOf(id)}(${v}, path, issues);`);
          body.line(`markOrNull(issues, ${before}, path.length);`);
        }
        body.line('path.pop();');
      });
    } else if (kind === CONSTRAINED && isKeyedConstraint(schema) && this.constraintWalkerOf(schema) !== undefined) {
      // A constrained string or number: its walker records below `path` at `key` itself.
      const call = `${this.constraintWalkerOf(schema)}(${v}, path, issues, ${key});`;
      body.line(conditions.length === 0 ? `${prefix}${call}` : `${prefix}if (${conditions.join(' && ')}) ${call}`);
    } else {
      const condition = [...conditions].join(' && ');
      body.block(condition === '' ? `${prefix}{` : `${prefix}if (${condition}) {`, () => {
        body.line(`path.push(${key});`);
        this.walkValue(body, schema, v);
        body.line('path.pop();');
      });
    }
  }

  /** The problems of `v` at `path`, as the explainer's walker of `schema` records them. */
  private walkValue(body: Body, schema: TSchema, v: string): void {
    const kind = scalarKey(schema);
    const member = optionalMember(schema);
    if (kind === 'Unknown') return; // json: any value
    if (kind === CONSTRAINED) {
      // Constraints (runtime/constraints.ts) are walked by the runtime explainer's own walker of the
      // schema, built once at module load: one list of their messages. One that holds a reference
      // (`[]Item [maxItems=3]`) defers to the explainer.
      const walker = this.constraintWalkerOf(schema);
      body.line(walker === undefined ? 'deferToExplainer();' : `${walker}(${v}, path, issues);`);
      return;
    }
    if (kind in SCALARS) {
      body.line(
        `if (${SCALARS[kind].invalid(v)} && issues.length < MAX_ISSUES) recordProblem(issues, path, ${scalarMessage(kind, v, false)});`,
      );
    } else if (kind === 'Ref') {
      const id = schema.$ref as string;
      body.line(`${this.walkerOf(id)}(${v}, path, issues);`);
    } else if (kind === 'Array') {
      body.block('if (issues.length < MAX_ISSUES) {', () => {
        body.line(`if (!Array.isArray(${v})) recordProblem(issues, path, 'expected array');`);
        const n = body.fresh();
        const [index, item] = [`index${n}`, `item${n}`];
        body.block(`else for (let ${index} = 0; ${index} < ${v}.length && issues.length < MAX_ISSUES; ${index}++) {`, () => {
          body.line(`const ${item} = ${v}[${index}];`);
          // A hole is no item (as for the explainer), but makes the check fail: the explainer decides.
          body.line(`if (${item} === undefined && !(${index} in ${v})) deferToExplainer();`);
          this.walkChild(body, schema.items as TSchema, item, index, { prefix: 'else ', element: true });
        });
      });
    } else if (kind === 'Record') {
      const entries = Object.values(schema.patternProperties as Record<string, TSchema>)[0];
      body.block('if (issues.length < MAX_ISSUES) {', () => {
        body.line(`if (!isObjectValue(${v})) recordProblem(issues, path, 'expected object');`);
        const n = body.fresh();
        const [key, entry] = [`key${n}`, `entry${n}`];
        body.block(`else for (const ${key} of Object.keys(${v})) {`, () => {
          body.line('if (issues.length >= MAX_ISSUES) break;');
          body.line(`const ${entry} = ${v}[${key}];`);
          this.walkChild(body, entries, entry, key, { element: true });
        });
      });
    } else if (member !== undefined) {
      body.block(`if (${v} !== null && issues.length < MAX_ISSUES) {`, () => {
        const before = `before${body.fresh()}`;
        body.line(`const ${before} = issues.length;`);
        this.walkValue(body, member, v);
        body.line(`markOrNull(issues, ${before}, path.length);`);
      });
    } else {
      throw new CodegenError(`no problem walker for the schema ${JSON.stringify(schema)}`);
    }
  }
}

/**
 * Why a value fails its schema, in plain words with paths: what `Validator.errors()` lists after
 * the compiled check said no. The schema is turned once into a tree of small functions (walkers),
 * so a failing value costs a walk and no reading of the schema. Plain closures: the runtime must
 * never create code from strings.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
// Named imports, not the `Value` namespace: a browser bundle with the client's result check
// (validateResults) then carries these two functions, not all of TypeBox's value module.
import { Errors } from '@sinclair/typebox/errors';
import { Check } from '@sinclair/typebox/value';
import { hasConstraints, IDL_CONSTRAINTS, itemCountProblem, numberConstraintProblems, stringConstraintProblems } from './constraints.js';
import { wireFormProblem } from './wire-formats.js';

/** One problem in a value: where (relative to the validated value) and what, in plain words. */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

/** An error response lists at most this many problems, so a huge bad array stays a small answer. */
export const MAX_ISSUES = 100;

/**
 * Compiled checks of named schemas, by `$id` (`{ Cart: check_Cart }`): what a value of that type must
 * pass. Generated code passes the checks it compiled ahead of time.
 */
export type NamedChecks = Readonly<Record<string, (value: unknown) => boolean>>;

/**
 * Builds the explainer of `schema` (with the named schemas it references): a function listing
 * every problem of a value the compiled check rejected, at most `MAX_ISSUES`, never none.
 *
 * With `namedChecks`, a value where `schema` refers to a named type is first given to that type's
 * check, and not explained further when it passes: in an order with one bad item of ten, nine items
 * are skipped. So problems are listed only where the checks fail. For plain data (anything
 * `JSON.parse` gives) the checks and the explanation agree, and the list is the same as without
 * them. They disagree about objects that are not plain data: a check accepts fields a value inherits,
 * the explanation asks for own fields, and such a value inside a named type that passes its check is
 * not reported (if nothing else is, the fallbacks below still give one problem).
 */
export function buildExplainer(schema: TSchema, references: TSchema[], namedChecks?: NamedChecks): (value: unknown) => ValidationIssue[] {
  const walk = buildWalker(schema, references, namedChecks);
  return (value) => {
    const issues: ValidationIssue[] = [];
    walk(value, [], issues);
    // The check failed for a reason the walkers do not know (a custom check or schema option).
    if (issues.length === 0) issues.push(...typeboxIssues(schema, references, value));
    if (issues.length === 0) issues.push({ path: [], message: 'value does not match the IDL type' });
    return issues.length > MAX_ISSUES ? issues.slice(0, MAX_ISSUES) : issues;
  };
}

/**
 * The explainer's walker of a schema without references (a value with the constraints of an
 * attribute list): generated problem walkers call it, so their problems are word for word these.
 */
export function constraintWalker(schema: TSchema): (value: unknown, path: (string | number)[], issues: ValidationIssue[]) => void {
  return buildWalker(schema, [], undefined);
}

/**
 * Records every problem of `value` in plain words. `path` is one shared stack (pushed and popped
 * around each child), copied only when a problem is recorded.
 *
 * Each walker starts like a call of a schema interpreter would: nothing more once `MAX_ISSUES`
 * problems are recorded (leaves test that only when they have a problem, the happy path).
 */
type Walker = (value: unknown, path: (string | number)[], issues: ValidationIssue[]) => void;

/**
 * The scalar kinds a container tests itself before walking a child: most fields and items are
 * scalars and most of them are fine, and then the test spares a call and a push onto the path.
 * Small integers, not strings or `undefined`: V8 keeps such a field and its compares fast.
 */
type ScalarKind = typeof NOT_SCALAR | typeof STRING | typeof NUMBER | typeof INTEGER | typeof BOOLEAN;
const NOT_SCALAR = 0;
const STRING = 1;
const NUMBER = 2;
const INTEGER = 3;
const BOOLEAN = 4;

function scalarKind(schema: TSchema): ScalarKind {
  if (hasConstraints(schema)) return NOT_SCALAR; // walked: its walker tests the constraints
  switch (schema[Kind]) {
    case 'String':
      // A wire form (timestamp, date, bytes) is walked: its walker tests the pattern.
      return schema.pattern === undefined ? STRING : NOT_SCALAR;
    case 'Number':
      return NUMBER;
    case 'Integer':
      return INTEGER;
    case 'Boolean':
      return BOOLEAN;
    default:
      return NOT_SCALAR;
  }
}

/** Whether `value` is a valid scalar of that kind (never for NOT_SCALAR: walk the child then). */
function isValidScalar(scalar: ScalarKind, value: unknown): boolean {
  switch (scalar) {
    case STRING:
      return typeof value === 'string';
    case NUMBER:
      return Number.isFinite(value);
    case INTEGER:
      return Number.isSafeInteger(value); // whole and within ±(2^53−1), as the Integer walker says
    case BOOLEAN:
      return typeof value === 'boolean';
    default:
      return false;
  }
}

/**
 * A child schema of an object, array or map: its walker, its scalar kind, and the compiled check of
 * its named type if any (the container runs it: a value it accepts needs no push onto the path and
 * no walk).
 */
interface Child {
  walk: Walker;
  scalar: ScalarKind;
  check: ((value: unknown) => boolean) | undefined;
}

/** Whether a container can skip `value`: a valid scalar, or a value its named type's check accepts. */
function isAccepted(child: Child, value: unknown): boolean {
  return isValidScalar(child.scalar, value) || child.check?.(value) === true;
}

/** A field of a struct: its name, its message when it is required and absent, and its schema. */
interface Field extends Child {
  key: string;
  missing: string | undefined;
}

/** Records the problems of one field's value (`undefined` when the field is absent). */
function visitField(field: Field, fieldValue: unknown, path: (string | number)[], issues: ValidationIssue[]): void {
  if (fieldValue === undefined) {
    if (field.missing !== undefined) record(issues, path, field.missing);
  } else if (!isAccepted(field, fieldValue)) {
    path.push(field.key);
    field.walk(fieldValue, path, issues);
    path.pop();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function record(issues: ValidationIssue[], path: (string | number)[], message: string): void {
  issues.push({ path: path.slice(), message });
}

/**
 * Turns `root` into a tree of walkers, one per schema node with its messages worked out (reading
 * the schema on every call made listing problems several times slower).
 */
function buildWalker(root: TSchema, references: TSchema[], namedChecks: NamedChecks | undefined): Walker {
  const byId = new Map<string, TSchema>();
  for (const reference of references) if (typeof reference.$id === 'string') byId.set(reference.$id, reference);
  // One walker per named schema, however many places refer to it.
  const named = new Map<string, Walker>();
  const inProgress = new Set<string>();

  function namedWalker(id: string, target: TSchema): Walker {
    const built = named.get(id);
    if (built !== undefined) return built;
    if (inProgress.has(id)) {
      // A recursive struct refers to itself: its walker exists by the time a value gets here.
      let walk: Walker | undefined;
      return (value, path, issues) => (walk ??= named.get(id)!)(value, path, issues);
    }
    inProgress.add(id);
    const walk = build(target);
    inProgress.delete(id);
    named.set(id, walk);
    return walk;
  }

  const child = (schema: TSchema): Child => {
    const check = namedCheck(schema, false);
    // The container runs the check, so the walker behind it goes without.
    const walk = check === undefined ? build(schema) : namedWalker(schema.$ref, byId.get(schema.$ref)!);
    return { walk, scalar: scalarKind(schema), check };
  };

  /**
   * The compiled check to run before walking a value of `schema`, if it is a reference to a named
   * type with one. Not at the root (the check just failed on this value), and not for an enum, whose
   * walker is as cheap as its check and agrees with it on every value.
   */
  function namedCheck(schema: TSchema, isRoot: boolean): ((value: unknown) => boolean) | undefined {
    return isRoot || schema[Kind] !== 'Ref' ? undefined : checkById(schema.$ref);
  }

  /** The compiled check of the named type `id`, if there is one and it is not an enum's. */
  function checkById(id: string): ((value: unknown) => boolean) | undefined {
    if (namedChecks === undefined) return undefined;
    const target = byId.get(id);
    if (target === undefined || !Object.hasOwn(namedChecks, id)) return undefined;
    const isEnum = target[Kind] === 'Union' && (target.anyOf as TSchema[]).every((member) => member[Kind] === 'Literal');
    return isEnum ? undefined : namedChecks[id];
  }

  /** A reference to a named type: its walker, behind its compiled check when there is one. */
  function buildRef(schema: TSchema, isRoot: boolean): Walker {
    const id: string = schema.$ref;
    const target = byId.get(id);
    if (target === undefined) {
      const message = `unknown type ${id}`;
      return (_value, path, issues) => {
        if (issues.length < MAX_ISSUES) record(issues, path, message);
      };
    }
    const walk = namedWalker(id, target);
    const check = namedCheck(schema, isRoot);
    if (check === undefined) return walk;
    return (value, path, issues) => {
      if (issues.length < MAX_ISSUES && !check(value)) walk(value, path, issues);
    };
  }

  /** A number with bounds: its type's problem, or every bound it breaks. */
  function constrainedNumberWalker(schema: TSchema, isValid: (value: unknown) => boolean, message: string): Walker {
    const problemsOf = numberConstraintProblems(schema);
    return (value, path, issues) => {
      if (issues.length >= MAX_ISSUES) return;
      if (!isValid(value)) {
        if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value))
          return record(issues, path, `value ${value} is outside the safe integer range ±(2^53−1)`);
        return record(issues, path, message);
      }
      problemsOf(value as number, (problem) => {
        if (issues.length < MAX_ISSUES) record(issues, path, problem);
      });
    };
  }

  /** `isRoot`: `schema` is the validated value's own (the check just failed on that value). */
  function build(schema: TSchema, isRoot = false): Walker {
    if (typeof schema.discriminator === 'string') return buildDiscriminatedUnion(schema);
    switch (schema[Kind]) {
      case 'Ref':
        return buildRef(schema, isRoot);
      case 'String': {
        if (schema.pattern !== undefined) {
          const pattern = new RegExp(schema.pattern);
          const message = wireFormProblem(schema.pattern) ?? `expected a string matching ${schema.pattern}`;
          return (value, path, issues) => {
            if ((typeof value !== 'string' || !pattern.test(value)) && issues.length < MAX_ISSUES) record(issues, path, message);
          };
        }
        return (value, path, issues) => {
          if (typeof value !== 'string' && issues.length < MAX_ISSUES) record(issues, path, 'expected string');
        };
      }
      case 'Unknown':
        return () => {}; // json: any value (a required field's presence is its struct's to check)
      case 'Boolean':
        return (value, path, issues) => {
          if (typeof value !== 'boolean' && issues.length < MAX_ISSUES) record(issues, path, 'expected boolean');
        };
      case 'Null':
        return (value, path, issues) => {
          if (value !== null && issues.length < MAX_ISSUES) record(issues, path, 'expected null');
        };
      case 'Number':
        if (hasConstraints(schema)) return constrainedNumberWalker(schema, Number.isFinite, 'expected number');
        return (value, path, issues) => {
          if (!Number.isFinite(value) && issues.length < MAX_ISSUES) record(issues, path, 'expected number');
        };
      case 'Integer':
        if (hasConstraints(schema)) return constrainedNumberWalker(schema, Number.isSafeInteger, 'expected integer');
        return (value, path, issues) => {
          if (Number.isSafeInteger(value) || issues.length >= MAX_ISSUES) return;
          if (typeof value !== 'number' || !Number.isInteger(value)) record(issues, path, 'expected integer');
          else record(issues, path, `value ${value} is outside the safe integer range ±(2^53−1)`);
        };
      case 'RegExp': {
        // A string with the constraints of an attribute list (constraints.ts).
        const problemsOf = stringConstraintProblems(schema[IDL_CONSTRAINTS] ?? {});
        return (value, path, issues) => {
          if (issues.length >= MAX_ISSUES) return;
          if (typeof value !== 'string') return record(issues, path, 'expected string');
          problemsOf(value, (message) => {
            if (issues.length < MAX_ISSUES) record(issues, path, message);
          });
        };
      }
      case 'Literal': {
        const expected: unknown = schema.const;
        const message = `expected ${JSON.stringify(expected)}`;
        return (value, path, issues) => {
          if (value !== expected && issues.length < MAX_ISSUES) record(issues, path, message);
        };
      }
      case 'Array': {
        const bounded = hasConstraints(schema); // minItems/maxItems of an attribute list
        const items = child(schema.items);
        const { walk } = items;
        return (value, path, issues) => {
          if (issues.length >= MAX_ISSUES) return;
          if (!Array.isArray(value)) return record(issues, path, 'expected array');
          const countProblem = bounded ? itemCountProblem(value.length, schema) : undefined;
          if (countProblem !== undefined) record(issues, path, countProblem);
          for (let index = 0; index < value.length && issues.length < MAX_ISSUES; index++) {
            const item: unknown = value[index];
            if (isAccepted(items, item)) continue;
            if (item === undefined && !(index in value)) continue; // a hole of a sparse array is no element (as with forEach)
            path.push(index);
            walk(item, path, issues);
            path.pop();
          }
        };
      }
      case 'Record': {
        const entries = child(Object.values(schema.patternProperties as Record<string, TSchema>)[0]);
        const { walk } = entries;
        return (value, path, issues) => {
          if (issues.length >= MAX_ISSUES) return;
          if (!isObject(value)) return record(issues, path, 'expected object');
          for (const key of Object.keys(value)) {
            if (issues.length >= MAX_ISSUES) return;
            const entry = value[key];
            if (isAccepted(entries, entry)) continue;
            path.push(key);
            walk(entry, path, issues);
            path.pop();
          }
        };
      }
      case 'Object': {
        const required = new Set<string>(schema.required ?? []);
        const fields = Object.entries(schema.properties as Record<string, TSchema>).map(
          ([key, field]): Field => ({
            key,
            missing: required.has(key) ? `missing required field '${key}'` : undefined,
            ...child(field),
          }),
        );
        return (value, path, issues) => {
          if (issues.length >= MAX_ISSUES) return;
          if (!isObject(value)) return record(issues, path, 'expected object');
          // Reading a field by a name held in a variable is the slow part (this one walker reads
          // the fields of every struct, so V8 cannot specialise the lookup). Data usually lists its
          // fields in schema order, and `for...in` hands over keys and values without a lookup.
          const start = issues.length;
          let index = 0;
          for (const key in value) {
            if (index === fields.length || key !== fields[index].key) break;
            visitField(fields[index], value[key], path, issues);
            index++;
          }
          // `for...in` lists own keys before inherited ones, so if the last field it gave is own,
          // all were. If not (data inheriting enumerable properties, rare), start again by name.
          if (index > 0 && !Object.hasOwn(value, fields[index - 1].key)) {
            issues.length = start;
            index = 0;
          }
          // The fields out of order, absent or not in plain data, by name. An inherited property
          // is no field.
          for (; index < fields.length; index++) {
            const { key } = fields[index];
            visitField(fields[index], Object.hasOwn(value, key) ? value[key] : undefined, path, issues);
          }
        };
      }
      case 'Intersect':
        if (isExtendingStruct(schema)) return buildExtendingStruct(schema);
        return fallback(schema);
      case 'Union':
        return buildUnion(schema.anyOf as TSchema[], isRoot);
      case 'Never':
        return (_value, path, issues) => {
          if (issues.length < MAX_ISSUES) record(issues, path, 'no value is allowed here');
        };
      default:
        return fallback(schema);
    }
  }

  /** TypeBox's own explanation, for schema kinds the IDL mapping does not produce. */
  function fallback(schema: TSchema): Walker {
    return (value, path, issues) => {
      if (issues.length >= MAX_ISSUES) return;
      for (const issue of typeboxIssues(schema, references, value)) issues.push({ ...issue, path: [...path, ...issue.path] });
    };
  }

  /** A struct's own fields and the name of its parent (none at the root of a chain), built once per struct. */
  interface StructLink {
    own: Walker;
    parent: string | undefined;
  }
  const links = new Map<string, StructLink>();
  const linkOf = (schema: TSchema): StructLink =>
    isExtendingStruct(schema) ? { own: build(schema.allOf[1]), parent: schema.allOf[0].$ref } : { own: build(schema), parent: undefined };

  /**
   * A struct that extends another: the problems of the inherited fields (root ancestor first), then
   * of its own, as if its schema were one object of all its fields. The ancestors are followed in a
   * loop, each one's own fields walked by a walker built once: no recursion along the chain, which
   * may be thousands of structs long. When the parent's compiled check passes, no inherited field has
   * a problem and the ancestors are skipped.
   */
  function buildExtendingStruct(schema: TSchema): Walker {
    const link = linkOf(schema);
    const parentCheck = link.parent === undefined ? undefined : checkById(link.parent);
    return (value, path, issues) => {
      if (issues.length >= MAX_ISSUES) return;
      if (!isObject(value)) return record(issues, path, 'expected object');
      const parts: Walker[] = [link.own];
      if (parentCheck === undefined || !parentCheck(value)) {
        // At most one step per named schema, should a hand-built schema list hold a cycle.
        for (let id = link.parent, steps = 0; id !== undefined && steps <= byId.size; steps++) {
          let ancestor = links.get(id);
          if (ancestor === undefined) {
            const target = byId.get(id);
            if (target === undefined) {
              const message = `unknown type ${id}`;
              parts.push((_value, at, found) => found.length < MAX_ISSUES && record(found, at, message));
              break;
            }
            links.set(id, (ancestor = linkOf(target)));
          }
          parts.push(ancestor.own);
          id = ancestor.parent;
        }
      }
      for (let i = parts.length - 1; i >= 0; i--) parts[i](value, path, issues);
    };
  }

  /**
   * A discriminated union (runtime/schema.ts `unionSchema`): an object whose discriminator is one of
   * the tags, then the problems of that variant's struct. A missing or unknown tag is a problem of
   * the discriminator property, naming the tags.
   */
  function buildDiscriminatedUnion(schema: TSchema): Walker {
    const discriminator: string = schema.discriminator;
    // TypeBox makes a union of one member that member.
    const members = (schema[Kind] === 'Union' ? schema.anyOf : [schema]) as TSchema[];
    const variants = new Map<unknown, Walker>(
      members.map((member) => [member.allOf[0].properties[discriminator].const, build(member.allOf[1])] as const),
    );
    const tags = [...variants.keys()].map(String).join(', ');
    return (value, path, issues) => {
      if (issues.length >= MAX_ISSUES) return;
      if (!isObject(value)) return record(issues, path, 'expected object');
      const tag = Object.hasOwn(value, discriminator) ? value[discriminator] : undefined;
      const walk = typeof tag === 'string' ? variants.get(tag) : undefined;
      if (walk !== undefined) return walk(value, path, issues);
      path.push(discriminator);
      record(issues, path, tag === undefined ? `missing discriminator '${discriminator}' (one of: ${tags})` : `expected one of: ${tags}`);
      path.pop();
    };
  }

  /** An IDL enum, an [optional] type (`T | null`), or any other union (explained by TypeBox). */
  function buildUnion(members: TSchema[], isRoot: boolean): Walker {
    if (members.every((member) => member[Kind] === 'Literal')) {
      const values: unknown[] = members.map((member) => member.const);
      const message = `expected one of: ${values.map(String).join(', ')}`;
      return (value, path, issues) => {
        if (!values.includes(value) && issues.length < MAX_ISSUES) record(issues, path, message);
      };
    }
    const nonNull = members.filter((member) => member[Kind] !== 'Null');
    const allowsNull = nonNull.length < members.length;
    if (nonNull.length === 1) {
      const walk = build(nonNull[0], isRoot); // `T | null` at the root: T's check failed too
      return (value, path, issues) => {
        if (issues.length >= MAX_ISSUES || (value === null && allowsNull)) return;
        // An [optional] field or result: explain against its type, and say null was also allowed.
        const before = issues.length;
        walk(value, path, issues);
        const first = issues[before];
        if (issues.length === before + 1 && first.path.length === path.length && first.message.startsWith('expected ')) {
          first.message += ' or null';
        }
      };
    }
    return (value, path, issues) => {
      if (issues.length >= MAX_ISSUES || (value === null && allowsNull)) return;
      if (!members.some((member) => Check(member, references, value))) record(issues, path, 'value matches none of the allowed types');
    };
  }

  return build(root, true);
}

/** `Type.Intersect([Type.Ref(parent), Type.Object(own fields)])`: the schema of a struct that extends another. */
function isExtendingStruct(schema: TSchema): boolean {
  const members = schema.allOf as TSchema[] | undefined;
  return schema[Kind] === 'Intersect' && members?.length === 2 && members[0][Kind] === 'Ref' && members[1][Kind] === 'Object';
}

/** Fallback for schema kinds the IDL mapping does not produce: TypeBox's own error list. */
function typeboxIssues(schema: TSchema, references: TSchema[], value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of Errors(schema, references, value)) {
    const path =
      error.path === ''
        ? []
        : error.path
            .slice(1)
            .split('/')
            .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    issues.push({ path: path.map((s) => (/^\d+$/.test(s) ? Number(s) : s)), message: error.message });
    if (issues.length >= MAX_ISSUES) break;
  }
  return issues;
}

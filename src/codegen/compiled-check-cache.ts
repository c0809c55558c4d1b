/**
 * TypeBox's compiled code per schema, kept across generations (and between the types of one IDL
 * that have the same shape) and keyed by the schema's canonical text, so that regenerating an IDL,
 * in a dev server after an edit or in a watch build, compiles only the types that changed.
 *
 * The schemas are compiled under aliases local to the schema (its own `$id` is `T0`, the types it
 * refers to `T1`, `T2`, ... in order of first appearance), not under the module's aliases: so the
 * key and the code depend on nothing but the schema itself, and two structs with the same fields
 * share one entry. The caller maps the aliases back to its own names.
 */
import type { TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { alias, compiledCode } from './typebox-output.js';

/** Entries kept before the cache starts over (about 1 KB each; far more types than any IDL has). */
const MAX_ENTRIES = 50_000;

const cache = new Map<string, string>();
/**
 * The same, by the schema object: a schema kept from an earlier generation (interned-schemas.ts)
 * needs no canonical text, which cost as much as the rest of a cached compile.
 */
let bySchema = new WeakMap<TSchema, Partial<Record<'javascript' | 'typescript', LocallyCompiled>>>();

/** A schema compiled under local aliases: TypeBox's code and the `$id` each alias stands for. */
export interface LocallyCompiled {
  code: string;
  /** `ids[index]` is the `$id` that `check_T<index>` stands for (`ids[0]` the schema's own, if named). */
  ids: string[];
}

/**
 * TypeBox's standalone code for `schema`, every `$ref` compiled to a call of the referenced check
 * (TypeBox is given `Type.Unknown` stand-ins for them), from the cache when a schema of the same
 * canonical text was compiled before.
 */
export function compileCached(schema: TSchema, language: 'javascript' | 'typescript'): LocallyCompiled {
  let known = bySchema.get(schema);
  if (known === undefined) bySchema.set(schema, (known = {}));
  return (known[language] ??= compileByText(schema, language));
}

function compileByText(schema: TSchema, language: 'javascript' | 'typescript'): LocallyCompiled {
  const own = typeof schema.$id === 'string' ? schema.$id : undefined;
  // Slot 0 is the schema's own name; an anonymous schema leaves it empty.
  const ids: string[] = [own ?? ''];
  const aliases = new Map<string, string>(own === undefined ? [] : [[own, alias(0)]]);
  const key = `${language}\n${canonicalSchemaText(schema, ids, aliases)}`;
  let code = cache.get(key);
  if (code === undefined) {
    const standIns = ids.slice(1).map((_id, index) => Type.Unknown({ $id: alias(index + 1) }));
    code = compiledCode(aliasedCopy(schema, aliases) as TSchema, standIns, language);
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, code);
  }
  return { code, ids };
}

/** Forgets every compiled schema (for tests that count compilations). */
export function clearCompiledCheckCache(): void {
  cache.clear();
  bySchema = new WeakMap();
}

/** How many compiled schemas the cache holds. */
export function compiledCheckCacheSize(): number {
  return cache.size;
}

/**
 * A text that two schemas share exactly when TypeBox compiles them to the same code: every key
 * in order, symbol keys (`Kind`, `OptionalKind`, ...) by their description, strings as JSON, and
 * `$id`/`$ref` names by their local alias (assigned here in order of first appearance, the names
 * collected in `ids`).
 */
function canonicalSchemaText(value: unknown, ids: string[], aliases: Map<string, string>): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalSchemaText(item, ids, aliases)).join(',')}]`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object' || value === null) return typeof value === 'number' ? `${value}` : String(value);
  let text = '{';
  for (const key of Reflect.ownKeys(value)) {
    const item = (value as Record<string | symbol, unknown>)[key];
    const name = typeof key === 'symbol' ? `@${key.description}` : JSON.stringify(key);
    if ((key === '$id' || key === '$ref') && typeof item === 'string') {
      let local = aliases.get(item);
      if (local === undefined) {
        local = alias(ids.length);
        aliases.set(item, local);
        ids.push(item);
      }
      text += `${name}:${local},`;
    } else {
      text += `${name}:${canonicalSchemaText(item, ids, aliases)},`;
    }
  }
  return `${text}}`;
}

/** A copy of `schema` with every `$id` and `$ref` replaced by its alias (symbol keys such as `Kind` kept). */
function aliasedCopy(schema: unknown, aliases: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => aliasedCopy(item, aliases));
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(schema)) {
    const value = (schema as Record<string | symbol, unknown>)[key];
    const isName = (key === '$id' || key === '$ref') && typeof value === 'string';
    copy[key] = isName ? aliases.get(value) : aliasedCopy(value, aliases);
  }
  return copy;
}

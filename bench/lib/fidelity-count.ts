/**
 * Fidelity of OpenAPI -> IDL -> OpenAPI (`npm run bench:fidelity`, docs/benchmarks.md): which of the
 * source document's constraint, default, deprecation and discriminator keywords come back with the
 * same value, per component schema property and per operation parameter, matched by name; and how
 * many "first alternative used" and "optional parameter made required" warnings the conversion gave.
 *
 * Names change on the way (the converter makes IDL identifiers of them; the writer keeps the IDL
 * names), so every source name is mapped the way the converter maps it: its naming rule
 * (src/openapi/names.ts), or the name a rename warning at that pointer says it was written as.
 * A source item whose mapped name another item of its scope also maps to is never matched, so a
 * wrong guess can only lose keywords, never find someone else's.
 */
import { camelCaseName, camelCaseWords, isValidIdentifier, upperFirst } from '../../src/openapi/names.js';
import { isObject, joinPointer, type Json, OpenApiDocument } from './fidelity-document.js';

/** The keywords measured, in table order. */
export const FIDELITY_KEYWORDS = [
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'default',
  'deprecated',
  'discriminator',
] as const;
export type FidelityKeyword = (typeof FIDELITY_KEYWORDS)[number];

/** Keywords a component schema is measured for as a whole; the others are measured where it is used. */
const SCHEMA_LEVEL_KEYWORDS: readonly FidelityKeyword[] = ['deprecated', 'discriminator'];

/** How one keyword fared: present in the source, back with the same value, back with another, missing. */
export interface KeywordTally {
  source: number;
  kept: number;
  changed: number;
  lost: number;
}

export interface FidelityCount {
  keywords: Record<FidelityKeyword, KeywordTally>;
  /** Of the source keywords, those on header and cookie parameters (which the IDL has no place for). */
  onHeaderOrCookie: number;
  warnings: WarningCounts;
}

/** The warnings counted (docs/benchmarks.md): what the IDL could not say, as the converter reports it. */
export interface WarningCounts {
  firstAlternative: number;
  optionalMadeRequired: number;
  optionalBodyMadeRequired: number;
}
export const WARNING_KINDS = ['firstAlternative', 'optionalMadeRequired', 'optionalBodyMadeRequired'] as const;

/** A warning of the converter: where (JSON pointer into the source) and what. */
export interface Warning {
  pointer: string;
  message: string;
}

/** `oneOf with 3 alternatives: the IDL has no unions; the first (...) is used` (anyOf alike). */
export const FIRST_ALTERNATIVE = /^(?:oneOf|anyOf) with \d+ alternatives\b.*\bfirst\b.*\bis used\b/;
/** `optional query parameter "x" became a required method parameter ...` (the issue's "optional parameter made required"). */
export const OPTIONAL_PARAMETER_MADE_REQUIRED = /^optional query parameter\b.*\bbecame\b.*\brequired\b/;
/** `optional request body became the required parameter ...`: counted apart, the issue's figures are of parameters. */
export const OPTIONAL_BODY_MADE_REQUIRED = /^optional request body\b.*\bbecame\b.*\brequired\b/;

/** An empty count, to add documents' counts into. */
export function emptyCount(): FidelityCount {
  const keywords = Object.fromEntries(FIDELITY_KEYWORDS.map((k) => [k, { source: 0, kept: 0, changed: 0, lost: 0 }]));
  return {
    keywords: keywords as FidelityCount['keywords'],
    onHeaderOrCookie: 0,
    warnings: { firstAlternative: 0, optionalMadeRequired: 0, optionalBodyMadeRequired: 0 },
  };
}

/** Adds `more` into `total`. */
export function addCount(total: FidelityCount, more: FidelityCount): FidelityCount {
  for (const keyword of FIDELITY_KEYWORDS) {
    for (const field of ['source', 'kept', 'changed', 'lost'] as const) total.keywords[keyword][field] += more.keywords[keyword][field];
  }
  total.onHeaderOrCookie += more.onHeaderOrCookie;
  for (const kind of WARNING_KINDS) total.warnings[kind] += more.warnings[kind];
  return total;
}

/** The sum over every keyword. */
export function totalOf(count: FidelityCount): KeywordTally {
  const total = { source: 0, kept: 0, changed: 0, lost: 0 };
  for (const keyword of FIDELITY_KEYWORDS) {
    for (const field of ['source', 'kept', 'changed', 'lost'] as const) total[field] += count.keywords[keyword][field];
  }
  return total;
}

/**
 * Measures one round trip: `source` is the document converted, `output` what the IDL it became was
 * written back as, `warnings` what the OpenAPI -> IDL conversion reported.
 */
export function measureFidelity(
  source: unknown,
  output: unknown,
  warnings: readonly Warning[],
  explain?: (item: ExplainedKeyword) => void,
): FidelityCount {
  const count = emptyCount();
  const renames = new Renames(warnings);
  const src = new OpenApiDocument(source);
  const out = new OpenApiDocument(output);
  for (const warning of warnings) {
    if (FIRST_ALTERNATIVE.test(warning.message)) count.warnings.firstAlternative++;
    if (OPTIONAL_PARAMETER_MADE_REQUIRED.test(warning.message)) count.warnings.optionalMadeRequired++;
    if (OPTIONAL_BODY_MADE_REQUIRED.test(warning.message)) count.warnings.optionalBodyMadeRequired++;
  }
  const tally: Tally = (item, keywords, back, only) => {
    for (const keyword of only ?? FIDELITY_KEYWORDS) {
      if (!counts(keyword, keywords[keyword])) continue;
      const t = count.keywords[keyword];
      t.source++;
      const value = back?.[keyword];
      const outcome = value === undefined ? 'lost' : sameValue(keyword, keywords[keyword], value) ? 'kept' : 'changed';
      t[outcome]++;
      explain?.({ item, keyword, source: keywords[keyword], back: value, outcome, matched: back !== undefined });
    }
  };
  measureSchemas(src, out, renames, tally);
  measureParameters(src, out, renames, tally, (keywords) => {
    for (const keyword of FIDELITY_KEYWORDS) if (counts(keyword, keywords[keyword])) count.onHeaderOrCookie++;
  });
  return count;
}

/** One keyword of one item, for `--explain`: the item (`schema Pet`, `Pet.name`, `GET /pets ?limit`), the values, the outcome. */
export interface ExplainedKeyword {
  item: string;
  keyword: FidelityKeyword;
  source: unknown;
  back: unknown;
  outcome: 'kept' | 'changed' | 'lost';
  /** Whether the item itself was found in the output (a lost keyword of an item that was not is lost with it). */
  matched: boolean;
}

type Tally = (item: string, keywords: Json, back: Json | undefined, only?: readonly FidelityKeyword[]) => void;

/** Component schemas (their `deprecated` and `discriminator`) and their properties (every keyword). */
function measureSchemas(src: OpenApiDocument, out: OpenApiDocument, renames: Renames, tally: Tally): void {
  const outSchemas = out.schemas();
  const names = new Unique<string>();
  const components = Object.entries(src.schemas()).map(([key, schema]) => {
    const pointer = joinPointer('/components/schemas', key);
    const title = isObject(schema) && typeof schema.title === 'string' && schema.title.trim() !== '' ? schema.title : undefined;
    const name = renames.get(pointer, /^schema (?:title|name) "/) ?? title ?? key;
    names.add(name);
    return { schema, pointer, name };
  });
  for (const { schema, pointer, name } of components) {
    if (!isObject(schema)) continue;
    const key = pointer.slice('/components/schemas/'.length);
    const back = names.isUnique(name) && isObject(outSchemas[name]) ? (outSchemas[name] as Json) : undefined;
    tally(`schema ${key} -> ${name}`, schema, back, SCHEMA_LEVEL_KEYWORDS);
    const fields = new Unique<string>();
    const properties = ownProperties(schema, pointer).map(({ property, propertySchema, location }) => {
      const field = renames.get(location, /^property "/) ?? camelCaseWords(property);
      fields.add(field);
      return { property, propertySchema, field };
    });
    for (const { property, propertySchema, field } of properties) {
      const backProperty = back && fields.isUnique(field) ? out.findProperty(back, field) : undefined;
      tally(
        `${key}.${property} -> ${name}.${field}`,
        src.keywords(propertySchema),
        backProperty === undefined ? undefined : out.keywords(backProperty),
      );
    }
  }
}

/** A schema's own properties: `properties`, and those of its inline `allOf` members, with their pointers. */
function ownProperties(schema: Json, pointer: string): { property: string; propertySchema: unknown; location: string }[] {
  const holders: { holder: Json; at: string }[] = [{ holder: schema, at: pointer }];
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((member, i) => {
      if (isObject(member) && member.$ref === undefined) holders.push({ holder: member, at: joinPointer(pointer, 'allOf', i) });
    });
  }
  return holders.flatMap(({ holder, at }) =>
    isObject(holder.properties)
      ? Object.entries(holder.properties).map(([property, propertySchema]) => ({
          property,
          propertySchema,
          location: joinPointer(at, 'properties', property),
        }))
      : [],
  );
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every path, query, header and cookie parameter of every operation. */
function measureParameters(
  src: OpenApiDocument,
  out: OpenApiDocument,
  renames: Renames,
  tally: Tally,
  onHeaderOrCookie: (keywords: Json) => void,
): void {
  const paths = isObject(src.root.paths) ? src.root.paths : {};
  const interfaceNames = renames.interfaceNames();
  const methods = new Unique<string>();
  const operations: { parameters: { keywords: Json; name: string; raw: string; in: unknown }[]; method: string; where: string }[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const httpMethod of HTTP_METHODS) {
      const operation = item[httpMethod];
      if (!isObject(operation)) continue;
      const at = joinPointer('/paths', path, httpMethod);
      const key = interfaceKey(path, operation);
      const method = `${interfaceNames.get(key) ?? key}/${renames.get(at, /^method name /) ?? `${httpMethod}${upperFirst(operationId(path, operation, at, renames))}`}`;
      methods.add(method);
      const merged = new Map<string, { keywords: Json; name: string; raw: string; in: unknown }>();
      const collect = (list: unknown, listAt: string) => {
        if (!Array.isArray(list)) return;
        list.forEach((entry, i) => {
          const parameter = src.resolve(entry);
          if (!isObject(parameter) || typeof parameter.name !== 'string') return;
          const site = joinPointer(listAt, 'parameters', i);
          const keywords = { ...src.keywords(parameter.schema) };
          if (parameter.deprecated !== undefined) keywords.deprecated = parameter.deprecated;
          const name = renames.get(site, /^parameter "/) ?? camelCaseWords(parameter.name);
          merged.set(`${String(parameter.in)}:${parameter.name}`, { keywords, name, raw: parameter.name, in: parameter.in });
        });
      };
      collect(item.parameters, joinPointer('/paths', path));
      collect(operation.parameters, at);
      operations.push({ parameters: [...merged.values()], method, where: `${httpMethod.toUpperCase()} ${path}` });
    }
  }
  for (const { parameters, method, where } of operations) {
    const body = methods.isUnique(method) ? out.requestBody(`/${method}`) : undefined;
    const names = new Unique<string>();
    for (const p of parameters) if (p.in === 'path' || p.in === 'query') names.add(p.name);
    for (const p of parameters) {
      const kept = p.in === 'path' || p.in === 'query';
      if (!kept) onHeaderOrCookie(p.keywords);
      const back = kept && body && names.isUnique(p.name) ? out.findProperty(body, p.name) : undefined;
      tally(`${where} ${String(p.in)} ${p.raw} -> /${method} ${p.name}`, p.keywords, back === undefined ? undefined : out.keywords(back));
    }
  }
}

/** The interface key of an operation, as the converter takes it: its first tag, else its first path segment. */
function interfaceKey(path: string, operation: Json): string {
  const tags = operation.tags;
  if (Array.isArray(tags) && typeof tags[0] === 'string' && tags[0].trim() !== '') return tags[0];
  const segment = path.split('/').find((s) => s !== '');
  return segment === undefined ? 'root' : segment.replace(/^\{(.*)\}$/, '$1');
}

/** The operationId as the converter makes it an identifier (or from the path, without one). */
function operationId(path: string, operation: Json, at: string, renames: Renames): string {
  const raw = operation.operationId;
  if (typeof raw === 'string' && raw !== '') {
    return renames.get(joinPointer(at, 'operationId'), /^operationId "/) ?? (isValidIdentifier(raw) ? raw : camelCaseName(raw));
  }
  const words = path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => (/^\{.*\}$/.test(s) ? `by ${s.slice(1, -1)}` : s));
  return words.length === 0 ? 'root' : camelCaseName(words.join(' '));
}

/** Whether a keyword's value is counted: `false` for `deprecated` and the 3.0 `exclusive*` says what leaving it out says. */
function counts(keyword: FidelityKeyword, value: unknown): boolean {
  if (value === undefined) return false;
  if (value === false && (keyword === 'deprecated' || keyword === 'exclusiveMinimum' || keyword === 'exclusiveMaximum')) return false;
  return true;
}

/**
 * Same value: equal JSON (object keys in any order). A discriminator is the same when it names the
 * same property and its `mapping` (whose targets name schemas, which are renamed) has every tag the
 * source's has.
 */
function sameValue(keyword: FidelityKeyword, a: unknown, b: unknown): boolean {
  if (keyword === 'discriminator') {
    if (!isObject(a) || !isObject(b) || a.propertyName !== b.propertyName) return false;
    const tags = isObject(a.mapping) ? Object.keys(a.mapping) : [];
    return tags.every((tag) => isObject(b.mapping) && tag in b.mapping);
  }
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    isObject(v) && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v,
  );
}

/** The names a conversion's rename warnings give, by the pointer they are at. */
class Renames {
  private readonly byPointer = new Map<string, string[]>();

  constructor(private readonly warnings: readonly Warning[]) {
    for (const { pointer, message } of warnings) {
      const list = this.byPointer.get(pointer) ?? [];
      list.push(message);
      this.byPointer.set(pointer, list);
    }
  }

  /**
   * The name the warning of this kind at `pointer` says the item was written as; undefined without
   * one. Several such warnings at one pointer (a path-level parameter of several operations) that
   * disagree give a name no item has, so the item is not matched.
   */
  get(pointer: string, kind: RegExp): string | undefined {
    const names = new Set(
      (this.byPointer.get(pointer) ?? [])
        .filter((m) => kind.test(m))
        .map((m) => /written as (?:field )?([A-Za-z][A-Za-z0-9_]*)/.exec(m)?.[1]),
    );
    if (names.size === 0) return undefined;
    return names.size === 1 ? ([...names][0] ?? ' unreadable') : ' ambiguous';
  }

  /** Interface key (tag or path segment) -> the name its rename warning gives. */
  interfaceNames(): Map<string, string> {
    const names = new Map<string, string>();
    for (const { message } of this.warnings) {
      const match = /^interface name "(.*)" is not a valid unique IDL identifier; written as ([A-Za-z][A-Za-z0-9_]*)$/.exec(message);
      if (match) names.set(match[1], match[2]);
    }
    return names;
  }
}

/** Counts how many items of a scope map to each name, so that a name two items map to matches neither. */
class Unique<T> {
  private readonly seen = new Map<T, number>();
  add(name: T): void {
    this.seen.set(name, (this.seen.get(name) ?? 0) + 1);
  }
  isUnique(name: T): boolean {
    return this.seen.get(name) === 1;
  }
}

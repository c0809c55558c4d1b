/**
 * The rules of the breaking-change check: one stable id per kind of change, the level it breaks at
 * and a line for docs and `-help`. Ids never change once released: `// idlrpc:accept` directives,
 * `-accept` flags and CI scripts name them. docs/breaking.md documents each with an example.
 *
 * Changes to a struct or an enum depend on where its values travel (directions.ts): a rule whose
 * level differs by direction has one level per direction; a type travelling both ways takes the
 * more severe of the two, and a type used by no method takes `unused`.
 */
import type { TravelDirection } from './directions.js';
import { type ChangeLevel, moreSevere } from './levels.js';

/** The level of a rule whose effect depends on where the type's values travel. */
export interface DirectionalLevel {
  request: ChangeLevel;
  response: ChangeLevel;
  unused: ChangeLevel;
}

export interface Rule {
  id: string;
  level: ChangeLevel | DirectionalLevel;
  summary: string;
}

/** Every rule, in the order of docs/breaking.md. */
export const RULES = [
  { id: 'namespace-changed', level: 'wire', summary: 'the root namespace is renamed' },
  { id: 'interface-removed', level: 'wire', summary: 'an interface is removed (or renamed)' },
  { id: 'interface-added', level: 'source', summary: 'an interface is added: handler objects must implement it' },
  { id: 'method-removed', level: 'wire', summary: 'a method is removed (or renamed)' },
  { id: 'method-added', level: 'source', summary: 'a method is added: handlers must implement it' },
  { id: 'param-added', level: 'wire', summary: 'a parameter is added (parameters are positional and required)' },
  { id: 'param-removed', level: 'wire', summary: 'a parameter is removed' },
  { id: 'param-reordered', level: 'wire', summary: 'parameters change order (safe for the named REST binding only)' },
  { id: 'param-renamed', level: 'openapi', summary: 'a parameter is renamed at the same position (named params break)' },
  { id: 'param-type-changed', level: 'wire', summary: "a parameter's type changes" },
  { id: 'return-type-changed', level: 'wire', summary: "a method's return type changes" },
  { id: 'return-made-optional', level: 'wire', summary: 'a method may now return null' },
  { id: 'return-made-required', level: 'source', summary: 'a method may no longer return null: handlers returning null stop compiling' },
  {
    id: 'method-stream-changed',
    level: 'wire',
    summary: 'a method becomes a stream (stream T) or stops being one: the answer changes from one JSON result to events, or back',
  },
  { id: 'raises-added', level: 'safe', summary: 'a method declares one more error' },
  { id: 'raises-removed', level: 'safe', summary: 'a method declares one error less' },
  { id: 'type-renamed', level: 'source', summary: 'a reference changes to a type of another name with the same JSON shape' },
  { id: 'struct-added', level: 'safe', summary: 'a struct is added' },
  { id: 'struct-removed', level: 'source', summary: 'a struct is removed (its uses are reported where they change)' },
  { id: 'struct-extends-changed', level: 'source', summary: "a struct's parent changes (its fields are compared one by one)" },
  {
    id: 'field-added-required',
    level: { request: 'wire', response: 'source', unused: 'source' },
    summary: 'a required field is added: old clients do not send it',
  },
  { id: 'field-added-optional', level: 'safe', summary: 'an optional field is added' },
  {
    id: 'field-removed',
    level: { request: 'source', response: 'wire', unused: 'source' },
    summary: 'a required field is removed: old clients expect it',
  },
  { id: 'optional-field-removed', level: 'source', summary: 'an optional field is removed' },
  {
    id: 'field-made-optional',
    level: { request: 'source', response: 'wire', unused: 'source' },
    summary: 'a field becomes optional: old clients expect it',
  },
  {
    id: 'field-made-required',
    level: { request: 'wire', response: 'source', unused: 'source' },
    summary: 'a field becomes required: old clients may leave it out',
  },
  {
    id: 'field-type-changed',
    level: { request: 'wire', response: 'wire', unused: 'source' },
    summary: "a field's type changes",
  },
  { id: 'enum-added', level: 'safe', summary: 'an enum is added' },
  { id: 'enum-removed', level: 'source', summary: 'an enum is removed (its uses are reported where they change)' },
  {
    id: 'enum-value-removed',
    level: { request: 'wire', response: 'source', unused: 'source' },
    summary: 'an enum value is removed: old clients may send it',
  },
  {
    id: 'enum-value-added',
    level: { request: 'safe', response: 'wire', unused: 'safe' },
    summary: 'an enum value is added: old clients may receive a value they do not know',
  },
  { id: 'union-added', level: 'safe', summary: 'a union is added' },
  { id: 'union-removed', level: 'source', summary: 'a union is removed (its uses are reported where they change)' },
  {
    id: 'struct-made-union',
    level: { request: 'wire', response: 'wire', unused: 'source' },
    summary: 'a struct is replaced by a union of the same name, or a union by a struct',
  },
  {
    id: 'union-variant-added',
    level: { request: 'safe', response: 'wire', unused: 'safe' },
    summary: 'a variant is added to a union: old clients may receive a tag they do not know',
  },
  {
    id: 'union-variant-removed',
    level: { request: 'wire', response: 'source', unused: 'source' },
    summary: 'a variant is removed from a union: old clients may send its tag',
  },
  {
    id: 'union-variant-type-changed',
    level: { request: 'wire', response: 'wire', unused: 'source' },
    summary: "a union variant's tag selects another struct",
  },
  {
    id: 'union-discriminator-changed',
    level: { request: 'wire', response: 'wire', unused: 'source' },
    summary: "a union's discriminator property changes",
  },
  {
    id: 'constraint-tightened',
    level: { request: 'wire', response: 'safe', unused: 'safe' },
    summary: 'a constraint accepts fewer values: old clients may send one now refused',
  },
  {
    id: 'constraint-loosened',
    level: { request: 'safe', response: 'wire', unused: 'safe' },
    summary: 'a constraint accepts more values: old clients may receive one they do not expect',
  },
  {
    id: 'constraint-changed',
    level: { request: 'wire', response: 'wire', unused: 'safe' },
    summary: 'a pattern, format or step accepts other values',
  },
  { id: 'default-added', level: 'safe', summary: 'an optional field or parameter gets a default' },
  {
    id: 'default-removed',
    level: { request: 'wire', response: 'safe', unused: 'safe' },
    summary: 'a default is removed: old clients leaving the item out no longer get it',
  },
  {
    id: 'default-changed',
    level: { request: 'wire', response: 'safe', unused: 'safe' },
    summary: 'a default changes: old clients leaving the item out get another value',
  },
  { id: 'param-added-optional', level: 'safe', summary: 'an optional parameter is added after the others' },
  { id: 'param-made-required', level: 'wire', summary: 'an optional parameter becomes required: old clients may leave it out' },
  {
    id: 'param-made-optional',
    level: 'source',
    summary: 'a parameter becomes optional: handlers may now get undefined (safe with a default)',
  },
  { id: 'error-added', level: 'safe', summary: 'a declared error is added' },
  { id: 'error-removed', level: 'source', summary: 'a declared error is removed: its class disappears' },
  { id: 'error-code-changed', level: 'wire', summary: "a declared error's code changes: clients tell errors apart by code" },
  { id: 'error-message-changed', level: 'safe', summary: "a declared error's default message changes" },
  { id: 'deprecated', level: 'safe', summary: 'an interface, method, struct, field or enum is marked @deprecated' },
  {
    id: 'readonly-removed',
    level: 'wire',
    summary: 'a method loses @readonly: its GET form (reads over GET, cached URLs) answers 405',
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];

const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));

/** The rule of an id, or undefined for a name that is none. */
export function ruleById(id: string): Rule | undefined {
  return RULES_BY_ID.get(id);
}

/** The level a rule breaks at for a type travelling in `direction` (ignored by rules with one level). */
export function ruleLevel(id: RuleId, direction: TravelDirection): ChangeLevel {
  const { level } = RULES_BY_ID.get(id)!;
  if (typeof level === 'string') return level;
  if (!direction.request && !direction.response) return level.unused;
  const request = direction.request ? level.request : 'safe';
  const response = direction.response ? level.response : 'safe';
  return moreSevere(request, response);
}

/**
 * Completion: keywords where a declaration starts (`union` too), `extends` after a struct's name,
 * `discriminator=` in a union's attribute list, struct names after `extends` and in a union's variant
 * lines, type names in type positions (built-in types, `timestamp`, `date`, `bytes` and `json` too,
 * the document's structs, enums and unions, imported ones as `common.Money`), declared errors inside
 * `raises(...)`, `stream` where a method's return type goes, `[optional]` after a field's or method's type
 * (not after a stream's item type), the attribute names that fit the type
 * inside an attribute list (after `[` or `,`), and the doc tags (`@deprecated`, `@readonly`,
 * `@example`) at the start of a comment line.
 */
import { type CompletionItem, CompletionItemKind, CompletionItemTag } from 'vscode-languageserver/node';
import type { BuiltInTypeName, TypeRef } from '../idl/ast.js';
import { attributeNamesFor } from '../idl/attribute-placement.js';
import type { AttributeName } from '../idl/attributes.js';
import { CONTEXTUAL_BUILT_IN_TYPES } from '../idl/built-in-types.js';
import { DOC_TAG_NAMES } from '../idl/doc-tags.js';
import { syntheticSpan } from '../idl/format.js';
import type { IdlSymbol } from '../idl/symbols.js';
import type { Analysis } from './analysis.js';
import { completionPlace } from './completion-context.js';
import { summaryOf } from './hover.js';
import { deprecated } from './outline.js';

const TOP_LEVEL_KEYWORDS = ['namespace', 'import', 'struct', 'enum', 'union', 'errors', 'interface'];
const BUILT_IN_TYPES = ['string', 'int', 'float', 'bool', 'timestamp', 'date', 'bytes', 'json'];
const OPTIONAL = '[optional]';
const DOC_TAG_DETAILS: Record<(typeof DOC_TAG_NAMES)[number], string> = {
  deprecated: '@deprecated <why>: the item should no longer be used',
  readonly: '@readonly: the method changes nothing (safe to retry, to cache, to call from tools)',
  example: '@example <one JSON value>: a value of the item (of a method: a result)',
};
/** What each attribute says, and what completion inserts (the name, and `=` where a value follows). */
const ATTRIBUTE_DETAILS: Record<AttributeName, string> = {
  optional: 'optional: may be left out',
  default: 'default=<JSON value>: what an item left out gets (with optional)',
  min: 'min=<number>: the smallest value allowed',
  max: 'max=<number>: the largest value allowed',
  exclusiveMin: 'exclusiveMin=<number>: values must be greater',
  exclusiveMax: 'exclusiveMax=<number>: values must be less',
  multipleOf: 'multipleOf=<number>: values must be a multiple of it',
  minLength: 'minLength=<int>: the fewest characters (code points)',
  maxLength: 'maxLength=<int>: the most characters (code points)',
  pattern: 'pattern="<regex>": a regular expression the text must contain a match of',
  minItems: 'minItems=<int>: the fewest items of the array',
  maxItems: 'maxItems=<int>: the most items of the array',
  format: 'format="<name>": email, uri, uuid, ipv4, ipv6 and hostname are checked; others are documentation',
};

/** The completion items at `offset` of the document (empty where nothing fits). */
export function completionsAt(analysis: Analysis, offset: number): CompletionItem[] {
  const place = completionPlace(analysis.document.text, offset);
  switch (place.kind) {
    case 'top-level':
      return TOP_LEVEL_KEYWORDS.map(keyword);
    case 'after-struct-name':
      return [keyword('extends')];
    case 'parent':
      return typeItems(analysis).filter((item) => item.kind === CompletionItemKind.Struct);
    case 'union-attribute':
      return [
        { label: 'discriminator=', kind: CompletionItemKind.Keyword, detail: 'discriminator=<name>: the tag property (default kind)' },
      ];
    case 'type':
      return [...builtInTypes(analysis).map(keyword), keyword('map[string]'), ...typeItems(analysis)];
    case 'return-type':
      return [
        { label: 'stream', kind: CompletionItemKind.Keyword, detail: 'stream <Type>: the method sends any number of values over time' },
        ...builtInTypes(analysis).map(keyword),
        keyword('map[string]'),
        ...typeItems(analysis),
      ];
    case 'after-field-type':
      return [keyword(OPTIONAL)];
    case 'after-return-type':
      return place.optionalWritten || place.stream ? [keyword('raises')] : [keyword(OPTIONAL), keyword('raises')];
    case 'attribute':
      return attributeItems(analysis, place);
    case 'raises':
      return errorItems(analysis);
    case 'doc-tag':
      return DOC_TAG_NAMES.map((name) => ({ label: `@${name}`, kind: CompletionItemKind.Keyword, detail: DOC_TAG_DETAILS[name] }));
    case 'none':
      return [];
  }
}

/**
 * The built-in type names, without those a struct or enum of the document is named after: such a
 * type wins over the built-in there (docs/idl.md, "Built-in types") and is offered as itself.
 */
function builtInTypes(analysis: Analysis): string[] {
  const declared = analysis.tree.symbols.types;
  return BUILT_IN_TYPES.filter((name) => !CONTEXTUAL_BUILT_IN_TYPES.has(name) || !isValueType(declared.get(name)));
}

const isValueType = (symbol: IdlSymbol | undefined): boolean =>
  symbol?.kind === 'struct' || symbol?.kind === 'enum' || symbol?.kind === 'union';

function keyword(label: string): CompletionItem {
  return { label, kind: CompletionItemKind.Keyword };
}

function declared(label: string, symbol: IdlSymbol, kind: CompletionItemKind): CompletionItem {
  const qualifier = label.slice(0, label.length - symbol.name.length);
  const item: CompletionItem = { label, kind, detail: summaryOf(symbol, qualifier) };
  if (deprecated(symbol)) item.tags = [CompletionItemTag.Deprecated];
  return item;
}

/** Structs, enums and unions of the document and of the files it imports (interfaces are not types of values). */
function typeItems(analysis: Analysis): CompletionItem[] {
  const items: CompletionItem[] = [];
  const add = (name: string, symbol: IdlSymbol) => {
    if (symbol.kind === 'struct') items.push(declared(name, symbol, CompletionItemKind.Struct));
    else if (symbol.kind === 'enum') items.push(declared(name, symbol, CompletionItemKind.Enum));
    // Class, as in the outline: the protocol has no kind for a union.
    else if (symbol.kind === 'union') items.push(declared(name, symbol, CompletionItemKind.Class));
  };
  for (const [name, symbol] of analysis.tree.symbols.types) add(name, symbol);
  for (const { name, symbol } of analysis.importedNames('type')) add(name, symbol);
  return items;
}

function errorItems(analysis: Analysis): CompletionItem[] {
  const items = [...analysis.tree.symbols.errors].map(([name, symbol]) => declared(name, symbol, CompletionItemKind.Constant));
  for (const { name, symbol } of analysis.importedNames('error')) items.push(declared(name, symbol, CompletionItemKind.Constant));
  return items;
}

/** The attribute names that fit the type and owner, in canonical order, without those the list already holds. */
function attributeItems(
  analysis: Analysis,
  place: { owner: 'field' | 'parameter' | 'return'; type: string; written: string[] },
): CompletionItem[] {
  const type = typeOfText(analysis, place.type);
  return attributeNamesFor(type, place.owner)
    .filter((name) => !place.written.includes(name))
    .map((name) => ({
      label: name,
      kind: CompletionItemKind.Property,
      detail: ATTRIBUTE_DETAILS[name],
      insertText: name === 'optional' ? name : `${name}=`,
    }));
}

/** A type as written (`[]int`, `map[string]Money`) as a type reference: what the attribute names are judged against. */
function typeOfText(analysis: Analysis, text: string): TypeRef {
  const span = syntheticSpan(analysis.document.uri);
  if (text.startsWith('[]')) return { kind: 'array', element: typeOfText(analysis, text.slice(2)), span };
  if (text.startsWith('map[string]')) return { kind: 'map', value: typeOfText(analysis, text.slice('map[string]'.length)), span };
  if (builtInTypes(analysis).includes(text)) return { kind: 'builtIn', name: text as BuiltInTypeName, span };
  return { kind: 'named', name: text, span };
}

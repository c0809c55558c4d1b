/**
 * Hover: a one-line summary of the declaration under the cursor (in IDL syntax) and its doc comment.
 * Works on declared names and on references, also to declarations of imported files.
 */
import type { Hover } from 'vscode-languageserver/node';
import { discriminatorOf, type Parameter } from '../idl/ast.js';
import { printAttributeList } from '../idl/attributes.js';
import { docCommentParts, docTags } from '../idl/doc-tags.js';
import { printType } from '../idl/format.js';
import type { IdlSymbol } from '../idl/symbols.js';
import type { Analysis } from './analysis.js';
import { symbolUnder } from './navigation.js';
import { toRange } from './positions.js';

/** How many enum values the summary lists before `...`. */
const LISTED_ENUM_VALUES = 8;

/** The hover at `offset` of the document, or null between names and on names that resolve to nothing. */
export function hoverAt(analysis: Analysis, offset: number): Hover | null {
  const found = symbolUnder(analysis, offset);
  if (!found) return null;
  const { symbol, span } = found;
  const summary = '```idl\n' + summaryOf(symbol, found.qualifier) + '\n```';
  const comment = 'comment' in symbol.node ? symbol.node.comment : undefined;
  const doc = comment?.includes('@') ? documentation(comment) : comment;
  return {
    contents: { kind: 'markdown', value: doc ? `${summary}\n\n${doc}` : summary },
    range: toRange(span),
  };
}

/**
 * A doc comment with tags as Markdown: the deprecation first (so it is seen), the description,
 * then `@readonly` and the examples.
 */
function documentation(comment: string): string {
  const parts = docCommentParts(comment);
  const tags = docTags(comment);
  const blocks: string[] = [];
  if (tags.deprecated !== undefined) blocks.push(`**Deprecated**${tags.deprecated === '' ? '' : `: ${tags.deprecated}`}`);
  if (parts.description !== undefined) blocks.push(parts.description);
  if (tags.readonly) blocks.push('**Read-only**: changes nothing (safe to retry, to cache, to call from tools)');
  for (const example of parts.tags.filter((t) => t.name === 'example')) blocks.push(`Example: \`${example.argument}\``);
  return blocks.join('\n\n');
}

/**
 * One line of IDL that says what a declaration is, e.g. `struct Order extends Base (7 fields)` or
 * `OrderService.createOrder(request CreateOrderRequest) CheckoutResponse raises(CartNotFound)`.
 * `qualifier` is the namespace an imported declaration is written with (`common.`).
 */
export function summaryOf(symbol: IdlSymbol, qualifier = ''): string {
  const owner = symbol.container ? `${qualifier}${symbol.container.name}.` : qualifier;
  switch (symbol.kind) {
    case 'namespace':
      return `namespace ${symbol.name}`;
    case 'enum': {
      const values = symbol.node.values.map((value) => value.name.text);
      const listed = values.slice(0, LISTED_ENUM_VALUES).join(', ') + (values.length > LISTED_ENUM_VALUES ? ', ...' : '');
      return `enum ${qualifier}${symbol.name} { ${listed} }`;
    }
    case 'enum-value':
      return `${owner}${symbol.name} (enum value)`;
    case 'struct': {
      const parent = symbol.node.extends ? ` extends ${symbol.node.extends.text}` : '';
      return `struct ${qualifier}${symbol.name}${parent} (${count(symbol.node.fields.length, 'field')})`;
    }
    case 'field':
      return `${owner}${symbol.name} ${printType(symbol.node.type)}${listText(symbol.node.attributes, symbol.node.optional)}`;
    case 'error':
      return `error ${symbol.node.code} ${qualifier}${symbol.name} ${JSON.stringify(symbol.node.message)}`;
    case 'interface':
      return `interface ${qualifier}${symbol.name} (${count(symbol.node.methods.length, 'method')})`;
    case 'method': {
      const method = symbol.node;
      const parameters = method.parameters.map(parameterText).join(', ');
      const optional = listText(method.returnAttributes, method.returnOptional);
      const raises = method.raises.length > 0 ? ` raises(${method.raises.map((r) => r.text).join(', ')})` : '';
      return `${owner}${symbol.name}(${parameters}) ${method.stream ? 'stream ' : ''}${printType(method.returnType)}${optional}${raises}`;
    }
    case 'parameter':
      return `${parameterText(symbol.node)} (parameter of ${qualifier}${symbol.container?.container?.name}.${symbol.container?.name})`;
    case 'union': {
      const variants = symbol.node.variants.map((variant) => `${variant.tag.text} ${variant.type.text}`).join(', ');
      return `union ${qualifier}${symbol.name} [discriminator=${discriminatorOf(symbol.node)}] { ${variants} }`;
    }
    case 'variant':
      return `${owner}${symbol.name} ${symbol.node.type.text} (union variant)`;
  }
}

/** A parameter as written, with its attribute list in canonical order: `perPage int [optional, default=30]`. */
function parameterText(parameter: Parameter): string {
  return `${parameter.name.text} ${printType(parameter.type)}${listText(parameter.attributes, parameter.optional === true)}`;
}

/** ` [optional, default=30, max=100]` (constraints and default in canonical order), or '' for none. */
function listText(attributes: Parameter['attributes'], optional: boolean): string {
  const list = printAttributeList(attributes, optional);
  return list === '' ? '' : ` ${list}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

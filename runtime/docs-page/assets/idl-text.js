/**
 * The IDL view: the IDL source as written when the server gave the page one, else the IDL printed
 * from the JSON form its `rpc-idl` method answers (docs/protocol.md §2), with every doc comment.
 * The printed text is the same contract; only comments that are not doc comments, blank lines and
 * the order of declarations of different kinds may differ from the file.
 */
import { typeText } from './request-template.js';

/**
 * The IDL text of an IDL JSON document.
 * @param {any} idl
 * @returns {string}
 */
export function printIdlJson(idl) {
  /** @type {string[]} */
  const out = [`namespace ${idl.rootNamespace}`];
  const own = (/** @type {{ namespace: string }} */ d) => d.namespace === idl.rootNamespace;
  const name = (/** @type {{ name: string, namespace: string }} */ d) =>
    own(d) && d.name.startsWith(`${d.namespace}.`) ? d.name.slice(d.namespace.length + 1) : d.name;
  /**
   * An item's doc comment, then its doc tags, which the JSON form keeps out of `comment` (docs/idl.md, "Doc tags").
   * @param {{ comment?: string, deprecated?: string, readonly?: boolean, examples?: unknown[] }} item @param {string} indent
   */
  const comment = (item, indent) => {
    if (item.comment) for (const line of item.comment.split('\n')) out.push(`${indent}// ${line}`.trimEnd());
    if (item.deprecated !== undefined) out.push(`${indent}// @deprecated ${item.deprecated}`.trimEnd());
    if (item.readonly) out.push(`${indent}// @readonly`);
    for (const example of item.examples ?? []) out.push(`${indent}// @example ${JSON.stringify(example)}`);
  };
  const imported = new Set(
    [...(idl.structs ?? []), ...(idl.enums ?? []), ...(idl.unions ?? []), ...(idl.errors ?? []), ...(idl.interfaces ?? [])]
      .filter((d) => !own(d))
      .map((d) => d.namespace),
  );
  if (imported.size > 0)
    out.push('', `// Declared in imported namespaces: ${[...imported].sort().join(', ')} (shown with qualified names).`);
  for (const declared of idl.enums ?? []) {
    out.push('');
    comment(declared, '');
    out.push(`enum ${name(declared)} {`);
    for (const value of declared.values ?? []) {
      comment(value, '    ');
      out.push(`    ${value.name}`);
    }
    out.push('}');
  }
  for (const struct of idl.structs ?? []) {
    out.push('');
    comment(struct, '');
    out.push(`struct ${name(struct)}${struct.extends ? ` extends ${struct.extends}` : ''} {`);
    const width = Math.max(0, ...(struct.fields ?? []).map((/** @type {any} */ f) => f.name.length));
    for (const field of struct.fields ?? []) {
      comment(field, '    ');
      const attributes = attributeListText(field, field.optional);
      out.push(`    ${field.name.padEnd(width)}  ${typeText(field.type)}${attributes ? `  ${attributes}` : ''}`);
    }
    out.push('}');
  }
  for (const union of idl.unions ?? []) {
    out.push('');
    comment(union, '');
    out.push(`union ${name(union)}${union.discriminator === 'kind' ? '' : ` [discriminator=${union.discriminator}]`} {`);
    const width = Math.max(0, ...(union.variants ?? []).map((/** @type {any} */ v) => v.tag.length));
    for (const variant of union.variants ?? []) {
      comment(variant, '    ');
      out.push(`    ${variant.tag.padEnd(width)}  ${variant.type}`);
    }
    out.push('}');
  }
  const errors = idl.errors ?? [];
  if (errors.length > 0) {
    out.push('', 'errors {');
    const width = Math.max(...errors.map((/** @type {any} */ e) => name(e).length));
    for (const error of errors) {
      comment(error, '    ');
      out.push(`    ${error.code} ${name(error).padEnd(width)} ${JSON.stringify(error.message)}`);
    }
    out.push('}');
  }
  for (const declared of idl.interfaces ?? []) {
    out.push('');
    comment(declared, '');
    out.push(`interface ${name(declared)} {`);
    for (const [index, method] of (declared.methods ?? []).entries()) {
      if (index > 0) out.push('');
      comment(method, '    ');
      out.push(`    ${methodSignature(method)}`);
    }
    out.push('}');
  }
  return `${out.join('\n')}\n`;
}

/**
 * A method as the IDL writes it: `createOrder(request CreateOrderRequest) CheckoutResponse raises(CartNotFound)`.
 * @param {any} method
 * @returns {string}
 */
export function methodSignature(method) {
  const withAttributes = (/** @type {string} */ text, /** @type {string} */ attributes) => (attributes ? `${text} ${attributes}` : text);
  const params = (method.parameters ?? [])
    .map((/** @type {any} */ p) => withAttributes(`${p.name} ${typeText(p.type)}`, attributeListText(p, p.optional)))
    .join(', ');
  const raises = method.raises?.length ? ` raises(${method.raises.join(', ')})` : '';
  const returns = attributeListText({ constraints: method.returnConstraints }, method.returnOptional);
  const stream = method.stream === true ? 'stream ' : '';
  return `${method.name}(${params}) ${stream}${withAttributes(typeText(method.returnType), returns)}${raises}`;
}

/**
 * The attribute list of a field, parameter or return as the IDL writes it (`[optional, default=30,
 * max=100]`), or '' when there is none. The JSON form keeps constraints in the IDL's canonical order.
 * @param {{ default?: unknown, constraints?: Record<string, unknown> }} item
 * @param {boolean | undefined} optional
 * @returns {string}
 */
export function attributeListText(item, optional) {
  const items = optional ? ['optional'] : [];
  if ('default' in item) items.push(`default=${JSON.stringify(item.default)}`);
  for (const [name, value] of Object.entries(item.constraints ?? {})) {
    items.push(`${name}=${typeof value === 'string' ? quoted(value) : value}`);
  }
  return items.length > 0 ? `[${items.join(', ')}]` : '';
}

/** A text in the IDL's quotes: `\\` and `\"` are its only escapes. @param {string} text */
const quoted = (text) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/**
 * The line of `text` that declares `methodName` inside `interface <interfaceName>`, or -1.
 * @param {string[]} lines
 * @param {string} interfaceName
 * @param {string} methodName
 */
export function methodLine(lines, interfaceName, methodName) {
  const plain = interfaceName.slice(interfaceName.lastIndexOf('.') + 1);
  const start = lines.findIndex((line) => new RegExp(`^\\s*interface\\s+${plain}\\b`).test(line));
  if (start === -1) return -1;
  for (let i = start + 1; i < lines.length && !/^\s*}/.test(lines[i]); i++) {
    if (new RegExp(`^\\s*${methodName}\\s*\\(`).test(lines[i])) return i;
  }
  return -1;
}

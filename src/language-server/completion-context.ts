/**
 * Where the cursor is, for completion: a light scan of the text before it (comments, strings,
 * braces and parentheses) that works on any text, however broken, since completion is asked while
 * typing, when the file rarely parses.
 */

/** The kind of place completion is asked in. */
export type CompletionPlace =
  /** Where a declaration starts: `namespace`, `import`, `struct`, ... */
  | { kind: 'top-level' }
  /** After `struct Name `: `extends`. */
  | { kind: 'after-struct-name' }
  /** After `extends `, or a union variant's tag: a struct name. */
  | { kind: 'parent' }
  /** Inside a union's attribute list (`union Payment [`): `discriminator=`. */
  | { kind: 'union-attribute' }
  /** A field's, parameter's or method's type (after `stream`: a stream's item type). */
  | { kind: 'type' }
  /** A method's return type: a type, or `stream` before one. */
  | { kind: 'return-type' }
  /** After a field's type: `[optional]`. */
  | { kind: 'after-field-type' }
  /**
   * After a method's return type: `[optional]` (unless written, or the method streams: a stream's
   * items cannot be optional) and `raises`.
   */
  | { kind: 'after-return-type'; optionalWritten: boolean; stream?: boolean }
  /**
   * Inside an attribute list after a type, where a name goes (after `[` or `,`): the attribute
   * names. `type` is the type as written; `written` the names the list already holds.
   */
  | { kind: 'attribute'; owner: 'field' | 'parameter' | 'return'; type: string; written: string[] }
  /** Inside `raises(...)`: an error name. */
  | { kind: 'raises' }
  /** At the start of a `//` comment line's text (after `//`, spaces and perhaps `@` and a partial word): a doc tag. */
  | { kind: 'doc-tag' }
  | { kind: 'none' };

type Block = 'struct' | 'enum' | 'union' | 'errors' | 'interface' | 'other';

/** A comment so far that is only `//`, spaces, `@` and the start of a word, on a line of its own. */
const DOC_TAG_START = /^\/\/[ \t]*@[A-Za-z]*$/;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
/** A type as written while typing: `[]`, `map[string]` prefixes, then a (qualified) name. */
const TYPE = String.raw`(?:\[\]|map\[string\])*[A-Za-z_][\w.]*`;
/**
 * The written part of an attribute list up to a name being typed: `[`, then items (`optional`,
 * `min=1`, `pattern="a,b"`, `default=[1, 2]`) each followed by `,`, then a partial name (group 2;
 * group 1 holds the items).
 */
const ATTRIBUTE_VALUE = String.raw`"(?:[^"\\\n]|\\.)*"|\[[^\]\n]*\]|\{[^}\n]*\}|[^,\]\s"[{]+`;
const LIST_UP_TO_NAME = String.raw`\[((?:\s*[A-Za-z]\w*(?:\s*=\s*(?:${ATTRIBUTE_VALUE}))?\s*,)*)\s*(\w*)$`;
/** `stream` and the space after it, before a method's return type (docs/idl.md, "Streams"). */
const STREAM = String.raw`(?:stream\s+)`;
const PARTIAL_TYPE = String.raw`(?:\[\]|map\[string\])*(?:[A-Za-z_][\w.]*|\[|map\[?s?t?r?i?n?g?\]?)?`;

/** The place `offset` is in `text`. */
export function completionPlace(text: string, offset: number): CompletionPlace {
  const blocks: Block[] = [];
  /** Open parentheses of the current block: true for one opened by `raises`. */
  const parens: boolean[] = [];
  let statementKeyword: Block | undefined;
  let lastWord = '';
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      if (end === -1 || end >= offset) {
        const ownLine = text.slice(text.lastIndexOf('\n', i - 1) + 1, i).trim() === '';
        return ownLine && DOC_TAG_START.test(text.slice(i, offset)) ? { kind: 'doc-tag' } : { kind: 'none' };
      }
      i = end;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (j >= offset) return { kind: 'none' };
      i = j;
      continue;
    }
    if (c === '{') {
      blocks.push(statementKeyword ?? 'other');
      statementKeyword = undefined;
      parens.length = 0;
    } else if (c === '}') {
      blocks.pop();
      parens.length = 0;
    } else if (c === '(') {
      parens.push(lastWord === 'raises');
    } else if (c === ')') {
      parens.pop();
    } else if (/[A-Za-z_]/.test(c)) {
      WORD.lastIndex = i;
      const word = WORD.exec(text)![0];
      if (blocks.length === 0 && (word === 'struct' || word === 'enum' || word === 'union' || word === 'errors' || word === 'interface'))
        statementKeyword = word;
      lastWord = word;
      i += word.length - 1;
      continue;
    }
    if (!/\s/.test(c)) lastWord = '';
  }

  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(lineStart, offset);
  const block = blocks.at(-1);
  if (block === undefined) {
    if (/^\s*\w*$/.test(line)) return { kind: 'top-level' };
    if (/^\s*struct\s+\w+\s+\w*$/.test(line)) return { kind: /^\s*struct\s+\w+\s+extends$/.test(line) ? 'none' : 'after-struct-name' };
    if (/^\s*struct\s+\w+\s+extends\s+[\w.]*$/.test(line)) return { kind: 'parent' };
    if (/^\s*union\s+\w+\s*\[\s*\w*$/.test(line)) return { kind: 'union-attribute' };
    return { kind: 'none' };
  }
  // A variant line: `<tag> <Struct>`.
  if (block === 'union') return /^\s*\w+\s+[\w.]*$/.test(line) ? { kind: 'parent' } : { kind: 'none' };
  if (block === 'struct') {
    const list = new RegExp(String.raw`^\s*\w+\s+(${TYPE})\s*${LIST_UP_TO_NAME}`).exec(line);
    if (list) return attributePlace('field', list);
    if (new RegExp(String.raw`^\s*\w+\s+${PARTIAL_TYPE}$`).test(line)) return { kind: 'type' };
    if (new RegExp(String.raw`^\s*\w+\s+${TYPE}\s+\[?\w*$`).test(line)) return { kind: 'after-field-type' };
    return { kind: 'none' };
  }
  if (block === 'interface') {
    if (parens.length > 0) {
      if (parens.at(-1)) return { kind: 'raises' };
      const list = new RegExp(String.raw`[(,]\s*\w+\s+(${TYPE})\s*${LIST_UP_TO_NAME}`).exec(line);
      if (list) return attributePlace('parameter', list);
      const sinceSeparator = line.slice(Math.max(line.lastIndexOf('('), line.lastIndexOf(',')) + 1);
      return new RegExp(String.raw`^\s*\w+\s+${PARTIAL_TYPE}$`).test(sinceSeparator) ? { kind: 'type' } : { kind: 'none' };
    }
    const afterParameters = line.slice(line.lastIndexOf(')') + 1);
    if (!line.includes(')')) return { kind: 'none' };
    const list = new RegExp(String.raw`\)\s*(${STREAM}?)(${TYPE})\s*${LIST_UP_TO_NAME}`).exec(line);
    if (list) {
      const place = attributePlace('return', [list[0], list[2], list[3], list[4]]);
      // A stream's items cannot be optional: `optional` is left out as if written.
      return list[1] === '' ? place : { ...place, written: [...place.written, 'optional'] };
    }
    // `stream` then a space: the item type goes there (a type named `stream` is among the types offered).
    if (new RegExp(String.raw`^\s*${STREAM}${PARTIAL_TYPE}$`).test(afterParameters)) return { kind: 'type' };
    if (new RegExp(String.raw`^\s*${PARTIAL_TYPE}$`).test(afterParameters)) return { kind: 'return-type' };
    const afterType = new RegExp(String.raw`^\s*(${STREAM}?)${TYPE}\s+(\[optional\]\s+)?\[?\w*$`).exec(afterParameters);
    if (afterType) return { kind: 'after-return-type', optionalWritten: afterType[2] !== undefined, stream: afterType[1] !== '' };
  }
  return { kind: 'none' };
}

/** The place inside an attribute list, from the match of `<type> <LIST_UP_TO_NAME>`. */
function attributePlace(
  owner: 'field' | 'parameter' | 'return',
  match: readonly string[],
): Extract<CompletionPlace, { kind: 'attribute' }> {
  const written = [...match[2].matchAll(/(?:^|,)\s*([A-Za-z]\w*)/g)].map((name) => name[1]);
  return { kind: 'attribute', owner, type: match[1], written };
}

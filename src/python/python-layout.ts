/**
 * Line layout of generated Python within PEP 8's 79 columns (what pycodestyle checks): a statement
 * that does not fit breaks its last bracket, one item per line with a trailing comma, the way a
 * careful programmer (or black) wraps it; a string literal too long becomes adjacent literals in
 * parentheses; only a line that cannot be split (one long name or word) keeps its length, marked
 * `# noqa: E501`.
 */
import { MAX_LINE, pyString } from './python-text.js';

/**
 * How the items of brackets are separated: `all` (a comma after each when broken), `tuple` (the
 * same, and a lone item keeps its comma on one line too), `between` (none after the last: a
 * subscript, where `X[a,]` would mean `X[(a,)]`), `none` (a comprehension's parts).
 */
export type Commas = 'all' | 'tuple' | 'between' | 'none';

/** A bracketed list (`items` empty: nothing breaks); `optional` brackets appear only when broken (`import`). */
export interface PyBrackets {
  kind: 'brackets';
  open: string;
  items: PyCode[];
  close: string;
  commas: Commas;
  optional: boolean;
}

/** A string literal that may be split at its spaces into adjacent literals. */
export interface PyText {
  kind: 'text';
  text: string;
}

/** Code: unbreakable text, brackets, a string literal, or a sequence of them (its last brackets break). */
export type PyCode = string | PyBrackets | PyText | PyCode[];

/** `open` item, item, ... `close`. */
export function brackets(
  open: string,
  items: readonly PyCode[],
  close: string,
  options: { commas?: Commas; optional?: boolean } = {},
): PyBrackets {
  return { kind: 'brackets', open, items: [...items], close, commas: options.commas ?? 'all', optional: options.optional ?? false };
}

/** A subscript `[a, b]` (no trailing comma). */
export function subscript(items: readonly PyCode[]): PyBrackets {
  return brackets('[', items, ']', { commas: 'between' });
}

/** A call `callee(arg, ...)`. */
export function call(callee: string, args: readonly PyCode[]): PyCode {
  return [callee, brackets('(', args, ')')];
}

/** `code`, in parentheses of its own lines when it does not fit otherwise (a value after `=` or `:`). */
export function paren(code: PyCode): PyBrackets {
  return brackets('(', [code], ')', { commas: 'none', optional: true });
}

/** `yes if condition else no`, broken before `else` in parentheses when long. */
export function conditional(yes: PyCode, condition: string, no: PyCode): PyBrackets {
  return brackets(
    '(',
    [
      [yes, ` if ${condition}`],
      ['else ', no],
    ],
    ')',
    { commas: 'none', optional: true },
  );
}

/** A string literal of `text`, split at spaces when it does not fit. */
export function text(value: string): PyText {
  return { kind: 'text', text: value };
}

/** The code on one line. */
export function flat(code: PyCode): string {
  if (typeof code === 'string') return code;
  if (Array.isArray(code)) return code.map(flat).join('');
  if (code.kind === 'text') return pyString(code.text);
  const items = code.items.map(flat).join(code.commas === 'none' ? ' ' : ', ');
  if (code.optional) return items;
  return `${code.open}${items}${code.commas === 'tuple' && code.items.length === 1 ? ',' : ''}${code.close}`;
}

/** The lines of a statement at `indent`; `trailer` ends its last line (`:`, `,`). */
export function layout(code: PyCode, indent: string, trailer = ''): string[] {
  return lines(code, indent, trailer).map((line) => (line.length > MAX_LINE ? `${line}  # noqa: E501` : line));
}

function lines(code: PyCode, indent: string, trailer: string): string[] {
  const oneLine = `${indent}${flat(code)}${trailer}`;
  if (oneLine.length <= MAX_LINE || typeof code === 'string') return [oneLine];
  if (!Array.isArray(code)) return broken('', code, '', indent, trailer) ?? [oneLine];
  let last = code.length - 1;
  while (last >= 0 && typeof code[last] === 'string') last -= 1;
  if (last === -1) return [oneLine];
  const before = code.slice(0, last).map(flat).join('');
  const after = code
    .slice(last + 1)
    .map(flat)
    .join('');
  const part = code[last];
  if (Array.isArray(part)) return lines([before, ...part, after], indent, trailer);
  if (typeof part === 'string') return [oneLine];
  const parens = broken(before, part, after, indent, trailer);
  if (part.kind === 'brackets' && part.optional && part.commas === 'none' && part.items.length === 1) {
    // Parentheses only when breaking what they hold does not fit.
    const direct = lines([before, part.items[0], after], indent, trailer);
    if (direct.every(fits) || !parens?.every(fits)) return direct;
  }
  return parens ?? [oneLine];
}

function fits(line: string): boolean {
  return line.length <= MAX_LINE;
}

/** `before` + the brackets (or string) broken over lines + `after`; undefined when nothing can break. */
function broken(before: string, code: PyBrackets | PyText, after: string, indent: string, trailer: string): string[] | undefined {
  const inner = `${indent}    `;
  if (code.kind === 'text') {
    const words = splitText(code.text, MAX_LINE - inner.length - 2);
    if (words.length === 1 && !fits(`${inner}${pyString(words[0])}`)) return undefined;
    return [`${indent}${before}(`, ...words.map((word) => `${inner}${pyString(word)}`), `${indent})${after}${trailer}`];
  }
  if (code.items.length === 0) return undefined;
  const last = code.items.length - 1;
  const comma = (i: number) => (code.commas === 'none' || (code.commas === 'between' && i === last) ? '' : ',');
  const items = code.items.flatMap((item, i) => lines(item, inner, comma(i)));
  return [`${indent}${before}${code.open}`, ...items, `${indent}${code.close}${after}${trailer}`];
}

/** `value` in pieces of at most `width` characters (quoted), cut after spaces; a longer word is a piece of its own. */
function splitText(value: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const word of value.split(/(?<= )/)) {
    if (piece !== '' && pyString(piece + word).length - 2 > width) {
      pieces.push(piece);
      piece = '';
    }
    piece += word;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

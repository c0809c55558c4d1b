/**
 * The grammar of an attribute list after a type: `[optional]`, or `[optional, default=30, max=100,
 * pattern="^[a-z]+$"]` (docs/idl.md, "Attributes"). Any `name` or `name=value` is read here; the
 * checker says which names exist, what each takes and where it applies, with a location.
 */
import P from 'parsimmon';
import type { Attribute, AttributeValue, SourceSpan } from './ast.js';
import { quoteMessage } from './quoted-text.js';

/** The pieces of the file's grammar an attribute list is built from. */
export interface AttributeGrammarParts {
  spanned<T>(parser: P.Parser<T>): P.Parser<[T, SourceSpan]>;
  hspace: P.Parser<string>;
  token(text: string): P.Parser<string>;
  /** A double-quoted text with the IDL's escapes (`\"` and `\\`). */
  quotedText: P.Parser<string>;
  /** Fails at the current position with a complete message. */
  failAt(offset: number, message: string): P.Reply<never>;
}

/** What a value looks like, in "expected ..." messages. */
export const VALUE_LABEL = 'a value such as 1 or "text"';

/** A JSON number, as `min=`, `max=`, `minLength=` ... write it. */
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** Anything else up to the next `,` or `]`: read so that the checker can say what the attribute takes. */
const BARE_WORD = /[^\s,\]]+/y;

/** The parser of one attribute list, brackets included. */
export function attributeListGrammar(parts: AttributeGrammarParts): P.Parser<Attribute[]> {
  const { spanned, hspace, token } = parts;
  const value = P.alt(
    parts.quotedText.map((text) => ({ value: text as unknown, text: quoteMessage(text) })),
    P(numberOrWord),
  );
  const defaultValue = P<{ value: unknown; text: string }>((input, i) => {
    const end = jsonValueEnd(input, i);
    const text = input.slice(i, end);
    try {
      return P.makeSuccess(end, { value: JSON.parse(text), text });
    } catch (error) {
      return parts.failAt(i, `default takes one JSON value (such as 30, "text", null or [1, 2]): ${(error as Error).message}`);
    }
  });
  const item = (name: string, span: SourceSpan): P.Parser<Attribute> =>
    P.seq(hspace, token('='), hspace)
      .then(spanned(name === 'default' ? defaultValue : value))
      .atMost(1)
      .map((found) => {
        if (found.length === 0) return { name: { text: name, span }, span };
        const [[read, valueSpan]] = found;
        const attributeValue: AttributeValue = { value: read.value, text: read.text, span: valueSpan };
        return { name: { text: name, span }, value: attributeValue, span: { ...span, end: valueSpan.end } };
      });
  const attribute = spanned(P.regexp(/[A-Za-z][A-Za-z0-9_]*/).desc('an attribute such as optional or min=1')).chain(([name, span]) =>
    item(name, span),
  );
  return P.seq(token('[').desc("'[optional]'"), hspace)
    .then(P.sepBy1(attribute, P.seq(hspace, token(','), hspace)))
    .skip(P.seq(hspace, token(']')));
}

/** A number as JSON reads it, or a bare word kept as text for the checker to judge. */
function numberOrWord(input: string, i: number): P.Reply<{ value: unknown; text: string }> {
  // A quote starts a quoted text, whose own error (such as no closing quote) is the one to report.
  if (input[i] === '"') return P.makeFailure(i, VALUE_LABEL);
  NUMBER.lastIndex = i;
  const number = NUMBER.exec(input);
  const next = number ? input[i + number[0].length] : undefined;
  if (number && (next === undefined || /[\s,\]]/.test(next))) {
    return P.makeSuccess(NUMBER.lastIndex, { value: Number(number[0]), text: number[0] });
  }
  BARE_WORD.lastIndex = i;
  const word = BARE_WORD.exec(input);
  if (!word) return P.makeFailure(i, VALUE_LABEL);
  return P.makeSuccess(BARE_WORD.lastIndex, { value: word[0], text: word[0] });
}

/**
 * Where a JSON value written in a list ends: the first `,` or `]` outside strings and brackets, or
 * the end of the line. JSON.parse then judges the text.
 */
function jsonValueEnd(input: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < input.length; i++) {
    const c = input[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && depth > 0) depth--;
    else if ((c === ',' || c === ']') && depth === 0) return trimEnd(input, start, i);
    else if (c === '\n' || c === '\r') return trimEnd(input, start, i);
  }
  return trimEnd(input, start, input.length);
}

function trimEnd(input: string, start: number, end: number): number {
  let j = end;
  while (j > start && (input[j - 1] === ' ' || input[j - 1] === '\t')) j--;
  return j;
}

/**
 * The `optional` flag and the `attributes` member a field, parameter or return gets from its list:
 * a plain `[optional]` sets only the flag, so trees without other attributes stay as they were.
 */
export function withAttributes<T extends { optional: boolean }>(
  target: T,
  list: Attribute[] | undefined,
): T & { attributes?: Attribute[] } {
  if (!list) return target;
  const optional = list.some((attribute) => attribute.name.text === 'optional' && attribute.value === undefined);
  const onlyOptional = list.length === 1 && optional;
  return onlyOptional ? { ...target, optional } : { ...target, optional, attributes: list };
}

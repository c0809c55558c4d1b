/**
 * Doc tags (docs/idl.md, "Doc tags"): the doc-comment lines that start with `@deprecated`,
 * `@readonly` or `@example`. They are read from the doc comment the parser collected, outside the
 * grammar: the syntax tree keeps the comment as written (so the formatter prints tags back), and
 * every consumer asks this module for the description without the tag lines and for the tags.
 *
 * A line whose first word is some other `@word` stays description text; the checker notes it.
 */

/** The tags the IDL knows, by the word after `@`. */
export const DOC_TAG_NAMES = ['deprecated', 'readonly', 'example'] as const;

export type DocTagName = (typeof DOC_TAG_NAMES)[number];

/** One tag line of a doc comment. */
export interface DocTagLine {
  name: DocTagName;
  /** The text after the tag word, without surrounding whitespace ('' when there is none). */
  argument: string;
  /** 0-based index of the line in the doc comment. */
  line: number;
  /** 0-based index of the `@` in that line of the comment text. */
  column: number;
  /** 0-based index of the argument in that line of the comment text (the end of the word when there is none). */
  argumentColumn: number;
}

/** A line of a doc comment that starts with an `@word` the IDL does not know: it stays text. */
export interface UnknownDocTag {
  word: string;
  line: number;
  column: number;
}

/** A doc comment split into its description and its tags. */
export interface DocCommentParts {
  /** The comment without its tag lines and without blank lines left at its start or end; absent when nothing is left. */
  description?: string;
  tags: DocTagLine[];
  unknown: UnknownDocTag[];
}

/** What the tags of one item say, as the JSON form and the generators carry it. */
export interface DocTags {
  /** The reason after `@deprecated` ('' when none was given); absent when the item is not deprecated. */
  deprecated?: string;
  /** `@readonly`: the method changes nothing (safe to retry, to cache, to call from tools). */
  readonly?: true;
  /** The values of the `@example` lines that are valid JSON, in order. */
  examples?: unknown[];
}

/** `@word` at the start of a line (after spaces); the word is letters, digits, `-` and `_`. */
const TAG_LINE = /^([ \t]*)@([A-Za-z][A-Za-z0-9_-]*)(?=$|[ \t])/;
const KNOWN = new Set<string>(DOC_TAG_NAMES);

/** Splits a doc comment (lines joined by `\n`, as in the syntax tree) into description and tags. */
export function docCommentParts(comment: string | undefined): DocCommentParts {
  // Fast path: a comment without `@` is all description, as it always was.
  if (comment === undefined || !comment.includes('@'))
    return comment === undefined || comment === '' ? { tags: [], unknown: [] } : { description: comment, tags: [], unknown: [] };
  const tags: DocTagLine[] = [];
  const unknown: UnknownDocTag[] = [];
  const text: string[] = [];
  comment.split('\n').forEach((line, index) => {
    const match = TAG_LINE.exec(line);
    if (!match) {
      text.push(line);
      return;
    }
    const column = match[1].length;
    const word = match[2];
    if (!KNOWN.has(word)) {
      unknown.push({ word, line: index, column });
      text.push(line);
      return;
    }
    const wordEnd = column + 1 + word.length;
    const rest = line.slice(wordEnd);
    const argumentColumn = wordEnd + (rest.length - rest.trimStart().length);
    tags.push({ name: word as DocTagName, argument: rest.trim(), line: index, column, argumentColumn });
  });
  while (text.length > 0 && text[0].trim() === '') text.shift();
  while (text.length > 0 && text[text.length - 1].trim() === '') text.pop();
  const parts: DocCommentParts = { tags, unknown };
  if (text.length > 0) parts.description = text.join('\n');
  return parts;
}

/** The description of a doc comment: the comment without its tag lines (undefined when nothing is left). */
export function docDescription(comment: string | undefined): string | undefined {
  return docCommentParts(comment).description;
}

/**
 * The tags of a doc comment as values. The checker has refused every malformed tag of a checked
 * model; here an `@example` that is not JSON is left out and the first `@deprecated` wins.
 */
export function docTags(comment: string | undefined): DocTags {
  const tags: DocTags = {};
  for (const tag of docCommentParts(comment).tags) {
    if (tag.name === 'deprecated') tags.deprecated ??= tag.argument;
    else if (tag.name === 'readonly') tags.readonly = true;
    else {
      const parsed = parseExample(tag.argument);
      if (parsed.ok) (tags.examples ??= []).push(parsed.value);
    }
  }
  return tags;
}

/** Whether the doc comment carries `@deprecated`. */
export function isDeprecated(comment: string | undefined): boolean {
  return docTags(comment).deprecated !== undefined;
}

/** The result of reading the JSON of an `@example`: the value, or why it is not JSON and where (0-based index in the text). */
export type ParsedExample = { ok: true; value: unknown } | { ok: false; message: string; index: number };

/** Reads the JSON after `@example`. */
export function parseExample(text: string): ParsedExample {
  if (text === '') return { ok: false, message: 'is empty: write one JSON value after @example', index: 0 };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    return { ok: false, message: `is not valid JSON (${message})`, index: position ? Math.min(Number(position[1]), text.length) : 0 };
  }
}

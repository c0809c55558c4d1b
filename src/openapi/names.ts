/**
 * Turning OpenAPI names (schema keys, titles, property names, tags, operationIds, enum values) into
 * IDL identifiers. Every function here returns a valid identifier (`[A-Za-z][A-Za-z0-9_]*`, not a
 * reserved word); `NameScope` makes names unique. The exact rules are in docs/openapi.md.
 */

import { IDENTIFIER_PATTERN, nameProblem, RESERVED_WORDS } from '../idl/names.js';

/** Whether a name can be used as an IDL identifier as it is (the compiler's own rule). */
export function isValidIdentifier(name: string): boolean {
  return nameProblem(name) === undefined;
}

/** The runs of ASCII letters and digits of a text (everything else separates words). */
function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
}

/** Makes a name that is made of `[A-Za-z0-9_]` valid: a leading letter, and not a reserved word. */
function finish(name: string, prefix: string, fallback: string): string {
  if (name === '') return fallback;
  if (!/^[A-Za-z]/.test(name)) name = prefix + name;
  if (RESERVED_WORDS.has(name)) name += '_';
  return name;
}

/**
 * A struct, enum or interface name. A valid identifier is kept as it is; anything else becomes
 * PascalCase of its words (`simple-user` -> `SimpleUser`, `Simple User` -> `SimpleUser`), `T` is put
 * before a leading digit, `_` after a reserved word.
 */
export function typeName(raw: string): string {
  if (isValidIdentifier(raw)) return raw;
  if (IDENTIFIER_PATTERN.test(raw)) return raw + '_';
  const pascal = words(raw)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return finish(pascal, 'T', 'Type');
}

/**
 * A field or parameter name: camelCase of the words (`pet_type`, `pet-type`, `Pet Type` -> `petType`;
 * `ID` -> `id`; `HTMLUrl` -> `htmlUrl`), `n` before a leading digit, `_` after a reserved word.
 */
export function camelCaseName(raw: string): string {
  return finish(camelCaseWords(raw), 'n', 'field');
}

/** The camelCase rule alone (may be empty, start with a digit or be a reserved word). */
export function camelCaseWords(raw: string): string {
  const parts = words(raw);
  if (parts.length === 0) return '';
  const first = lowerLeadingCapitals(parts[0]);
  const rest = parts.slice(1).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return first + rest.join('');
}

/** `ID` -> `id`, `HTMLUrl` -> `htmlUrl`, `Pet` -> `pet`, `petType` -> `petType`. */
function lowerLeadingCapitals(word: string): string {
  const capitals = /^[A-Z]+/.exec(word)?.[0].length ?? 0;
  if (capitals === 0) return word;
  if (capitals === word.length || capitals === 1) return word.slice(0, capitals).toLowerCase() + word.slice(capitals);
  // Keep the last capital when a lower-case letter follows it: it starts the next word.
  const keep = /[a-z]/.test(word.charAt(capitals)) ? capitals - 1 : capitals;
  return word.slice(0, keep).toLowerCase() + word.slice(keep);
}

/** Upper-cases the first letter (used to build `<httpMethod><OperationId>`). */
export function upperFirst(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * An enum value: a valid identifier is kept (case included); otherwise every run of characters other
 * than ASCII letters, digits and `_` becomes one `_`, leading and trailing `_` are dropped, `v` is put
 * before a leading digit, `_` after a reserved word, and an empty result is `empty`.
 * (`in-progress` -> `in_progress`, `1.0` -> `v1_0`, `+1` -> `v1`, `""` -> `empty`).
 */
export function enumValueName(raw: string): string {
  if (isValidIdentifier(raw)) return raw;
  const cleaned = raw.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return finish(cleaned, 'v', 'empty');
}

/**
 * The namespace from `info.title` (the IDL family's rule): lower-cased, every character other than ASCII letters
 * and digits replaced by `_`; then adjusted to an identifier: leading `_` dropped, `n` before a
 * leading digit, `_` after a reserved word, `api` when nothing is left.
 */
export function namespaceName(title: string): string {
  const lowered = title
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_')
    .replace(/^_+/, '');
  return finish(lowered, 'n', 'api');
}

/** The IDL family's rule alone, to tell whether `namespaceName` had to adjust it. */
export function namespaceByRule(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]/g, '_');
}

/**
 * A set of names in one scope (top-level declarations, the fields of a struct, the methods of an
 * interface, ...). `claim` returns the wanted name, or the first free `<name>_2`, `<name>_3`, ...
 */
export class NameScope {
  private readonly used = new Set<string>();
  /**
   * Wanted name -> the suffix to try first next time: every `<name>_<i>` below it is taken, so
   * claiming one name many times (200,000 enum values that all become `empty`) stays linear.
   */
  private readonly nextSuffix = new Map<string, number>();

  has(name: string): boolean {
    return this.used.has(name);
  }

  claim(wanted: string): string {
    let name = wanted;
    let i = this.nextSuffix.get(wanted) ?? 2;
    if (this.used.has(name)) {
      for (name = `${wanted}_${i}`; this.used.has(name); ) name = `${wanted}_${++i}`;
      this.nextSuffix.set(wanted, i + 1);
    }
    this.used.add(name);
    return name;
  }
}

/**
 * Reading OpenAPI documents and following their `$ref`s: the root document (YAML or JSON) and any
 * local files it references, relative to the referencing file. Remote references are refused.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { ConversionError, escapePointerToken } from './warnings.js';

/**
 * A hostile YAML document can expand a few aliases into gigabytes ("billion laughs"). No real API
 * description needs more alias expansions than this.
 */
export const YAML_MAX_ALIAS_COUNT = 1000;

/** One parsed file. `id` is `''` for the root document, else its path relative to the root's folder. */
export interface SourceDocument {
  id: string;
  /** Absolute path, when the document came from (or is placed in) a file. */
  path?: string;
  content: unknown;
}

/** A place in one of the documents. */
export interface Location {
  document: SourceDocument;
  /** JSON pointer inside `document`. */
  pointer: string;
}

/** `/a/b` for the root document, `other.yaml#/a/b` for another file. */
export function displayPointer(location: Location): string {
  return location.document.id === '' ? location.pointer : `${location.document.id}#${location.pointer}`;
}

/** A key unique to a location (for caches). */
export function locationKey(location: Location): string {
  return `${location.document.id}#${location.pointer}`;
}

export function child(location: Location, ...tokens: (string | number)[]): Location {
  return { document: location.document, pointer: location.pointer + tokens.map((t) => `/${escapePointerToken(t)}`).join('') };
}

/**
 * Parses a document's text. JSON when the file name ends in `.json` or the text starts with `{`
 * (faster for the large documents, which are JSON), YAML otherwise.
 */
export function parseDocumentText(text: string, fileName: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (fileName.toLowerCase().endsWith('.json') || source.trimStart().startsWith('{')) {
    try {
      return JSON.parse(source);
    } catch (error) {
      throw new ConversionError('', `${fileName}: invalid JSON: ${(error as Error).message}`);
    }
  }
  try {
    // `merge`: `<<: *base` merge keys (YAML 1.1) are common in hand-written API descriptions.
    return parseYaml(source, { maxAliasCount: YAML_MAX_ALIAS_COUNT, merge: true, prettyErrors: true });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const at = error.linePos?.[0];
      const where = at ? `:${at.line}:${at.col}` : '';
      throw new ConversionError('', `${fileName}${where}: invalid YAML: ${error.message.split('\n')[0]}`);
    }
    // The alias limit raises a ReferenceError.
    throw new ConversionError('', `${fileName}: invalid YAML: ${(error as Error).message}`);
  }
}

/** Unescapes a JSON pointer into its reference tokens. */
function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a pointer, or `undefined`. */
export function valueAt(content: unknown, pointer: string): unknown {
  let node = content;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(token)] : (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The root document and the local files its references reach, each parsed once. */
export class SourceDocuments {
  readonly root: SourceDocument;
  private readonly byPath = new Map<string, SourceDocument>();

  /**
   * @param baseDir Folder against which references to other files are resolved (defaults to the
   *   root file's folder; without either, such a reference is an error).
   */
  constructor(
    rootContent: unknown,
    rootPath: string | undefined,
    private readonly baseDir: string | undefined,
  ) {
    this.root = { id: '', path: rootPath, content: rootContent };
    if (rootPath !== undefined) this.byPath.set(rootPath, this.root);
  }

  /**
   * Follows a `$ref` written at `from`. Returns the target's location and value.
   *
   * @throws ConversionError for a remote URL, a missing file or a pointer that leads nowhere.
   */
  resolve(ref: string, from: Location): { location: Location; value: unknown } {
    const at = displayPointer(from);
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(ref) || ref.startsWith('//')) {
      throw new ConversionError(at, `remote $ref "${ref}" is not supported: references must point into the document or to a local file`);
    }
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    let fragment = hash === -1 ? '' : ref.slice(hash + 1);
    try {
      fragment = decodeURIComponent(fragment);
    } catch {
      // Not percent-encoded as URIs require (e.g. a bare `%`): many documents write names raw.
    }
    if (fragment !== '' && !fragment.startsWith('/')) {
      throw new ConversionError(at, `$ref "${ref}" is not a JSON pointer (named anchors are not supported)`);
    }
    const document = filePart === '' ? from.document : this.load(filePart, from, at);
    const value = valueAt(document.content, fragment);
    if (value === undefined) throw new ConversionError(at, `$ref "${ref}" points to nothing`);
    return { location: { document, pointer: fragment }, value };
  }

  private load(file: string, from: Location, at: string): SourceDocument {
    const folder = from.document.path !== undefined ? dirname(from.document.path) : this.baseDir;
    if (folder === undefined) {
      throw new ConversionError(at, `$ref to the file "${file}" needs the document's file name or a base folder`);
    }
    const path = isAbsolute(file) ? file : resolve(folder, decodeURI(file));
    const known = this.byPath.get(path);
    if (known) return known;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConversionError(at, `cannot read the file "${file}" named by a $ref: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const idBase = this.root.path !== undefined ? dirname(this.root.path) : (this.baseDir ?? folder);
    const document: SourceDocument = {
      id: relative(idBase, path).split('\\').join('/'),
      path,
      content: parseDocumentText(text, path),
    };
    this.byPath.set(path, document);
    return document;
  }
}

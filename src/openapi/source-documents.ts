/**
 * Reading OpenAPI documents and following their `$ref`s: the root document (YAML or JSON) and any
 * local files it references, relative to the referencing file. Remote references are refused, and
 * so are files outside the root document's folder (and the extra ref roots), files that are not
 * regular files (devices, FIFOs, folders) and files over MAX_DOCUMENT_BYTES.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { FileRefusedError, readRegularFile, refusalText } from '../read-regular-file.js';
import { ConversionError, escapePointerToken } from './warnings.js';

/**
 * A hostile YAML document can expand a few aliases into gigabytes ("billion laughs"). No real API
 * description needs more alias expansions than this.
 */
export const YAML_MAX_ALIAS_COUNT = 1000;

/**
 * The largest document file read (the root document and every file a `$ref` names), in bytes.
 * GitHub's REST description, the largest real one we know, is 13 MB.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a document file as UTF-8: only a regular file of at most MAX_DOCUMENT_BYTES (see
 * readRegularFile).
 *
 * @throws Error whose message is the reason (`not a regular file`, `larger than ...`, `no such file`, ...).
 */
export function readDocumentFile(path: string): string {
  try {
    return readRegularFile(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    throw new Error(refusalText(error.reason, () => `larger than the limit of ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MB`));
  }
}

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
    // The YAML reader recurses per nesting level: running out of stack is a document too deep for it.
    const message = (error as Error).message ?? String(error);
    const reason = /Maximum call stack size exceeded/.test(message)
      ? 'nested too deeply for the YAML reader (JSON has no such limit)'
      : message.split('\n')[0];
    const at = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
    // The alias limit raises a ReferenceError, without a place.
    throw new ConversionError('', `${fileName}${at ? `:${at.line}:${at.col}` : ''}: invalid YAML: ${reason}`);
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
  /** Real paths (symlinks followed) of the folders referenced files must be in; computed on first use. */
  private allowedRoots?: string[];

  /**
   * @param baseDir Folder against which references to other files are resolved (defaults to the
   *   root file's folder; without either, such a reference is an error).
   * @param refRoots Further folders referenced files may be in, besides the root document's folder
   *   (or `baseDir` when there is no root file).
   */
  constructor(
    rootContent: unknown,
    rootPath: string | undefined,
    private readonly baseDir: string | undefined,
    private readonly refRoots: readonly string[] = [],
  ) {
    this.root = { id: '', path: rootPath, content: rootContent };
    if (rootPath !== undefined) this.byPath.set(rootPath, this.root);
  }

  /**
   * Follows a `$ref` written at `from`. Returns the target's location and value.
   *
   * @throws ConversionError for a remote URL, a file outside the allowed folders, a missing or
   *   unreadable file, or a pointer that leads nowhere.
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
    const document = filePart === '' ? from.document : this.load(filePart, ref, from, at);
    const value = valueAt(document.content, fragment);
    if (value === undefined) throw new ConversionError(at, `$ref "${ref}" points to nothing`);
    return { location: { document, pointer: fragment }, value };
  }

  /** The folders (real paths) a referenced file must be in: the root's folder and the ref roots. */
  private roots(folder: string): string[] {
    if (this.allowedRoots === undefined) {
      const rootFolder = this.root.path !== undefined ? dirname(this.root.path) : (this.baseDir ?? folder);
      const base = this.baseDir ?? rootFolder;
      this.allowedRoots = [rootFolder, ...this.refRoots.map((r) => resolve(base, r))].map(realPathOrSelf);
    }
    return this.allowedRoots;
  }

  private load(file: string, ref: string, from: Location, at: string): SourceDocument {
    const folder = from.document.path !== undefined ? dirname(from.document.path) : this.baseDir;
    if (folder === undefined) {
      throw new ConversionError(at, `$ref to the file "${file}" needs the document's file name or a base folder`);
    }
    let decoded: string;
    try {
      decoded = decodeURI(file);
    } catch {
      throw new ConversionError(at, `$ref "${ref}" is not a valid URI reference (bad percent-encoding)`);
    }
    const path = resolve(folder, decoded);
    const known = this.byPath.get(path);
    if (known) return known;
    // Compared after following symlinks: a link inside the folder may point anywhere.
    let real: string;
    try {
      real = realpathSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ConversionError(
        at,
        `cannot read the file "${file}" named by a $ref: ${code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message)}`,
      );
    }
    const roots = this.roots(folder);
    if (!roots.some((root) => isInside(real, root))) {
      throw new ConversionError(
        at,
        `$ref "${ref}" names a file outside the folders references may reach (${roots.join(', ')}); allow its folder as a ref root (-ref-root <dir>, or refRoots in the API) if it is meant`,
      );
    }
    let text: string;
    try {
      text = readDocumentFile(real);
    } catch (error) {
      throw new ConversionError(at, `cannot read the file "${file}" named by a $ref: ${(error as Error).message}`);
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

/** The real path of a folder, or the path itself when it does not exist (then nothing is inside it). */
function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `path` is `folder` or inside it (both real, absolute paths). */
function isInside(path: string, folder: string): boolean {
  const from = relative(folder, path);
  return from === '' || (!from.startsWith(`..${sep}`) && from !== '..' && !isAbsolute(from));
}

/**
 * The documents the editor has open, with their unsaved text: the protocol's `didOpen`,
 * `didChange` (whole text or ranges) and `didClose`, and the file name each URI stands for.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver/node';
import { LineMap } from './positions.js';

export interface OpenDocument {
  uri: string;
  /** The name the compiler uses: the file's path for `file:` URIs, else the URI itself. */
  fileName: string;
  version: number;
  text: string;
}

/** The file name of a document URI: a path for `file:` URIs (so imports are read next to it), else the URI. */
export function fileNameOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return path.normalize(fileURLToPath(uri));
  } catch {
    return uri;
  }
}

/** The text of `text` after applying the protocol's change events in order. */
export function applyChanges(text: string, changes: readonly TextDocumentContentChangeEvent[]): string {
  let current = text;
  for (const change of changes) {
    if (!('range' in change) || change.range === undefined) {
      current = change.text;
      continue;
    }
    const lines = new LineMap(current);
    const start = lines.offsetAt(change.range.start);
    const end = Math.max(start, lines.offsetAt(change.range.end));
    current = current.slice(0, start) + change.text + current.slice(end);
  }
  return current;
}

export class OpenDocuments {
  private readonly byUri = new Map<string, OpenDocument>();
  private readonly byFileName = new Map<string, OpenDocument>();

  open(uri: string, version: number, text: string): OpenDocument {
    const document: OpenDocument = { uri, fileName: fileNameOf(uri), version, text };
    this.byUri.set(uri, document);
    this.byFileName.set(document.fileName, document);
    return document;
  }

  change(uri: string, version: number, changes: readonly TextDocumentContentChangeEvent[]): OpenDocument | undefined {
    const document = this.byUri.get(uri);
    if (!document) return undefined;
    document.text = applyChanges(document.text, changes);
    document.version = version;
    return document;
  }

  close(uri: string): OpenDocument | undefined {
    const document = this.byUri.get(uri);
    if (!document) return undefined;
    this.byUri.delete(uri);
    if (this.byFileName.get(document.fileName) === document) this.byFileName.delete(document.fileName);
    return document;
  }

  get(uri: string): OpenDocument | undefined {
    return this.byUri.get(uri);
  }

  /** The open document of a file name (as the import loader builds it), if any. */
  byFile(fileName: string): OpenDocument | undefined {
    return this.byFileName.get(path.normalize(fileName)) ?? this.byFileName.get(fileName);
  }

  all(): OpenDocument[] {
    return [...this.byUri.values()];
  }

  /** The URI to report a file name under: the open document's own URI, else a `file:` URI of the path. */
  uriOf(fileName: string): string {
    const open = this.byFile(fileName);
    if (open) return open.uri;
    return path.isAbsolute(fileName) ? pathToFileURL(fileName).href : fileName;
  }
}

/**
 * The files the page loads, read from disk at run time (never bundled into anyone's code): the
 * page's own script and styles from this package's `runtime/docs-page/assets/`, and the OpenAPI
 * viewer (Swagger UI's static files) from the optional peer dependency `swagger-ui-dist`,
 * resolved from `node_modules` like any package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'unplugin-idl-rpc';

/** The viewer package, an optional peer dependency. */
export const VIEWER_PACKAGE = 'swagger-ui-dist';

/** The viewer's files the page loads; nothing else of the package is served. */
export const VIEWER_FILES: readonly string[] = ['swagger-ui-bundle.js', 'swagger-ui.css'];

/** The page's own files (`runtime/docs-page/assets/`). */
export const OWN_FILES: readonly string[] = [
  'docs.css',
  'docs.js',
  'console.js',
  'request-template.js',
  'idl-text.js',
  'dom.js',
  'stream-view.js',
];

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The content type of a served file, by its extension. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
}

/**
 * This package's root folder: the nearest folder above this module with its package.json (the
 * sources, `dist/`, an installed copy), else the package as `node_modules` resolves it from this
 * module or from the current folder (a server bundle that has this module inside it).
 */
export function ownPackageRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = path.dirname(from); ; ) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const base of [from, path.join(process.cwd(), 'package.json')]) {
    try {
      return path.dirname(createRequire(base).resolve(`${PACKAGE_NAME}/package.json`));
    } catch {
      // Not installed where this base looks; try the next.
    }
  }
  throw new Error(
    `cannot find the files of ${PACKAGE_NAME} from ${from} or the current folder; install ${PACKAGE_NAME} where the server runs`,
  );
}

/**
 * The folder of the viewer package as `node_modules` resolves it from the folder `from`, or
 * undefined when it is not installed there (or lacks the files the page loads).
 */
export function viewerFolder(from: string): string | undefined {
  let folder: string;
  try {
    // createRequire wants a file name; the file itself need not exist.
    folder = path.dirname(createRequire(path.join(from, 'package.json')).resolve(`${VIEWER_PACKAGE}/package.json`));
  } catch {
    return undefined;
  }
  return VIEWER_FILES.every((file) => existsSync(path.join(folder, file))) ? folder : undefined;
}

/** The version of the viewer in `folder`. */
export function viewerVersion(folder: string): string {
  return (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Reads each file once and keeps its bytes (the viewer's bundle is 1.7 MB; reading it per request would be waste). */
export class FileCache {
  readonly #files = new Map<string, Promise<Buffer>>();

  read(file: string): Promise<Buffer> {
    let bytes = this.#files.get(file);
    if (!bytes) {
      bytes = readFile(file);
      // A failed read is not kept: the next request tries again.
      bytes.catch(() => this.#files.delete(file));
      this.#files.set(file, bytes);
    }
    return bytes;
  }
}

/**
 * How the language server reads imported files: the editor's unsaved text of an open document
 * first, so an edit to `common.idl` shows in the files importing it before it is saved; else the
 * file on disk, through the CLI's bounded reader.
 */
import { nodeFileHost } from '../idl/file-host.js';
import type { IdlFileHost } from '../idl/program.js';
import type { OpenDocuments } from './documents.js';

/** A file host serving open documents' text first, then disk. */
export function editorFileHost(documents: OpenDocuments): IdlFileHost {
  const disk = nodeFileHost();
  return {
    readFile(fileName) {
      const open = documents.byFile(fileName);
      return open ? open.text : disk.readFile(fileName);
    },
    identity(fileName) {
      return disk.identity!(fileName);
    },
  };
}

/**
 * The `.idl.d.ts` of the files an `.idl` imports. Code generated for a file that imports another
 * namespace refers to that namespace's own module (`import type * as common from './common.idl'`),
 * so its `.d.ts` must exist even when the app never imports that file itself. An imported file
 * without a namespace is merged into its importer and is never a module of its own: it gets none.
 */
import { declarationFiles, type DeclarationOutput, dtsFileOf } from '../codegen/declaration-files.js';
import { IdlModuleError } from '../codegen/idl-module-error.js';
import type { ModelSourceFile } from '../idl/model.js';
import { writeIfChanged } from '../atomic-write.js';
import { IdlFileReadError } from './read-idl-file.js';

/**
 * Writes `<file>.d.ts` (and its declaration map with `declarationMap`) beside every imported file of a program (its files with their namespaces,
 * the root first) that has a namespace (where `mayWriteBeside` allows), each compiled as a root of
 * its own by `compile`, only when its content changes. Resolves with one message per file whose
 * declarations could not be written (it failed to compile on its own), for the caller to warn
 * about: the importer itself compiled.
 */
export async function writeImportedDts(
  programFiles: readonly ModelSourceFile[],
  compile: (file: string) => Promise<DeclarationOutput>,
  mayWriteBeside: (file: string) => boolean,
  declarationMap: boolean,
): Promise<string[]> {
  const namespaced = programFiles.slice(1).filter((file) => file.namespace !== undefined && mayWriteBeside(file.fileName));
  const problems = await Promise.all(
    namespaced.map(async ({ fileName }) => {
      try {
        const compiled = await compile(fileName);
        for (const [file, text] of declarationFiles(fileName, compiled, declarationMap)) await writeIfChanged(file, text);
        return undefined;
      } catch (error) {
        if (!(error instanceof IdlModuleError || error instanceof IdlFileReadError)) throw error;
        const reason = error instanceof IdlModuleError ? error.summary : error.message;
        return `${dtsFileOf(fileName)} not written: ${fileName} does not compile on its own:\n${reason}`;
      }
    }),
  );
  return problems.filter((problem) => problem !== undefined);
}

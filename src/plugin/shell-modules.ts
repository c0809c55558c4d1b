/**
 * The modules the compiler part (compiler-part.ts) takes from the plugin's shell instead of carrying
 * a copy of its own: every module both of them use, so that there is one of each in a process (an
 * `IdlModuleError` the compiler throws is the class the shell tests for; one `IdlRpcError`). The
 * compiler part's script asks for them as `require('shell:<path>')` (code-cache.ts, `lentModules`), and
 * the build fails when this list and the shared modules the bundled script asks for differ
 * (src/build/bundle-plugin.mjs).
 * The shell loads each of them anyway: nothing here adds to making a plugin.
 */
import * as runtimeErrors from '../../runtime/errors.js';
import * as breakingLevels from '../breaking/levels.js';
import * as declarationFiles from '../codegen/declaration-files.js';
import * as idlModuleError from '../codegen/idl-module-error.js';
import * as sourceText from '../codegen/source-text.js';
import * as codeFrame from '../idl/code-frame.js';
import * as docTags from '../idl/doc-tags.js';
import * as lineIndex from '../idl/line-index.js';
import * as ownPackage from '../own-package.js';
import * as moduleParts from './module-parts.js';
import * as readRegularFile from '../read-regular-file.js';

/** The shell's modules by their path in the package's dist/. */
export const SHELL_MODULES: Readonly<Record<string, unknown>> = {
  'runtime/errors.js': runtimeErrors,
  'src/breaking/levels.js': breakingLevels,
  'src/codegen/declaration-files.js': declarationFiles,
  'src/codegen/idl-module-error.js': idlModuleError,
  'src/codegen/source-text.js': sourceText,
  'src/idl/code-frame.js': codeFrame,
  'src/idl/doc-tags.js': docTags,
  'src/idl/line-index.js': lineIndex,
  'src/own-package.js': ownPackage,
  'src/plugin/module-parts.js': moduleParts,
  'src/read-regular-file.js': readRegularFile,
};

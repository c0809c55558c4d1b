/**
 * The checker: turns a syntax tree and its symbol table into the checked model, or explains every
 * reason it cannot.
 *
 * It runs the check passes of ./checks/ in order over one shared context (see CHECK_PASSES). All
 * problems of a file are reported together, sorted by position, each pointing at the offending
 * name. A model is returned only when there is no error, so consumers never see a broken one.
 *
 * Diagnostic codes (stable, for tools): missing-namespace, duplicate-type, duplicate-interface,
 * duplicate-field, duplicate-method, duplicate-parameter, duplicate-enum-value, duplicate-error,
 * duplicate-error-code, duplicate-raises, empty-enum, error-code-range, error-code-reserved,
 * unknown-type, unknown-parent, extends-non-struct, unknown-error, extends-cycle, field-cycle,
 * union-attribute, union-variant-not-struct, duplicate-union-tag, duplicate-union-variant,
 * union-discriminator-field, unknown-attribute, duplicate-attribute, invalid-attribute-value,
 * attribute-type, misplaced-attribute, default-without-optional, conflicting-constraints,
 * invalid-pattern, invalid-default, optional-parameter-order, optional-stream-item, reserved-method-name,
 * invalid-example, misplaced-doc-tag, duplicate-doc-tag, malformed-doc-tag, invalid-name (only for
 * trees built by code: the parser never produces one); the notes unknown-doc-tag and
 * unchecked-format.
 */
import type { IdlFile } from './ast.js';
import { resolveBuiltInTypes } from './built-in-types.js';
import { checkAttributes } from './checks/attributes.js';
import { createCheckContext, type CheckPass } from './checks/context.js';
import { checkDocTags } from './checks/doc-tags.js';
import { checkDuplicates } from './checks/duplicates.js';
import { checkEmptyEnums } from './checks/empty-enums.js';
import { checkErrorCodes } from './checks/error-codes.js';
import { checkExtends } from './checks/extends.js';
import { checkFieldCycles } from './checks/field-cycles.js';
import { checkInheritedFields } from './checks/inherited-fields.js';
import { checkNames } from './checks/names.js';
import { checkNamespace } from './checks/namespace.js';
import { checkReferences } from './checks/references.js';
import { checkReservedMethodNames } from './checks/reserved-method-names.js';
import { checkStreams } from './checks/streams.js';
import { checkUnions } from './checks/unions.js';
import type { Diagnostic } from './diagnostic.js';
import type { IdlModel } from './model.js';
import { resolve, type SymbolTable } from './symbols.js';

export interface CheckResult {
  /** Present only when `diagnostics` holds no error. */
  model?: IdlModel;
  diagnostics: Diagnostic[];
}

/**
 * The passes, in the order they run. Diagnostics are sorted by position at the end; two on the same
 * name keep this order (an invalid name before its duplicate, a duplicate enum before its
 * emptiness). `extends` fills the parents that the passes after it walk.
 */
const CHECK_PASSES: readonly CheckPass[] = [
  checkNamespace,
  checkNames,
  checkDuplicates,
  checkErrorCodes,
  checkEmptyEnums,
  checkExtends,
  checkInheritedFields,
  checkReferences,
  checkUnions,
  checkAttributes,
  checkStreams,
  checkReservedMethodNames,
  checkFieldCycles,
  checkDocTags,
];

/**
 * Checks a parsed file (docs/idl.md) against its symbol table (from `resolve(file)`) and builds the
 * model when it is valid. Takes time linear in the size of the file, whatever its shape (long
 * `extends` chains, thousands of unknown names, huge blocks). Works on partial trees too (`parse`
 * of a file with syntax errors), though a declaration lost to a syntax error then shows as unknown,
 * and a model, if any, is only that of the part read: generate code from a file without syntax errors.
 */
export function check(file: IdlFile, symbols: SymbolTable, sources?: ReadonlyMap<string, string>): CheckResult {
  const diagnostics: Diagnostic[] = [];
  const context = createCheckContext(file, symbols, diagnostics, sources);
  for (const pass of CHECK_PASSES) pass(context);

  diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics };

  const { enums, structs, unions, errors, interfaces, types, unionsByName, errorsByName } = context;
  const model: IdlModel = {
    file,
    namespace: file.namespace!.name.text,
    files: [{ fileName: file.fileName }],
    enums,
    structs,
    errors,
    interfaces,
    types,
    errorsByName,
  };
  // Only when there are some: a model without unions stays as it was (its consumers compare models).
  if (unions.length > 0) Object.assign(model, { unions, unionsByName });
  if (file.namespace!.comment !== undefined) model.namespaceComment = file.namespace!.comment;
  return { model, diagnostics };
}

/**
 * Resolves and checks a parsed file: its contextual built-in types first (`timestamp`, `date`,
 * `bytes`, `json`: built-in-types.ts), then `check(file, resolve(file))`. `sources` holds the text of
 * the files a linked tree was made of, by name (the root's is `file.source`), so that problems inside
 * doc comments are located in imported files too.
 */
export function checkIdl(file: IdlFile, sources?: ReadonlyMap<string, string>): CheckResult {
  const resolved = resolveBuiltInTypes(file);
  return check(resolved, resolve(resolved), sources);
}

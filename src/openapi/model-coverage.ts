/**
 * Which of several models one OpenAPI document describes when some import others (docs/openapi.md,
 * "Several IDL files"). A model compiled from `shop.idl` already holds every declaration of the
 * `inventory.idl` it imports, under qualified names (`inventory.Stock`, `/inventory.InventoryService/...`),
 * which is how a server built from `shop.idl` answers. Describing `inventory.idl` again on its own
 * would add the same types and methods a second time under their plain names, as if a second server
 * were there: so a model whose root file another model imports is covered by that model and left out.
 */
import path from 'node:path';
import type { IdlModel } from '../idl/model.js';

/** One name per file, however the loader spelled it (`./common.idl`, `common.idl`, an absolute path). */
export function sourceFileKey(fileName: string): string {
  // A relative name depends on the working directory, which may change: only absolute ones are kept.
  if (!path.isAbsolute(fileName)) return path.resolve(fileName);
  let key = resolvedFileNames.get(fileName);
  if (key === undefined) {
    if (resolvedFileNames.size >= MAX_RESOLVED_FILE_NAMES) resolvedFileNames.clear();
    key = path.resolve(fileName);
    resolvedFileNames.set(fileName, key);
  }
  return key;
}

/**
 * The keys of absolute file names already seen. A document asks for the key of each declaration's
 * file several times (to sort and to name it), and `path.resolve` each time was most of the time
 * spent sorting the 20 models of a 20-file app.
 */
const resolvedFileNames = new Map<string, string>();
const MAX_RESOLVED_FILE_NAMES = 10_000;

/**
 * The models left to describe: those whose root file no other model imports (directly or not), each
 * root file once, in the given order.
 */
export function uncoveredModels(models: readonly IdlModel[]): IdlModel[] {
  const imported = new Set(models.flatMap((model) => model.files.slice(1).map((file) => sourceFileKey(file.fileName))));
  const described = new Set<string>();
  return models.filter((model) => {
    const root = sourceFileKey(model.file.fileName);
    if (imported.has(root) || described.has(root)) return false;
    described.add(root);
    return true;
  });
}

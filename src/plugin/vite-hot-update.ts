/**
 * Which modules of Vite's dev server an edit of an `.idl` file must update. Vite alone misses two
 * cases (checked with Vite 8):
 *
 * - An imported `.idl`: Vite watches a file given to `addWatchFile` in `load`, but its module
 *   graph does not link it to the module, so an edit of it would update nothing. The plugin's
 *   records ({@link IdlSourceFiles}) name the modules compiled from it.
 * - A module whose last load failed: Vite never analysed it, and its update propagation stops
 *   there, so fixing the file left the page with the error overlay until a manual reload. The
 *   modules that import it (analysed, they tried to load it) are updated as well.
 */
import type { EnvironmentModuleGraph, EnvironmentModuleNode } from 'vite';
import { isIdlId } from './idl-id.js';
import type { IdlSourceFiles } from './idl-source-files.js';

/**
 * The modules to update for an edit of `file`, given those Vite found (`modules`); undefined when
 * Vite's own choice stands.
 */
export function idlHotUpdateModules(
  file: string,
  modules: readonly EnvironmentModuleNode[],
  graph: EnvironmentModuleGraph,
  sourceFiles: IdlSourceFiles,
): EnvironmentModuleNode[] | undefined {
  const affected = new Set(modules);
  for (const importer of sourceFiles.modulesImporting(file)) {
    // Vite's module graph names files with forward slashes on every system.
    for (const module of graph.getModulesByFile(importer.replaceAll('\\', '/')) ?? []) affected.add(module);
  }
  for (const module of [...affected]) {
    if (isIdlId(module.id ?? undefined) && module.isSelfAccepting === undefined) {
      for (const importer of module.importers) affected.add(importer);
    }
  }
  return affected.size === modules.length ? undefined : [...affected];
}

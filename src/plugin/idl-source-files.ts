/**
 * Which files each loaded `.idl` module was compiled from: the module's own file, then every file
 * it imports, directly or not. An edit of an imported file must reach each module compiled from it,
 * also where the bundler cannot know (the Vite dev server after a failed load, which leaves no
 * trace in Vite's module graph).
 */
import path from 'node:path';

export class IdlSourceFiles {
  readonly #filesOf = new Map<string, readonly string[]>();

  /** Remembers the files of the latest load of `moduleFile` (also of a failed one: its fix must reach the module). */
  record(moduleFile: string, files: readonly string[]): void {
    this.#filesOf.set(
      path.resolve(moduleFile),
      files.map((file) => path.resolve(file)),
    );
  }

  /** The files the latest load of `moduleFile` read, the module's own first; undefined before its first load. */
  filesOf(moduleFile: string): readonly string[] | undefined {
    return this.#filesOf.get(path.resolve(moduleFile));
  }

  /** The loaded modules whose latest load read `file` as an imported file (not the module's own file). */
  modulesImporting(file: string): string[] {
    const changed = path.resolve(file);
    const importers: string[] = [];
    for (const [moduleFile, files] of this.#filesOf) {
      if (moduleFile !== changed && files.includes(changed)) importers.push(moduleFile);
    }
    return importers;
  }
}

/**
 * `import()` for the plugin's shell. Built, the shell of most entries runs as a script
 * (shell-script-runner.ts), from which an `import()` would need Node's experimental loader hook
 * (it prints a warning in every process); this module stays an ES module, so the shell's imports of
 * Vite and of a built server entry run from here, in dist/src/plugin/ as before.
 */

/** The module `specifier` names, imported as an ES module would import it. */
export function importModule<Module>(specifier: string): Promise<Module> {
  return import(specifier) as Promise<Module>;
}

/**
 * The folder of each namespace in the output directory of a program of several namespaces
 * (docs/generator.md, "Several namespaces"). A namespace is an IDL identifier, so a folder named
 * after it could be one the output needs for something else: `runtime/` (the copied runtime, which
 * would overwrite the namespace's `client.ts`, `server.ts` and `index.ts`), `dist/` (the generated
 * tsconfig's `outDir`), `node_modules/` (where the generated package.json's dependencies go), or a
 * device name Windows reserves (`con`, `aux`, ...). File systems that ignore case (macOS, Windows)
 * also make `Runtime` the same folder as `runtime`, and `Shop` the same as `shop`. Such a namespace
 * gets its folder with `_` appended until it is free, like names in generated code: no namespace
 * can take a path the output writes for something else.
 */

/** Folders the output directory uses for itself (compared ignoring case). */
const OUTPUT_FOLDERS: readonly string[] = ['runtime', 'dist', 'node_modules'];

/** Device names Windows reserves in every folder, whatever the case. */
const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * The folder (a single path segment) of each of `namespaces`, in their order (the root's first):
 * the namespace itself, with `_` appended while it is an output folder, a Windows device name, or
 * the folder of an earlier namespace, ignoring case. Deterministic: the same program, the same folders.
 */
export function namespaceFolders(namespaces: readonly string[]): Map<string, string> {
  const taken = new Set(OUTPUT_FOLDERS);
  const folders = new Map<string, string>();
  for (const namespace of namespaces) {
    let folder = namespace;
    while (taken.has(folder.toLowerCase()) || WINDOWS_DEVICE_NAME.test(folder)) folder += '_';
    taken.add(folder.toLowerCase());
    folders.set(namespace, folder);
  }
  return folders;
}

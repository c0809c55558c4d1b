// Injected into the compiler part's CommonJS script (bundle-plugin.mjs) for `import.meta.url`: the script's own URL.
export const compilerPartUrl = require('node:url').pathToFileURL(__filename).href;

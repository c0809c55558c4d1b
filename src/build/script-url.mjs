// Injected into the CommonJS scripts bundle-plugin.mjs makes, for `import.meta.url`: the script's own URL.
export const scriptUrl = require('node:url').pathToFileURL(__filename).href;

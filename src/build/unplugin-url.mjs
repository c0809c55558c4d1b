// Injected into the CommonJS scripts bundle-plugin.mjs makes, for the `import.meta` of unplugin's own
// modules: where unplugin is installed. Its webpack and Rspack parts hand the bundler loader files by
// their path in unplugin's package, and require packages (webpack-virtual-modules) from there.
const unpluginFile = require.resolve('unplugin');
export const unpluginUrl = require('node:url').pathToFileURL(unpluginFile).href;
export const unpluginDirname = require('node:path').dirname(unpluginFile);

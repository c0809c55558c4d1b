/** The language server's entry in the extension: the package's server over stdio (bundled into dist/server.mjs). */
import { runStdioLanguageServer } from '../../../src/language-server/server.js';

runStdioLanguageServer();

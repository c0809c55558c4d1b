/**
 * The TypeScript code generator: the CLI's output directory and the bundler plugin's module.
 */
export { generateModule, type GeneratedModule, type GenerateModuleOptions } from './module.js';
export { sourceMapOf, type Mapping, type SourceMapOptions, type SourceMapV3 } from './source-map.js';
export { generateTypeScriptFiles, MODULE_STYLES, type GenerateFilesOptions, type ModuleStyle } from './output-directory.js';
export { CodegenError } from './names.js';

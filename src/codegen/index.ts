/**
 * The TypeScript code generator: the CLI's output directory and the bundler plugin's module.
 */
export { generateModule, type GeneratedModule, type GenerateModuleOptions } from './module.js';
export { sourceMapOf, type Mapping, type SourceMapOptions, type SourceMapV3 } from './source-map.js';
export {
  generateTypeScriptFiles,
  MODULE_STYLES,
  OUTPUT_EMITS,
  type GenerateFilesOptions,
  type ModuleStyle,
  type OutputEmit,
} from './output-directory.js';
export { CodegenError } from './names.js';

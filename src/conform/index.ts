/**
 * `-conform`: contract tests of a running server against its IDL (docs/conform.md). The CLI command
 * (src/cli/commands/conform.ts) is a thin shell over this.
 */
export { type ConformOptions, type ConformReport, type Violation, runConformance } from './conform-run.js';
export { ServerUnreachableError } from './http-exchange.js';
export { UnknownMethodError } from './method-selection.js';
export { formatConformReport } from './report.js';

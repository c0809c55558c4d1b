/**
 * Module hooks (`module.register`) that write the URL of every module loaded through the ES module
 * loader to a file, one a line, as it loads: plugin-startup-process.mjs counts them. A file, not a
 * message port: the hooks thread appends before each load returns, so the list is complete the
 * moment the importing code resumes.
 */
import { appendFileSync } from 'node:fs';

let logFile;

/** Receives `{ logFile }` from `module.register`. */
export function initialize(data) {
  logFile = data.logFile;
}

/** Records the URL, then loads as usual. */
export async function load(url, context, nextLoad) {
  appendFileSync(logFile, `${url}\n`);
  return nextLoad(url, context);
}

/**
 * The plugin's `breaking` option (docs/breaking.md, "In the build"): each `.idl` module the build
 * loads is compared with its baseline, and the changes that break at the chosen level are build
 * warnings with their `file:line:column`, or one error with `fail: true` (never in the Vite dev
 * server, where they stay warnings). A baseline that cannot be read (no git, a shallow clone
 * without the revision) is one warning per plugin instance and never fails the build.
 *
 * The check itself (src/breaking/) is part of the compiler part, loaded on first use
 * (compiler-part-loader.ts), so making a plugin never loads it (test/plugin/start-up.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { UnpluginContext } from 'unplugin';
import type { ChangeLocation, Contract } from '../breaking/contract.js';
import type { CachedIdlModule } from './compile-cache.js';
import { loadCompilerPart } from './compiler-part-loader.js';
import type { ResolvedBreakingOptions } from './options.js';

/** What the check needs to know of the build it runs in. */
export interface BreakingBuild {
  /** The folder relative paths are read from (Vite's root, else the current folder). */
  root: string;
  /** The Vite dev server: breaking changes are warnings there whatever `fail` says. */
  devServer: boolean;
  /** The largest file read, in bytes (the plugin's `maxIdlBytes`). */
  maxBytes: number;
  /** Vite dev server: shows a text in the browser's overlay (which goes away on a click; the page keeps working). */
  overlay?: (message: string, location: ChangeLocation) => void;
}

/** One per plugin instance: remembers the baselines it read and whether it warned about one it could not. */
export class BreakingCheck {
  /** By `.idl` file: its baseline's contract, or the message saying why it could not be read. */
  private readonly baselines = new Map<string, Contract | { unreadable: string }>();
  private warnedUnreadable = false;

  constructor(private readonly options: ResolvedBreakingOptions) {}

  /** Compares the compiled module of `file` with its baseline and reports what breaks. */
  async run(context: UnpluginContext, file: string, compiled: CachedIdlModule, build: BreakingBuild): Promise<void> {
    if (this.options.idl !== undefined && path.resolve(build.root, this.options.idl) !== path.resolve(file)) return;
    const { breaking } = await loadCompilerPart();
    let before = this.baselines.get(file);
    if (!before) {
      try {
        before = breaking.readBaseline(this.options.against, file, { cwd: build.root, maxBytes: build.maxBytes });
      } catch (error) {
        if (!(error instanceof breaking.BaselineError)) throw error;
        before = { unreadable: error.message };
      }
      this.baselines.set(file, before);
    }
    if ('unreadable' in before) {
      if (!this.warnedUnreadable) context.warn(`breaking-change check skipped: ${before.unreadable}`);
      this.warnedUnreadable = true;
      return;
    }
    const report = breaking.checkBreaking({
      before,
      after: breaking.contractFromModel(await compiled.model()),
      sources: sourcesOf(compiled.files),
      level: this.options.level,
    });
    for (const problem of report.problems) {
      context.warn({ message: `${breaking.locationText(problem.location)}: ${problem.message}`, id: problem.location.file });
    }
    if (report.failures.length === 0) return;
    const lines = report.failures.map((change) => breaking.changeLine(change));
    const advice = `accept an intended break with '// idlrpc:accept <rule-id> <name>' (docs/breaking.md)`;
    if (this.options.fail && !build.devServer) {
      const first = report.failures[0].location;
      const summary = `${report.failures.length} breaking change${report.failures.length === 1 ? '' : 's'} against ${this.options.against} at level ${this.options.level}`;
      context.error({
        message: `${summary}:\n${lines.join('\n')}\n${advice}`,
        id: first.file,
        ...(first.line === undefined ? {} : { loc: { file: first.file, line: first.line, column: (first.column ?? 1) - 1 } }),
      } as Parameters<UnpluginContext['error']>[0]);
      return;
    }
    build.overlay?.(
      `warning: ${report.failures.length} breaking change${report.failures.length === 1 ? '' : 's'} against ${this.options.against} ` +
        `(level ${this.options.level}); the dev server goes on:\n${lines.join('\n')}\n${advice}`,
      report.failures[0].location,
    );
    for (const [index, change] of report.failures.entries()) {
      const { file: changedFile, line, column } = change.location;
      context.warn({
        message: `breaking change against ${this.options.against}: ${lines[index]}`,
        id: changedFile,
        ...(line === undefined ? {} : { loc: { file: changedFile, line, column: (column ?? 1) - 1 } }),
      } as Parameters<UnpluginContext['warn']>[0]);
    }
  }
}

/** The text of each file the module was compiled from, for its `// idlrpc:accept` directives. */
function sourcesOf(files: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const file of files) {
    try {
      sources.set(file, readFileSync(file, 'utf8'));
    } catch {
      // Deleted since it was compiled: the next build compiles (and checks) it again.
    }
  }
  return sources;
}

/**
 * Neovim for editor tests: `nvim` on the PATH (Debian 12's package is 0.7.2). Outside CI a test
 * without it skips with the reason; in CI (`CI` set) a missing Neovim is a failure.
 */
import { spawnSync } from 'node:child_process';

/** Why a Neovim test cannot run here, or undefined when it can; throws in CI when `nvim` is missing. */
export function neovimMissing(): string | undefined {
  const probe = spawnSync('nvim', ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status === 0) return undefined;
  const reason = 'nvim not found on the PATH, or `nvim --version` failed (Debian: apt-get install neovim)';
  if (process.env.CI) throw new Error(`${reason}; CI requires it`);
  return reason;
}

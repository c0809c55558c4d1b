/**
 * Tells the developer why the dev server's RPC endpoint fails (a handler module that does not load,
 * handlers that do not fit the `.idl`): in the terminal once per distinct failure, not once per
 * request, and in the browser's error overlay on each failed request, since the page that made the
 * call may have been reloaded since the overlay last showed it.
 */
import type { ViteDevServer } from 'vite';
import { plainErrorText } from './rpc-host.js';

const PREFIX = '[unplugin-idl-rpc]';

/** The parts of an error Vite's overlay shows besides the message, when the error has them. */
interface ErrorLocation {
  id?: unknown;
  frame?: unknown;
  loc?: { file?: unknown; line?: unknown; column?: unknown };
}

export interface RpcProblemReporter {
  /** The endpoint cannot answer: `context` says what failed (e.g. the handler module's name). */
  failure(error: unknown, context?: string): void;
  /** A problem that leaves the endpoint up; logged as a warning, once per hosted entry. */
  warning(text: string): void;
  /** The endpoint answers again: a recurring failure is logged again. */
  recovered(): void;
}

/** The reporter of one dev server. Its methods never throw: they run where a throw would end the process. */
export function rpcProblemReporter(server: ViteDevServer): RpcProblemReporter {
  let lastLogged: string | undefined;
  return {
    failure(error, context) {
      neverThrowing(() => {
        const text = context ? `${context}: ${plainErrorText(error)}` : plainErrorText(error);
        if (text !== lastLogged) {
          lastLogged = text;
          // The terminal gets the message as it came (colours included), without our call frames.
          server.config.logger.error(`${PREFIX} ${context ? `${context}: ` : ''}${messageOf(error)}`);
        }
        showInOverlay(server, text, error);
      });
    },
    warning(text) {
      neverThrowing(() => server.config.logger.warn(`${PREFIX} ${text}`));
    },
    recovered() {
      lastLogged = undefined;
    },
  };
}

function neverThrowing(report: () => void): void {
  try {
    report();
  } catch {
    // A report that fails (a thrown value without a text form, a closed socket) is lost, not fatal.
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error && typeof error.message === 'string' ? error.message : plainErrorText(error);
}

function showInOverlay(server: ViteDevServer, message: string, error: unknown): void {
  const { id, frame, loc } = (typeof error === 'object' && error !== null ? error : {}) as ErrorLocation;
  const line = typeof loc?.line === 'number' ? loc.line : undefined;
  server.ws.send({
    type: 'error',
    err: {
      message,
      // The plugin's and Vite's call frames would only push the message's own location out of view.
      stack: '',
      plugin: 'unplugin-idl-rpc',
      ...(typeof id === 'string' ? { id } : {}),
      ...(typeof frame === 'string' ? { frame: plainErrorText(frame) } : {}),
      ...(line === undefined
        ? {}
        : {
            loc: {
              ...(typeof loc?.file === 'string' ? { file: loc.file } : {}),
              line,
              column: typeof loc?.column === 'number' ? loc.column : 0,
            },
          }),
    },
  });
}

import cluster from 'node:cluster';

/** How many server processes `WORKERS` asks for: 1 when unset; an error message for anything but a whole number from 1 to 64. */
export function workerCount(value: string | undefined): number | string {
  if (value === undefined || value.trim() === '') return 1;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 64) return `WORKERS must be a whole number from 1 to 64, not "${value}"`;
  return count;
}

/**
 * The primary process of `WORKERS=N`: forks N copies of this script (node:cluster), which share
 * the listening port, says once when all of them listen, replaces a worker that dies, and on
 * SIGINT or SIGTERM stops them all and exits.
 */
export function runPrimary(count: number, port: number, storeDescription: string): void {
  let listening = 0;
  let stopping = false;
  cluster.on('listening', () => {
    listening++;
    if (listening === count) {
      console.log(
        `Checkout service listening on http://localhost:${port}/ (JSON-RPC 2.0 on / and /rpc; ${count} worker processes; Ctrl+C stops it)`,
      );
      console.log(`Data: ${storeDescription}`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (listening < count) {
      // A worker that cannot start (the database unreachable, say) would fail again: give up.
      console.error(`A worker failed to start (${signal ?? `exit code ${code}`}); stopping`);
      stop(1);
      return;
    }
    console.error(`Worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
    cluster.fork();
  });
  let exitCode = 0;
  const stop = (code: number) => {
    stopping = true;
    exitCode = code;
    const running = Object.values(cluster.workers ?? {});
    if (running.length === 0) process.exit(code);
    for (const worker of running) worker?.process.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop(0));
  for (let i = 0; i < count; i++) cluster.fork();
}

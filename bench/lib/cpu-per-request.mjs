/** CPU time per request of a "request text in, response text out" entry, for the in-process suites. */

/** CPU time (user + system, microseconds) this process has used so far. */
function cpuMicroseconds() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * CPU microseconds per request of `entry` on `body`: requests one after another until the process
 * has spent `budgetMs` of CPU time, in batches that grow so the clock is read rarely. CPU time, not
 * wall time: on a shared machine this process is descheduled now and then, and wall time would
 * charge those pauses to whichever server was running.
 */
export async function microsecondsPerRequest(entry, body, budgetMs) {
  let batch = 8;
  let requests = 0;
  let answered = 0;
  const budget = budgetMs * 1e3;
  const start = cpuMicroseconds();
  let spent = 0;
  while (spent < budget) {
    for (let i = 0; i < batch; i++) answered += Buffer.byteLength(await entry(body));
    requests += batch;
    spent = cpuMicroseconds() - start;
    if (spent < budget / 8) batch *= 2;
  }
  // Every answer's byte length is taken, as an HTTP adapter does for Content-Length: it also
  // flattens a text built by concatenation, as sending it would, so no server is spared that. And
  // it uses every answer, so none of the work can be optimised away.
  if (answered === 0) throw new Error('every answer was empty');
  return spent / requests;
}

/**
 * The checkout calls as the oRPC and tRPC rows send them: each call's interface, method and input,
 * read from the JSON-RPC bodies of bench/lib/checkout.mjs, so every server gets the same payloads;
 * and the results of an answer in call order, the form every server's answer is compared in.
 */
import { serverCalls } from './checkout.mjs';

/** The calls of one request body of `serverCalls` (`name`), in order: `{ service, procedure, input }`. */
export function callList(name) {
  const message = JSON.parse(serverCalls[name]);
  return (Array.isArray(message) ? message : [message]).map(({ method, params }) => {
    const dot = method.lastIndexOf('.');
    // Every checkout method takes at most one parameter: it is the oRPC and tRPC procedure's input.
    return { service: method.slice(0, dot), procedure: method.slice(dot + 1), input: params[0] };
  });
}

/** The results of a JSON-RPC answer text in call order (a batch's answers sorted by id); throws on an error answer. */
export function jsonRpcResults(text) {
  const answer = JSON.parse(text);
  const responses = Array.isArray(answer) ? [...answer].sort((a, b) => a.id - b.id) : [answer];
  return responses.map((response) => {
    if ('error' in response) throw new Error(`JSON-RPC error answer: ${JSON.stringify(response.error)}`);
    return response.result;
  });
}

/** An HTTP request of the suites, as autocannon takes it: `{ method, path, headers, body }`. */
export function postJson(path, body, headers = {}) {
  return { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body };
}

/**
 * A `fetch` for a peer framework's own client that records each request it sends in `sent`
 * (method, path with query, body), so the suite can check it sends what the suite measures.
 */
export function recordingFetch(sent) {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    sent.push({ method: request.method, path: url.pathname + url.search, body: await request.clone().text() });
    return fetch(request);
  };
}

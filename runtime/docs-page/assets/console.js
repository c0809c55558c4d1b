/**
 * The live console: pick a method, edit a request pre-filled from its parameter types, send it as
 * JSON-RPC or through the REST binding, see the result or the error (a declared error named with
 * its code and data), set request headers, and compose and send batches. A stream method's items
 * show as they arrive, then its end or error; a Stop button closes the connection.
 */
import { el, prettyJson } from './dom.js';
import { methodSignature } from './idl-text.js';
import {
  constraintHints,
  enumChoices,
  enumPlaces,
  idlIndex,
  itemTemplate,
  typeText,
  unionOf,
  variantTemplate,
} from './request-template.js';
import { readEvents, streamMessage } from './stream-view.js';

/**
 * @typedef {{ interfaceName: string, method: any }} MethodRef
 * @typedef {{ id: number, methodName: string, params: unknown[] }} BatchCall
 */

/**
 * Builds the console into `root`.
 * @param {HTMLElement} root
 * @param {{ idl: any, rpcPath: string, onSelect?: (ref: MethodRef) => void }} settings
 */
export function mountConsole(root, { idl, rpcPath, onSelect }) {
  const index = idlIndex(idl);
  const restBase = rpcPath.replace(/\/+$/, '');
  let nextId = 1;
  /** @type {MethodRef | undefined} */
  let selected;
  /** @type {BatchCall[]} */
  const batch = [];

  const headersInput = el('textarea', {
    rows: 3,
    spellcheck: false,
    placeholder: 'Authorization: Bearer <token>',
    'data-testid': 'headers',
    'aria-label': 'Request headers, one "Name: value" a line',
  });
  const bindingChoice = el(
    'select',
    { 'data-testid': 'binding', 'aria-label': 'Binding' },
    el('option', { value: 'json-rpc' }, 'JSON-RPC'),
    el('option', { value: 'rest' }, 'REST binding'),
  );
  const methodTitle = el('h3', { 'data-testid': 'method-title' }, 'Pick a method');
  const methodDoc = el('p', { class: 'method-doc' });
  const signature = el('code', { class: 'signature', 'data-testid': 'signature' });
  const paramsForm = el('div', { class: 'params', 'data-testid': 'params' });
  const requestView = el('pre', { class: 'request', 'data-testid': 'request' });
  const outcome = el('p', { class: 'outcome', 'data-testid': 'outcome', role: 'status' });
  const responseView = el('pre', { class: 'response', 'data-testid': 'response' });
  const batchList = el('ol', { class: 'batch', 'data-testid': 'batch' });
  const sendButton = el('button', { type: 'button', 'data-testid': 'send', disabled: true, onclick: () => send() }, 'Send');
  /** Closes the stream being shown. @type {AbortController | undefined} */
  let streaming;
  const stopButton = el('button', { type: 'button', 'data-testid': 'stop', disabled: true, onclick: () => streaming?.abort() }, 'Stop');
  const addButton = el(
    'button',
    { type: 'button', 'data-testid': 'add-to-batch', disabled: true, onclick: () => addToBatch() },
    'Add to batch',
  );
  const sendBatchButton = el(
    'button',
    { type: 'button', 'data-testid': 'send-batch', disabled: true, onclick: () => sendBatch() },
    'Send batch',
  );
  const clearBatchButton = el(
    'button',
    {
      type: 'button',
      disabled: true,
      onclick: () => {
        batch.length = 0;
        renderBatch();
      },
    },
    'Clear batch',
  );

  const methodList = el('nav', { class: 'methods', 'aria-label': 'Methods', 'data-testid': 'methods' });
  /** @type {HTMLButtonElement[]} */
  const methodButtons = [];
  for (const declared of idl.interfaces ?? []) {
    const list = el('ul');
    for (const method of declared.methods ?? []) {
      const button = /** @type {HTMLButtonElement} */ (
        el(
          'button',
          { type: 'button', 'data-testid': 'method', 'data-method': `${declared.name}.${method.name}`, title: method.comment ?? '' },
          method.name,
        )
      );
      button.addEventListener('click', () => select({ interfaceName: declared.name, method }, button));
      methodButtons.push(button);
      list.append(el('li', {}, button));
    }
    methodList.append(el('h4', {}, declared.name), list);
  }

  root.append(
    methodList,
    el(
      'div',
      { class: 'call' },
      methodTitle,
      methodDoc,
      signature,
      paramsForm,
      el('label', { class: 'field' }, 'Send as ', bindingChoice),
      el('label', { class: 'param' }, 'Request headers', headersInput),
      el('div', { class: 'actions' }, sendButton, stopButton, addButton),
      el('h4', {}, 'Request'),
      requestView,
      el('h4', {}, 'Response'),
      outcome,
      responseView,
      el('h4', {}, 'Batch'),
      batchList,
      el('div', { class: 'actions' }, sendBatchButton, clearBatchButton),
    ),
  );

  /** @type {(() => unknown[] | undefined)[]} */
  let readParams = [];

  /** @param {MethodRef} ref @param {HTMLButtonElement} button */
  function select(ref, button) {
    selected = ref;
    for (const other of methodButtons) other.classList.toggle('selected', other === button);
    methodTitle.textContent = `${ref.interfaceName}.${ref.method.name}`;
    methodDoc.textContent = ref.method.comment ?? '';
    signature.textContent = methodSignature(ref.method);
    paramsForm.replaceChildren();
    readParams = (ref.method.parameters ?? []).map((/** @type {any} */ parameter) => parameterControl(parameter));
    if (readParams.length === 0) paramsForm.append(el('p', { class: 'hint' }, 'No parameters.'));
    sendButton.disabled = false;
    // A batch cannot carry a stream method's call (docs/protocol.md, "Streams").
    addButton.disabled = ref.method.stream === true;
    addButton.title = ref.method.stream === true ? 'A stream method is called alone, never in a batch' : '';
    onSelect?.(ref);
  }

  /**
   * A control for one parameter, appended to the form; returns how to read its value.
   * @param {any} parameter
   */
  function parameterControl(parameter) {
    const id = `param-${parameter.name}`;
    // An optional parameter without a default starts empty: left out of the request until filled in.
    const leftOut = parameter.optional && !('default' in parameter);
    const label = el('label', { for: id }, parameter.name, ' ', el('code', {}, typeText(parameter.type)), leftOut ? ' (optional)' : '');
    const choices = enumChoices(index, parameter.type);
    const scalar = parameter.type.builtIn;
    const initial = leftOut ? undefined : itemTemplate(index, parameter);
    /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */
    let control;
    /** @type {() => unknown} */
    let read;
    if (choices) {
      const options = (leftOut ? [''] : []).concat(choices).map((v) => el('option', { value: v }, v || '(left out)'));
      control = /** @type {HTMLSelectElement} */ (el('select', { id, 'data-param': parameter.name }, ...options));
      if (typeof initial === 'string') control.value = initial;
      read = () => control.value;
    } else if (scalar === 'bool' && !leftOut) {
      control = /** @type {HTMLInputElement} */ (el('input', { id, type: 'checkbox', 'data-param': parameter.name }));
      /** @type {HTMLInputElement} */ (control).checked = initial === true;
      read = () => /** @type {HTMLInputElement} */ (control).checked;
    } else if (scalar === 'string' || scalar === 'timestamp' || scalar === 'date' || scalar === 'bytes') {
      // Strings on the wire: typed as text (timestamp and date pre-filled with a valid value).
      control = /** @type {HTMLInputElement} */ (el('input', { id, type: 'text', 'data-param': parameter.name }));
      control.value = typeof initial === 'string' ? initial : '';
      read = () => control.value;
    } else {
      // Numbers, structs, arrays and maps are edited as JSON, pre-filled from the type.
      const text = initial === undefined ? '' : prettyJson(initial);
      control = /** @type {HTMLTextAreaElement} */ (
        el('textarea', { id, rows: Math.min(14, text.split('\n').length + 1), spellcheck: false, 'data-param': parameter.name })
      );
      control.value = text;
      read = () => JSON.parse(control.value);
    }
    const chooser = variantChooser(parameter, /** @type {HTMLTextAreaElement} */ (control));
    const enumHints = enumPlaces(index, parameter.type)
      .filter((p) => p.place !== '')
      .map((p) => el('li', {}, el('code', {}, p.place), ': one of ', p.values.map((v) => `"${v}"`).join(', ')));
    const bounds = constraintHints(parameter);
    const hints = bounds.length > 0 ? [el('li', {}, bounds.join(', ')), ...enumHints] : enumHints;
    paramsForm.append(el('div', { class: 'param' }, label, chooser, control, hints.length ? el('ul', { class: 'hint' }, ...hints) : null));
    return () => {
      if (leftOut && control.value.trim() === '') return undefined;
      try {
        return read();
      } catch (error) {
        throw new Error(`${parameter.name} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
  }

  /**
   * For a union parameter, a choice of its variants that refills the editor with the chosen one's
   * template (discriminator set); null for other parameters.
   * @param {any} parameter
   * @param {HTMLTextAreaElement} editor
   */
  function variantChooser(parameter, editor) {
    const union = unionOf(index, parameter.type);
    if (!union) return null;
    const options = (union.variants ?? []).map((/** @type {any} */ v) => el('option', { value: v.tag }, v.tag));
    const chooser = /** @type {HTMLSelectElement} */ (
      el('select', { 'data-variant': parameter.name, 'aria-label': `Variant of ${parameter.name}` }, ...options)
    );
    chooser.addEventListener('change', () => {
      editor.value = prettyJson(variantTemplate(index, union, chooser.value));
    });
    return el('label', { class: 'field' }, `${union.discriminator}: `, chooser);
  }

  /** The request headers typed in, with the JSON content type the server requires. */
  function requestHeaders() {
    /** @type {Record<string, string>} */
    const headers = {};
    for (const [number, line] of headersInput.value.split('\n').entries()) {
      if (line.trim() === '') continue;
      const colon = line.indexOf(':');
      if (colon <= 0) throw new Error(`header line ${number + 1} is not "Name: value": ${line}`);
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    headers['content-type'] = 'application/json';
    return headers;
  }

  /**
   * The current call's params in IDL order: optional ones left out are dropped from the end and
   * sent as null between others (what positional callers send).
   */
  function currentParams() {
    const params = readParams.map((read) => read());
    while (params.length > 0 && params[params.length - 1] === undefined) params.pop();
    return params.map((value) => (value === undefined ? null : value));
  }

  async function send() {
    if (!selected) return;
    const ref = selected;
    const methodName = `${ref.interfaceName}.${ref.method.name}`;
    const rest = /** @type {HTMLSelectElement} */ (bindingChoice).value === 'rest';
    let url;
    let body;
    try {
      const params = currentParams();
      if (rest) {
        url = `${restBase}/${ref.interfaceName}/${ref.method.name}`;
        // By name: an optional parameter left out is simply not sent.
        /** @type {Record<string, unknown>} */
        const named = {};
        for (const [i, parameter] of (ref.method.parameters ?? []).entries()) {
          if (!(parameter.optional && (params[i] === undefined || params[i] === null))) named[parameter.name] = params[i];
        }
        body = named;
      } else {
        url = rpcPath;
        body = { jsonrpc: '2.0', id: nextId++, method: methodName, params };
      }
    } catch (error) {
      return showProblem(error);
    }
    if (ref.method.stream === true) return streamExchange(url, body, rest, ref.method);
    await exchange(url, body, (status, answer) => {
      if (rest)
        return status === 200 ? { text: describeResult(answer), failed: false } : { text: describeError(answer, ref.method), failed: true };
      return answer && typeof answer === 'object' && 'error' in answer
        ? { text: describeError(answer.error, ref.method), failed: true }
        : { text: describeResult(answer?.result), failed: false };
    });
  }

  function addToBatch() {
    if (!selected) return;
    try {
      batch.push({ id: nextId++, methodName: `${selected.interfaceName}.${selected.method.name}`, params: currentParams() });
    } catch (error) {
      return showProblem(error);
    }
    renderBatch();
  }

  function renderBatch() {
    batchList.replaceChildren(
      ...batch.map((call, position) =>
        el(
          'li',
          { 'data-testid': 'batch-call' },
          el('code', {}, `${call.methodName}(${call.params.map((p) => JSON.stringify(p)).join(', ')})`),
          ' ',
          el(
            'button',
            {
              type: 'button',
              class: 'remove',
              'aria-label': `Remove ${call.methodName} from the batch`,
              onclick: () => {
                batch.splice(position, 1);
                renderBatch();
              },
            },
            'Remove',
          ),
        ),
      ),
    );
    /** @type {HTMLButtonElement} */ (sendBatchButton).disabled = batch.length === 0;
    /** @type {HTMLButtonElement} */ (clearBatchButton).disabled = batch.length === 0;
  }

  async function sendBatch() {
    if (batch.length === 0) return;
    const calls = [...batch];
    const body = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, method: call.methodName, params: call.params }));
    await exchange(rpcPath, body, (_status, answer) => {
      if (!Array.isArray(answer))
        return { text: answer?.error ? describeError(answer.error, undefined) : 'Unexpected answer', failed: true };
      const text = answer
        .map((member) => {
          const call = calls.find((c) => c.id === member.id);
          const method = call ? methodOf(call.methodName) : undefined;
          const what = member.error ? describeError(member.error, method) : describeResult(member.result);
          return `#${member.id} ${call?.methodName ?? ''}: ${what}`;
        })
        .join('\n');
      return { text, failed: answer.some((member) => member.error) };
    });
  }

  /** @param {string} methodName */
  function methodOf(methodName) {
    const dot = methodName.lastIndexOf('.');
    const declared = (idl.interfaces ?? []).find((/** @type {any} */ i) => i.name === methodName.slice(0, dot));
    return declared?.methods?.find((/** @type {any} */ m) => m.name === methodName.slice(dot + 1));
  }

  /**
   * Posts `body` to `url` and shows the exchange.
   * @param {string} url
   * @param {unknown} body
   * @param {(status: number, answer: any) => { text: string, failed: boolean }} summarize
   */
  async function exchange(url, body, summarize) {
    let headers;
    try {
      headers = requestHeaders();
    } catch (error) {
      return showProblem(error);
    }
    requestView.textContent = `POST ${url}\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n')}\n\n${prettyJson(body)}`;
    outcome.textContent = 'Sending…';
    outcome.className = 'outcome';
    responseView.textContent = '';
    try {
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' });
      const text = await response.text();
      let answer;
      try {
        answer = text === '' ? undefined : JSON.parse(text);
      } catch {
        answer = text;
      }
      responseView.textContent = `HTTP ${response.status} ${response.statusText}\n\n${typeof answer === 'string' ? answer : prettyJson(answer)}`;
      const summary = summarize(response.status, answer);
      outcome.textContent = summary.text;
      outcome.className = `outcome ${summary.failed ? 'failed' : 'succeeded'}`;
    } catch (error) {
      showProblem(error);
    }
  }

  /**
   * Posts a stream method's request to `url` and shows its items as they arrive, then how it ended;
   * Stop closes the connection. An answer that is no event stream shows as any other.
   * @param {string} url
   * @param {unknown} body
   * @param {boolean} rest
   * @param {any} method
   */
  async function streamExchange(url, body, rest, method) {
    let headers;
    try {
      headers = { ...requestHeaders(), accept: 'text/event-stream' };
    } catch (error) {
      return showProblem(error);
    }
    streaming?.abort();
    const controller = new AbortController();
    streaming = controller;
    /** @type {HTMLButtonElement} */ (stopButton).disabled = false;
    requestView.textContent = `POST ${url}\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n')}\n\n${prettyJson(body)}`;
    const show = (/** @type {string} */ text, /** @type {string} */ state) => {
      outcome.textContent = text;
      outcome.className = `outcome ${state}`;
    };
    show('Sending…', '');
    responseView.textContent = '';
    let count = 0;
    let ended = false;
    const items = () => `${count} item${count === 1 ? '' : 's'}`;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        credentials: 'same-origin',
        signal: controller.signal,
      });
      responseView.textContent = `HTTP ${response.status} ${response.statusText}\n\n`;
      if (!/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '') || !response.body) {
        const text = await response.text();
        let answer;
        try {
          answer = JSON.parse(text);
        } catch {
          answer = text;
        }
        responseView.textContent += typeof answer === 'string' ? answer : prettyJson(answer);
        return show(describeError(rest ? answer : (answer?.error ?? answer), method), 'failed');
      }
      show('Streaming… 0 items', '');
      await readEvents(response.body, (event) => {
        if (ended) return;
        const message = streamMessage(event, rest);
        if (message.kind === 'item') {
          count++;
          responseView.textContent += `#${count}${event.id ? ` (id ${event.id})` : ''} ${JSON.stringify(message.item)}\n`;
          show(`Streaming… ${items()}`, '');
        } else if (message.kind === 'end') {
          ended = true;
          show(`Stream ended after ${items()}`, 'succeeded');
        } else if (message.kind === 'error') {
          ended = true;
          show(`${describeError(message.error, method)} (after ${items()})`, 'failed');
        } else if (message.kind === 'reconnect') {
          ended = true;
          show(`The server asked to reconnect (it is closing its streams) after ${items()}; send again to resume`, 'failed');
        }
      });
      if (!ended) show(`The connection ended after ${items()} without the stream's end`, 'failed');
    } catch (error) {
      if (controller.signal.aborted) show(`Stopped after ${items()}`, '');
      else showProblem(error);
    } finally {
      if (streaming === controller) {
        streaming = undefined;
        /** @type {HTMLButtonElement} */ (stopButton).disabled = true;
      }
    }
  }

  /** @param {unknown} result */
  function describeResult(result) {
    return `Result: ${result === undefined ? '(none)' : JSON.stringify(result).slice(0, 200)}`;
  }

  /**
   * "Declared error CartNotFound (code 1001): ..." for an error the IDL declares, with its data.
   * @param {any} error
   * @param {any} method
   */
  function describeError(error, method) {
    if (!error || typeof error !== 'object') return `Error: ${String(error)}`;
    const declared = (idl.errors ?? []).find((/** @type {any} */ e) => e.code === error.code);
    const plainName = declared ? declared.name.slice(declared.name.lastIndexOf('.') + 1) : undefined;
    const raisedHere =
      declared && method?.raises?.some((/** @type {string} */ r) => r === declared.name || r === plainName)
        ? ` (declared by ${method.name})`
        : '';
    const kind = declared ? `Declared error ${plainName}${raisedHere}` : 'Error';
    const data = error.data === undefined ? '' : `; data: ${JSON.stringify(error.data)}`;
    return `${kind}, code ${error.code}: ${error.message}${data}`;
  }

  /** @param {unknown} error */
  function showProblem(error) {
    outcome.textContent = `Not sent: ${error instanceof Error ? error.message : String(error)}`;
    outcome.className = 'outcome failed';
  }
}

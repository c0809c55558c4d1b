/**
 * One `-conform` run: `rpc-idl` against the IDL, the protocol probes, then for every selected method
 * generated requests (valid ones and invalid ones) over JSON-RPC and, with `rest`, over the REST
 * binding, every answer checked; each broken rule reported once per method and binding, shrunk.
 */
import { interfaceFingerprints } from '../../runtime/contract-fingerprint.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import { CONTRACT_HEADER } from '../../runtime/client-call.js';
import { compileValidators } from '../../runtime/validation.js';
import {
  type AnswerCheck,
  type AnswerKind,
  checkJsonRpcAnswer,
  checkRestAnswer,
  type Finding,
  type RestStatuses,
} from './answer-checks.js';
import { contractFinding } from './contract-check.js';
import { exchange, type HttpAnswer, type HttpRequest } from './http-exchange.js';
import { indexIdl } from './idl-index.js';
import { argumentsAreValid, type MethodUnderTest, namedArguments } from './method-under-test.js';
import { selectMethods } from './method-selection.js';
import { PROTOCOL_PROBES, probeFinding, probeRequest } from './protocol-probes.js';
import { Random } from './random.js';
import { invalidArguments, validArguments } from './request-generation.js';
import { type Clock, RequestPacer, systemClock } from './request-pacing.js';
import { restStatusesOf } from './rest-statuses.js';
import { shrink } from './shrinking.js';
import type { GenerationContext } from './value-generation.js';

export interface ConformOptions {
  /** The JSON-RPC endpoint. */
  url: string;
  idl: IdlJson;
  /** The openapi.json the compiler makes for the IDL (REST statuses). */
  openApi: unknown;
  /** `<Interface>.<method>` names (`-methods`); every method when undefined. */
  methods?: readonly string[];
  /** Run methods that are not `@readonly` too. */
  all: boolean;
  /** Check the REST binding too. */
  rest: boolean;
  /** Generated requests per method and binding. */
  runs: number;
  seed: number;
  /** Sent with every request (`-header`, e.g. authorization). */
  headers: Readonly<Record<string, string>>;
  /** Requests per second. */
  rate: number;
  clock?: Clock;
}

export type Binding = 'JSON-RPC' | 'REST' | 'protocol';

export interface Violation {
  rule: string;
  /** The method, or `rpc-idl` / `protocol` for the checks that are not a method's. */
  subject: string;
  binding: Binding;
  message: string;
  request: HttpRequest;
  answer?: HttpAnswer;
  /** Shrinking steps that made the request smaller (0: it was as small as found). */
  shrinkSteps: number;
}

export interface MethodSummary {
  name: string;
  counts: Partial<Record<AnswerKind, number>>;
  /** Why the method sent no request, when it sent none. */
  note?: string;
}

export interface ConformReport {
  ran: MethodSummary[];
  skipped: { name: string; reason: string }[];
  probes: number;
  violations: Violation[];
  requests: number;
}

/** A request with its arguments, how it is encoded, and whether the IDL accepts it. */
interface CallCase {
  target: MethodUnderTest;
  binding: 'JSON-RPC' | 'REST';
  args: unknown[];
  named: boolean;
  valid: boolean;
}

/** Runs the checks. @throws ServerUnreachableError when the server cannot be reached. */
export async function runConformance(options: ConformOptions): Promise<ConformReport> {
  return new ConformRun(options).run();
}

class ConformRun {
  private readonly pacer: RequestPacer;
  private readonly report: ConformReport = { ran: [], skipped: [], probes: 0, violations: [], requests: 0 };
  private readonly reported = new Set<string>();
  private nextId = 1;
  private readonly restStatuses = new Map<string, RestStatuses>();

  constructor(private readonly options: ConformOptions) {
    this.pacer = new RequestPacer(options.rate, options.clock ?? systemClock);
  }

  async run(): Promise<ConformReport> {
    const { idl, url, headers } = this.options;
    const selection = selectMethods(idl, this.options.methods, this.options.all);
    this.report.skipped = selection.skipped;
    const idlRequest = this.jsonRequest({ jsonrpc: '2.0', id: this.nextId++, method: 'rpc-idl' }, headers);
    const idlAnswer = await this.send(idlRequest);
    this.record('rpc-idl', 'protocol', contractFinding(idl, idlAnswer), idlRequest, idlAnswer);
    for (const probe of PROTOCOL_PROBES) {
      const request = probeRequest(probe, url, headers);
      const answer = await this.send(request);
      this.report.probes++;
      this.record('protocol', 'protocol', probeFinding(probe, answer), request, answer);
    }
    const validators = compileValidators(idl);
    const fingerprints = interfaceFingerprints(idl);
    const index = indexIdl(idl);
    const random = new Random(this.options.seed);
    for (const { iface, method, name } of selection.run) {
      const declaredErrors = new Map<number, string>();
      for (const raised of method.raises ?? []) {
        const error = (idl.errors ?? []).find((e) => e.name === raised || e.name === `${iface.namespace}.${raised}`);
        if (error) declaredErrors.set(error.code, error.name.slice(error.name.lastIndexOf('.') + 1));
      }
      const target: MethodUnderTest = {
        name,
        iface,
        method,
        validators: validators[name],
        contract: fingerprints.get(iface.name) ?? '',
        declaredErrors,
      };
      await this.runMethod(target, { index, random, size: 0 });
    }
    return this.report;
  }

  private async runMethod(target: MethodUnderTest, context: GenerationContext): Promise<void> {
    const summary: MethodSummary = { name: target.name, counts: {} };
    this.report.ran.push(summary);
    const { runs } = this.options;
    const bindings: CallCase['binding'][] = this.options.rest ? ['JSON-RPC', 'REST'] : ['JSON-RPC'];
    for (let run = 0; run < runs; run++) {
      context.size = Math.round((run * 10) / Math.max(1, runs - 1));
      const valid = validArguments(target, context);
      if (!valid) {
        summary.note = 'no valid request could be generated (a pattern the generator does not hit: add an @example to the field)';
        return;
      }
      // Every third request is an invalid one, which the server must refuse with -32602.
      const invalid = run % 3 === 2 ? invalidArguments(target, valid, context) : undefined;
      for (const binding of bindings) {
        const call: CallCase = invalid
          ? { target, binding, args: invalid.args, named: false, valid: false }
          : { target, binding, args: valid, named: context.random.chance(0.5), valid: true };
        const { check, request, answer } = await this.call(call);
        if (check.kind) summary.counts[check.kind] = (summary.counts[check.kind] ?? 0) + 1;
        for (const finding of check.findings) await this.recordShrunk(call, finding, request, answer);
      }
    }
  }

  private async call(call: CallCase): Promise<{ check: AnswerCheck; request: HttpRequest; answer: HttpAnswer | undefined }> {
    const { target } = call;
    const headers = { ...this.options.headers, [CONTRACT_HEADER]: target.contract };
    if (call.binding === 'REST') {
      const request: HttpRequest = {
        method: 'POST',
        url: `${this.options.url.replace(/\/+$/, '')}/${target.iface.name}/${target.method.name}`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(namedArguments(target, call.args)),
      };
      const answer = await this.send(request);
      return { check: checkRestAnswer(target, answer, call.valid, this.restStatusesOf(target)), request, answer };
    }
    const id = this.nextId++;
    const params = call.named ? namedArguments(target, call.args) : call.args;
    const request = this.jsonRequest({ jsonrpc: '2.0', id, method: target.name, params }, headers);
    const answer = await this.send(request);
    return { check: checkJsonRpcAnswer(target, answer, id, call.valid), request, answer };
  }

  private restStatusesOf(target: MethodUnderTest): RestStatuses {
    let statuses = this.restStatuses.get(target.name);
    if (!statuses)
      this.restStatuses.set(target.name, (statuses = restStatusesOf(this.options.openApi, target.iface.name, target.method.name)));
    return statuses;
  }

  /** Records a finding once per method, binding and rule, with the request shrunk while it still breaks the rule. */
  private async recordShrunk(call: CallCase, finding: Finding, request: HttpRequest, answer: HttpAnswer | undefined): Promise<void> {
    const key = `${call.binding}\0${call.target.name}\0${finding.rule}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    let last = { finding, request, answer };
    const { steps } = await shrink(
      call.args,
      (candidate) => argumentsAreValid(call.target, candidate) === call.valid,
      async (candidate) => {
        const attempt = await this.call({ ...call, args: candidate });
        const same = attempt.check.findings.find((f) => f.rule === finding.rule);
        if (same) last = { finding: same, request: attempt.request, answer: attempt.answer };
        return same !== undefined;
      },
    );
    this.report.violations.push({
      rule: finding.rule,
      subject: call.target.name,
      binding: call.binding,
      message: last.finding.message,
      request: last.request,
      answer: last.answer,
      shrinkSteps: steps,
    });
  }

  private record(
    subject: string,
    binding: Binding,
    finding: Finding | undefined,
    request: HttpRequest,
    answer: HttpAnswer | undefined,
  ): void {
    if (!finding) return;
    const key = `${binding}\0${subject}\0${finding.rule}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.report.violations.push({ rule: finding.rule, subject, binding, message: finding.message, request, answer, shrinkSteps: 0 });
  }

  private jsonRequest(message: object, headers: Readonly<Record<string, string>>): HttpRequest {
    return {
      method: 'POST',
      url: this.options.url,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(message),
    };
  }

  private async send(request: HttpRequest): Promise<HttpAnswer | undefined> {
    await this.pacer.wait();
    this.report.requests++;
    return exchange(request);
  }
}

#!/usr/bin/env node
// Genkit (`genkit` with the Google AI plugin `@genkit-ai/google-genai`) behind the driver protocol
// (fixtures/INTERPRETING.md §15), protocol 2.
//
//   node drivers/genkit/driver.mjs --mode loop   the application: per case
//        `genkit({plugins: [googleAI({apiKey, baseUrl: base_url, apiVersion: 'v1beta'})]})`,
//        `ai.defineTool({name, description, inputJsonSchema}, fn)` for each functionDeclarations
//        entry of options.tools (other tools such as codeExecution go through `config.tools`,
//        the plugin's documented pass-through), and one `ai.generate` per prompt
//        (`ai.generateStream` when its exchanges are streamed) with `tools`, `maxTurns` set to
//        the tool rounds the case scripts after that prompt, `config` (generation config
//        members and `toolConfig`) and the history of the previous prompts as `messages`
//        (`response.messages`). Genkit runs the tool loop itself.
//
// The driver is the application around Genkit, written the way Genkit's documentation shows;
// what reaches the wire is Genkit's and its plugin's. Where the application decides (what a tool
// function returns, the public id of an id-less call), it does what ADR-224 and ADR-226 ask, so
// that what the oracle finds is Genkit's own behaviour:
//   - a tool function returns the case's result as the value itself (`json`), the text (`text`)
//     or `{error: text}` (`error`; a Genkit tool that throws ends the whole generate call).
//     Genkit wraps every output as `functionResponse.response = {name, content: output}`;
//   - a tool function finds its result from run_case's `calls` and `selected` (§15.2): the call
//     Genkit hands it (name and input) is looked up among the calls Genkit parsed in that turn
//     (seen through a model middleware, Genkit's documented `use` hook, which gives the parsed
//     response: no network traffic is read), then among the case's calls by name and arguments
//     (identical ones in order), else by name in order. A call the server answered in its own
//     content (`answered_inside`) gets a neutral payload and is left out of `answered`. Genkit
//     runs the tools of a turn in parallel and sends their answers in the order they finish:
//     the tools finish in the order `then.results` lists them, neutral payloads last;
//   - the public id of a call is Genkit's `toolRequest.ref` (the native id), else
//     `genkit-<exchange>-<index>`.
// Capabilities: streaming and stream-capture (a streamed generate's messages are the history of
// the next prompt). No carried-state (Genkit's history is its own MessageData, it cannot load a
// native transcript with its capsules), no persistence, approvals, snapshots or typed-errors:
// a refusal's code is the class of the error Genkit raised, without phase and exchange (the
// oracle places it from the journal, protocol 2).
//
// Genkit starts a reflection server and dev telemetry only when GENKIT_ENV is `dev`: the driver
// sets GENKIT_ENV=prod before loading Genkit, so nothing listens. Only protocol lines go to the
// reply channel (descriptor 3 when the oracle passes it, else standard output); console.log,
// info and debug (Genkit's logger writes with them) go to standard error.

import { fstatSync, readFileSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';

process.env.GENKIT_ENV = 'prod';
for (const name of ['log', 'info', 'debug', 'dir', 'table']) console[name] = console.error.bind(console);

const { genkit } = await import('genkit');
const { googleAI } = await import('@genkit-ai/google-genai');
const { logger } = await import('genkit/logging');
logger.setLogLevel('error');

const MODE = (() => {
  const at = process.argv.indexOf('--mode');
  const mode = at >= 0 ? process.argv[at + 1] : 'loop';
  if (mode !== 'loop') {
    console.error('usage: node driver.mjs [--mode loop]');
    process.exit(2);
  }
  return mode;
})();

const versionOf = (pkg) => JSON.parse(readFileSync(
  new URL(`./node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
const GENKIT_VERSION = versionOf('genkit');
const PLUGIN_VERSION = versionOf('@genkit-ai/google-genai');

// The reply channel: descriptor 3 when `start` names it and it is open, else standard output.
let replyFd = 1;
let sentAny = false;
function send(message) {
  const line = `${JSON.stringify(message)}\n`;
  if (replyFd !== 1) {
    try {
      writeSync(replyFd, line);
      sentAny = true;
      return;
    } catch (error) {
      // Descriptor 3 is open but not ours to write (npm start, a shell): standard output then.
      if (!sentAny) replyFd = 1;
      else throw error;
    }
  }
  process.stdout.write(line);
}

// ---------------------------------------------------------------------------------------------
// The case's `then` (§5.4)

const resultsOf = (exchange) => exchange?.then?.results ?? [];

/// ADR-226.8: recursive, kind-strict but for numbers, object member order free.
function sameValue(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

/// What the application's tool function returns for a case result. Genkit wraps it itself.
function outputOf(result) {
  if (Object.hasOwn(result, 'error')) return { error: result.error };
  if (Object.hasOwn(result, 'text')) return result.text;
  return result.json;
}

const NEUTRAL = { error: 'no result for this call' };

class StopLoop extends Error {} // the application stops: the case's selectors fit no call

// Reasons reach the reports with the case's native content cut out (§15): worded around it.
const skipped = (reason) => ({ type: 'skipped', reason });

/// One ai.generate runs a prompt and the tool rounds after it: an exchange without a prompt
/// continues the loop of the one before, whose results Genkit sends in that request.
function groupsOf(c) {
  const groups = [];
  const exchanges = c.exchanges;
  for (let k = 0; k < exchanges.length; ++k) {
    const exchange = exchanges[k];
    const answered = k > 0 && resultsOf(exchanges[k - 1]).length > 0;
    if (exchange.user !== undefined) {
      if (answered) return 'Genkit sends function answers in its own loop, yet here a new prompt joins them';
      groups.push({ start: k + 1, size: 1, streamed: exchange.streamed, toolMode: exchange.tool_mode });
      continue;
    }
    if (!answered) return 'a step with neither a prompt nor function answers: Genkit cannot send it';
    const group = groups[groups.length - 1];
    if (exchange.tool_mode !== group.toolMode) {
      return 'Genkit keeps one config per generate loop, yet here the config varies inside a loop';
    }
    if (exchange.streamed !== group.streamed) {
      return 'Genkit runs a whole loop streamed or none of it, yet here a loop mixes both';
    }
    group.size += 1;
  }
  // Genkit answers every call of a turn before the next request of its loop, and a generate
  // that ends on calls leaves them unanswered in the history of the next prompt.
  for (const group of groups) {
    const last = group.start + group.size - 1;
    for (let k = group.start; k <= last; ++k) {
      const exchange = exchanges[k - 1];
      const pending = (exchange.calls ?? []).map((call, j) => (call.answered_inside ? -1 : j)).filter((j) => j >= 0);
      const selected = new Set((exchange.selected?.results ?? []).filter((j) => j !== null));
      if (k < last && pending.some((j) => !selected.has(j))) {
        return 'Genkit answers every function invocation in its loop, yet here one stays without a result';
      }
      if (k === last && k < exchanges.length && pending.length > 0) {
        return 'Genkit answers every function invocation, yet here some stay unanswered before a new prompt';
      }
    }
  }
  return groups;
}

/// A Gemini Schema (`parameters`, upper-case types) as the JSON schema an application writes.
function jsonSchemaOf(schema) {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSchemaOf(v)]));
    } else if (key === 'items' || key === 'anyOf') out[key] = jsonSchemaOf(value);
    else out[key] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// One case

async function runCase(c) {
  const groups = groupsOf(c);
  if (typeof groups === 'string') return skipped(groups);
  const options = c.options ?? {};
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };

  const ai = genkit({
    plugins: [googleAI({ apiKey: 'test', baseUrl: c.base_url, apiVersion: 'v1beta' })],
  });

  // The turns Genkit parsed, seen by a model middleware: exchange number -> turn.
  const turns = new Map();
  let current = 0; // the exchange the next model call belongs to
  const turnOf = (k) => {
    if (!turns.has(k)) {
      turns.set(k, { exchange: k, calls: [], ids: [], waiting: new Map(), settled: false });
    }
    return turns.get(k);
  };
  const observe = async (req, next) => {
    const k = current++;
    while (report.exchanges.length < k) {
      report.exchanges.push({ request_built: true, response_parsed: false, calls: [], answered: [] });
    }
    const response = await next(req);
    const message = response?.message ?? response?.candidates?.[0]?.message;
    const turn = turnOf(k);
    const parts = Array.isArray(message?.content) ? message.content : [];
    turn.calls = parts.filter((part) => part?.toolRequest).map((part) => part.toolRequest);
    turn.ids = turn.calls.map((call, i) => (typeof call.ref === 'string' && call.ref !== '' ? call.ref : `genkit-${k}-${i}`));
    const er = report.exchanges[k - 1];
    er.response_parsed = true;
    er.calls = turn.calls.map((call, i) => ({
      id: turn.ids[i],
      name: typeof call.name === 'string' ? call.name : '',
      arguments: call.input ?? {},
    }));
    return response;
  };

  // The tools: one per declaration. A tool call waits until every call of its turn that a tool
  // of this application owns (among the calls the middleware saw) has been handed over, then the
  // answers are released in the order then.results lists them (neutral ones last), one per
  // event-loop turn. Genkit hands every such call over before it waits for any (Promise.all over
  // the turn's toolRequest parts); one it does not hand over fails the whole generate call, so
  // no timer is needed: the verdicts do not depend on timing.
  const declarations = [];
  const otherTools = [];
  for (const entry of options.tools ?? []) {
    const fds = entry?.functionDeclarations;
    if (Array.isArray(fds)) declarations.push(...fds);
    const { functionDeclarations, ...rest } = entry ?? {};
    if (Object.keys(rest).length > 0) otherTools.push(rest);
  }
  const names = new Set(declarations.map((d) => d?.name));

  const resultFor = (turn, call) => {
    // The library call -> its position in Genkit's parse -> the case's call -> the result.
    const exchange = c.exchanges[turn.exchange - 1];
    const caseCalls = exchange?.calls ?? [];
    const at = turn.calls.indexOf(call);
    const same = (j) => caseCalls[j].name === call.name;
    const sameArgs = (j) => same(j) && sameValue(caseCalls[j].args ?? {}, call.input ?? {});
    const before = turn.calls.slice(0, at);
    const rank = (pred, ofLib) => before.filter(ofLib).length;
    let j;
    const byArgs = caseCalls.map((_, i) => i).filter(sameArgs);
    if (byArgs.length > 0) {
      const n = rank(null, (other) => other.name === call.name && sameValue(other.input ?? {}, call.input ?? {}));
      j = byArgs[n];
    }
    if (j === undefined) {
      const byName = caseCalls.map((_, i) => i).filter(same);
      j = byName[rank(null, (other) => other.name === call.name)];
    }
    if (j === undefined || caseCalls[j].answered_inside) return { index: undefined };
    const index = (exchange.selected?.results ?? []).indexOf(j);
    return { index: index >= 0 ? index : undefined };
  };

  // Settles a turn from the calls the middleware saw, in Genkit's parse order (not the order the
  // calls were handed over): each owned call's result, or a stop when a result fits none.
  const settle = (turn) => {
    if (turn.settled) return;
    turn.settled = true;
    const exchange = c.exchanges[turn.exchange - 1];
    const results = resultsOf(exchange);
    const er = report.exchanges[turn.exchange - 1];
    const given = new Map(); // result index -> waiting answer
    const neutral = [];
    for (const call of turn.calls) {
      const answer = turn.waiting.get(call);
      if (answer === undefined) continue; // not a call of this application's tools
      const { index } = resultFor(turn, answer.call);
      if (index !== undefined && !given.has(index)) given.set(index, answer);
      else neutral.push(answer);
    }
    const missing = results.map((_, i) => i).filter((i) => !given.has(i));
    if (missing.length > 0 && turn.exchange < c.exchanges.length) {
      stopped = { exchange: turn.exchange, reason: `result ${missing[0]}'s selector picks no single call Genkit parsed` };
      for (const answer of turn.waiting.values()) answer.reject(new StopLoop());
      return;
    }
    const order = [...[...given.keys()].sort((a, b) => a - b).map((i) => [i, given.get(i)]),
      ...neutral.map((answer) => [undefined, answer])];
    (async () => {
      for (const [index, answer] of order) {
        if (index !== undefined) {
          er.answered.push({ result: index, call: turn.ids[turn.calls.indexOf(answer.call)] });
          answer.resolve(outputOf(results[index]));
        } else {
          answer.resolve(NEUTRAL);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
  };

  let stopped;
  const toolFn = (name) => async (input) => {
    const turn = turnOf(current - 1);
    // The call Genkit hands over: by name and input among the calls not handed yet, else by name.
    const open = turn.calls.filter((call) => call.name === name && !turn.waiting.has(call));
    const call = open.find((other) => sameValue(other.input ?? {}, input ?? {})) ?? open[0];
    if (call === undefined) return NEUTRAL;
    const promise = new Promise((resolve, reject) => turn.waiting.set(call, { call, resolve, reject }));
    // The last owned call the middleware saw is handed over: the turn settles.
    if (turn.calls.every((other) => !names.has(other.name) || turn.waiting.has(other))) settle(turn);
    return promise;
  };
  const tools = declarations.map((d) => {
    const schema = d.parametersJsonSchema ?? (d.parameters !== undefined ? jsonSchemaOf(d.parameters) : undefined);
    return ai.defineTool({
      name: d.name,
      description: d.description ?? '',
      ...(schema !== undefined ? { inputJsonSchema: schema } : {}),
    }, toolFn(d.name));
  });

  const model = googleAI.model(c.model ?? 'gemini-2.5-flash');
  let history = [];
  for (const group of groups) {
    const config = {};
    if (options.generation_config && typeof options.generation_config === 'object') {
      Object.assign(config, structuredClone(options.generation_config));
    }
    let toolConfig = options.tool_config !== undefined ? structuredClone(options.tool_config) : undefined;
    if (group.toolMode !== undefined) {
      toolConfig ??= {};
      toolConfig.functionCallingConfig = { ...(toolConfig.functionCallingConfig ?? {}), mode: group.toolMode };
    }
    if (toolConfig !== undefined) config.toolConfig = toolConfig;
    if (otherTools.length > 0) config.tools = structuredClone(otherTools);
    const request = {
      model,
      prompt: c.exchanges[group.start - 1].user,
      messages: history,
      tools,
      config,
      maxTurns: group.size - 1, // the tool rounds the case scripts after this prompt
      use: [observe],
    };
    if (options.system_instruction !== undefined && history.length === 0) {
      request.system = options.system_instruction;
    }
    current = group.start;
    const last = group.start + group.size - 1;
    let response;
    try {
      if (group.streamed) {
        const { stream, response: pending } = ai.generateStream(request);
        pending.catch(() => {});
        try {
          for await (const _chunk of stream) { /* the chunks; the response is what counts */ }
        } finally {
          response = await pending;
        }
      } else {
        response = await ai.generate(request);
      }
    } catch (error) {
      const seen = current - 1; // the last exchange whose answer Genkit parsed
      if (stopped !== undefined || error instanceof StopLoop) {
        report.exchanges.length = stopped.exchange;
        report.stopped = stopped;
        return report;
      }
      // maxTurns: the loop ended on calls the case answers no more (the last scripted answer).
      if (error?.constructor?.name === 'GenerationResponseError' && error.status === 'ABORTED' &&
          seen === last && report.exchanges[last - 1]?.response_parsed) {
        history = error.detail?.response?.messages ?? history;
        continue;
      }
      console.error(error);
      const code = /^[A-Za-z0-9_.:$-]{1,64}$/.test(error?.constructor?.name ?? '') ? error.constructor.name : 'Error';
      report.refusal = { code, message: `Genkit raised ${code}` };
      return report;
    }
    const seen = current - 1;
    if (seen < last) {
      // Genkit's loop ended before the case's: the answer of `seen` held no call Genkit runs.
      const exchange = c.exchanges[seen - 1];
      report.exchanges.length = seen;
      report.stopped = { exchange: seen, reason: `Genkit parsed ${report.exchanges[seen - 1]?.calls.length ?? 0} calls, so its loop ended before the selectors of ${resultsOf(exchange).length} results` };
      return report;
    }
    history = response.messages;
  }
  return report;
}

// ---------------------------------------------------------------------------------------------
// The protocol loop: one case at a time

async function handle(message) {
  if (message.type === 'start') {
    if (message.reply_fd === 3) {
      try {
        fstatSync(3);
        replyFd = 3;
      } catch {
        replyFd = 1;
      }
    }
    send({
      type: 'hello',
      protocol: 2,
      name: `genkit-js-${MODE}`,
      version: `${GENKIT_VERSION} (@genkit-ai/google-genai ${PLUGIN_VERSION})`,
      language: 'JavaScript',
      capabilities: ['streaming', 'stream-capture'],
    });
  } else if (message.type === 'run_case') {
    let reply;
    try {
      reply = await runCase(message);
    } catch (error) {
      console.error(error);
      reply = { type: 'errored', context: `driver failure: ${error?.name ?? 'unknown'}` };
    }
    send({ ...reply, seq: message.seq });
  } else if (message.type === 'stop') {
    return true;
  }
  return false;
}

const finish = () => {
  if (replyFd === 1) process.stdout.write('', () => process.exit(0));
  else process.exit(0);
};
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve(false);
lines.on('line', (line) => {
  if (line.trim() === '') return;
  queue = queue.then(async (stopped) => stopped || handle(JSON.parse(line))).then((stopped) => {
    if (stopped) {
      lines.close();
      finish();
    }
    return stopped;
  }, (error) => {
    console.error(error);
    process.exit(1);
  });
});
lines.on('close', () => {
  queue.then(finish);
});

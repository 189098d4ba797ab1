#!/usr/bin/env node
// The Vercel AI SDK 4 (`ai` 4.3.19 with `@ai-sdk/google` 1.2.22) behind the driver protocol
// (fixtures/INTERPRETING.md §15, protocol 2).
//
//   node drivers/ai-sdk-4/driver.mjs --mode loop
//
// The application, written the way the AI SDK 4 documentation shows: a Google provider made with
// createGoogleGenerativeAI({ baseURL: <base_url>/v1beta, apiKey }), every functionDeclarations
// entry of the case's tools a tool({ description, parameters: jsonSchema(...), execute }), and
// one SDK call per prompt: generateText, or streamText when that exchange is streamed, with
// maxSteps set to the number of requests the case scripts for that prompt (the prompt's request
// and one per tool round after it), so that the SDK runs the tool loop itself. The conversation
// lives in a messages array: the prompt is appended as a user message, and after each call the
// SDK's own response.messages (its assistant and tool messages). Tool modes are the SDK's
// toolChoice ('auto', 'required', 'none', { type: 'tool', toolName }); a mode that changes
// inside one generateText loop is given per step with experimental_prepareStep. maxRetries is 0:
// the application allows the SDK as many requests as the case scripts, no retries.
//
// Where the application decides, it does what ADR-224 and ADR-226 ask: a tool's execute returns
// the case's result as a value (a JSON result as it is, a text result as the string, an error
// result as { error: text }); the provider itself wraps every result as
// functionResponse.response = { name, content: <that value> }, so the value sits nested inside an
// object root the SDK owns, where ADR-224 wants a list kept a list. Public ids are the SDK's
// toolCallId (the provider generates one for every call; it never reads a native id).
//
// Which result an execute returns is looked up from run_case alone (§15.2): the exchange's
// `calls` (parse order) and `selected`. A call handed to execute is matched to the case's calls
// by name, then by arguments (ADR-226.8 equality), then by order among the same name; the case
// result whose selector picks that call is returned, and a neutral { error: 'no result for this
// call' } (left out of `answered`) for any other call (one the server answered in its own
// content: the SDK hands those to the tools too). The exchange a call belongs to is the number
// of model calls the SDK has made, counted with a language model middleware (transformParams,
// wrapLanguageModel): it sees the request parameters before each model call and nothing of the
// network. The same hook stops the loop before the next request when the SDK's calls did not
// take every result of the exchange (it lost a call a selector picks): the report then says
// `stopped` (§5.4).
//
// Capabilities: streaming and stream-capture (streamText's response.messages carry the streamed
// turn into later requests exactly as generateText's do). No carried-state or persistence (the
// application starts every conversation empty and keeps it in memory), no approvals, no
// snapshots, no typed-errors: a refusal's code is the class of the error the SDK raised
// (APICallError, TypeValidationError, NoSuchToolError, ...), and it names no exchange or phase
// (the SDK does not say where it failed; the oracle places it from the journal).
//
// What one SDK loop per prompt cannot do is skipped with the reason: non-function tools (code
// execution), tool configs other than a mode and one allowed function, a step with neither a
// prompt nor tool results, a loop that mixes streamed and whole answers, a streamed loop whose
// tool mode changes, and a call left without a result before a later request (the SDK runs
// every call of a step and sends every answer; only a one-request prompt can leave its calls
// unanswered, with tools that have no execute).
//
// Protocol lines go to descriptor 3 when the oracle names it (reply_fd) and it is open, else to
// standard output; console.log/info/debug write to standard error.

import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from 'ai';
import { createGoogleGenerativeAI } from '@ai-sdk/google';

for (const name of ['log', 'info', 'debug', 'dir', 'table']) console[name] = console.error.bind(console);

const MODE = (() => {
  const at = process.argv.indexOf('--mode');
  const mode = at >= 0 ? process.argv[at + 1] : 'loop';
  if (mode !== 'loop') {
    console.error('usage: node driver.mjs [--mode loop]');
    process.exit(2);
  }
  return mode;
})();

const versionOf = (pkg) => JSON.parse(fs.readFileSync(
  new URL(`./node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
const AI_VERSION = versionOf('ai');
const GOOGLE_VERSION = versionOf('@ai-sdk/google');

let out = process.stdout;
function send(message) {
  out.write(`${JSON.stringify(message)}\n`);
}

// ---------------------------------------------------------------------------------------------
// The case's `then` (§5.4)

const resultsOf = (exchange) => exchange?.then?.results ?? [];

/// ADR-226.8: recursive, kind-strict but for numbers, object member order free. JSON.parse
/// already made every number a double, so equal values are equal numbers.
function sameValue(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

/// What the application's tool returns for a case result: the JSON value as it is, the text as a
/// string, an error as { error: text }. The provider puts it under `content` of its own
/// { name, content } functionResponse.response.
function valueOf(result) {
  if (Object.hasOwn(result, 'error')) return { error: result.error };
  if (Object.hasOwn(result, 'text')) return result.text;
  return result.json;
}

const NO_RESULT = () => ({ error: 'no result for this call' });

// ---------------------------------------------------------------------------------------------
// What the application can express

/// A Gemini Schema (`parameters`, OBJECT/STRING/... types) as the JSON Schema the SDK takes.
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

const SETTINGS = {
  temperature: 'temperature', topP: 'topP', topK: 'topK', maxOutputTokens: 'maxTokens',
  stopSequences: 'stopSequences', seed: 'seed', presencePenalty: 'presencePenalty',
  frequencyPenalty: 'frequencyPenalty',
};

/// The SDK's toolChoice for a Gemini function calling config, or a reason it has none.
function toolChoiceOf(toolConfig, toolMode) {
  if (toolConfig === undefined && toolMode === undefined) return { choice: undefined };
  const fcc = { ...(toolConfig?.functionCallingConfig ?? {}) };
  if (toolMode !== undefined) fcc.mode = toolMode;
  const allowed = fcc.allowedFunctionNames;
  const others = Object.keys(fcc).filter((k) => k !== 'mode' && k !== 'allowedFunctionNames');
  if (others.length > 0) return { why: 'the SDK sets only a mode and one allowed function' };
  if (allowed !== undefined) {
    if (fcc.mode === 'ANY' && Array.isArray(allowed) && allowed.length === 1) {
      return { choice: { type: 'tool', toolName: allowed[0] } };
    }
    return { why: 'the SDK allows one function only with mode ANY' };
  }
  switch (fcc.mode) {
    case 'AUTO': return { choice: 'auto' };
    case 'ANY': return { choice: 'required' };
    case 'NONE': return { choice: 'none' };
    default: return { why: 'the SDK has no toolChoice for this function calling config' };
  }
}

/// The prompts of the case: each exchange with a prompt starts one SDK call, and the exchanges
/// after it without one are its tool rounds. Returns the groups or the reason one SDK loop per
/// prompt cannot run the case.
function plan(c) {
  const options = c.options ?? {};
  for (const entry of options.tools ?? []) {
    const keys = Object.keys(entry ?? {});
    if (keys.some((k) => k !== 'functionDeclarations')) {
      return 'the SDK declares function tools only: no code execution or other server-side tool';
    }
  }
  const names = (options.tools ?? []).flatMap((entry) => (entry.functionDeclarations ?? []).map((d) => d?.name));
  if (names.some((n) => typeof n !== 'string') || new Set(names).size !== names.length) {
    return 'the SDK keys its tools by function name: a nameless or repeated declaration';
  }
  if (options.system_instruction !== undefined && typeof options.system_instruction !== 'string') {
    return 'the SDK takes a system prompt as text only';
  }
  const gc = options.generation_config ?? {};
  if (Object.keys(gc).some((k) => !Object.hasOwn(SETTINGS, k))) {
    return 'the SDK has no setting for a generation config member';
  }
  const exchanges = c.exchanges;
  const groups = [];
  for (let k = 0; k < exchanges.length; ++k) {
    const exchange = exchanges[k];
    const chosen = toolChoiceOf(options.tool_config, exchange.tool_mode);
    if (chosen.why) return chosen.why;
    if (exchange.user !== undefined) {
      groups.push({ start: k + 1, size: 1, streamed: exchange.streamed, choices: [chosen.choice] });
    } else {
      if (k === 0 || resultsOf(exchanges[k - 1]).length === 0) {
        return 'a step with neither a prompt nor function answers: the SDK cannot send it';
      }
      const group = groups[groups.length - 1];
      if (exchange.streamed !== group.streamed) {
        return 'one SDK loop runs over SSE or not at all, yet here a loop mixes both';
      }
      group.size += 1;
      group.choices.push(chosen.choice);
    }
  }
  for (const group of groups) {
    const varies = group.choices.some((choice) => JSON.stringify(choice) !== JSON.stringify(group.choices[0]));
    if (varies && group.streamed) {
      return 'the tool mode changes inside one SDK loop and the SDK cannot follow it here';
    }
    group.varies = varies;
    // Every call of a step the SDK runs gets an answer in the next request: a pending call
    // without a result is possible only before a new prompt after a one-request call, whose
    // tools then have no execute (the SDK leaves their calls to the application).
    group.executeLess = false;
    for (let k = group.start; k < group.start + group.size; ++k) {
      if (k === exchanges.length) break; // the case's last answer: its answers are never sent
      const exchange = exchanges[k - 1];
      const pending = (exchange.calls ?? []).map((call, i) => (call.answered_inside ? -1 : i)).filter((i) => i >= 0);
      const selected = new Set(exchange.selected?.results ?? []);
      const unanswered = pending.filter((i) => !selected.has(i));
      if (unanswered.length === 0) continue;
      if (group.size === 1 && resultsOf(exchange).length === 0) {
        group.executeLess = true;
        continue;
      }
      return 'the SDK answers every call it runs, yet here a call stays unanswered before a later request';
    }
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------
// One case

class StopLoop extends Error {
  constructor() {
    super('the application stopped the SDK loop');
    this.name = 'StopLoop';
  }
}

/// A refusal: the class of the error the SDK raised, and a message that says only that (the
/// oracle judges refusal messages for leaks, ADR-226.19; the SDK's own texts quote the body).
/// No phase or exchange: the SDK does not say where it failed.
function refusal(error) {
  let code = typeof error?.constructor?.name === 'string' && error.constructor.name !== ''
    ? error.constructor.name : String(error?.name ?? 'Error');
  if (code === 'Error' && typeof error?.name === 'string' && error.name !== '') code = error.name;
  if (!/^[A-Za-z0-9_.:$-]{1,64}$/.test(code)) code = 'Error';
  return { code, message: `the SDK raised ${code}` };
}

async function runCase(c) {
  const groups = plan(c);
  if (typeof groups === 'string') return { type: 'skipped', reason: groups };
  const options = c.options ?? {};
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };

  // The exchange whose request the SDK is making (1-based): model calls counted before each.
  let current = 0;
  let stopAt; // set when the SDK's calls did not take every result of an exchange
  let failed = false; // a stream reported an error: no further request
  const turns = new Map(); // exchange -> { handed: [...], taken: Set of case call indices, answered: Set }
  const turn = (k) => {
    if (!turns.has(k)) turns.set(k, { handed: [], taken: new Set(), given: new Set(), finished: undefined });
    return turns.get(k);
  };
  /// Whether every result of exchange k went to a call the SDK handed to a tool.
  const complete = (k) => resultsOf(c.exchanges[k - 1]).every((_, r) => turn(k).given.has(r));
  const checkBefore = async (streamed) => {
    // A streamed step's error part reaches the application a few promise jobs after the SDK
    // emits it: let it arrive before deciding on the next request.
    if (streamed && current > 0) await new Promise((resolve) => setImmediate(resolve));
    if (failed) throw new StopLoop();
    if (current > 0 && !complete(current)) {
      stopAt = current;
      throw new StopLoop();
    }
    current += 1;
    while (report.exchanges.length < current) {
      report.exchanges.push({ request_built: true, response_parsed: false, calls: [], answered: [] });
    }
  };

  const provider = createGoogleGenerativeAI({ baseURL: `${c.base_url}/v1beta`, apiKey: 'test' });
  const model = wrapLanguageModel({
    model: provider(c.model ?? 'gemini-2.5-flash'),
    middleware: {
      transformParams: async ({ params, type }) => {
        await checkBefore(type === 'stream');
        return params;
      },
    },
  });

  /// The case result for a call the SDK handed to a tool of exchange k, looked up among the
  /// exchange's calls by name, arguments and order (§15.2).
  const answer = (k, name, args, toolCallId) => {
    const t = turn(k);
    t.handed.push({ id: toolCallId, name, arguments: args ?? {} });
    const exchange = c.exchanges[k - 1];
    const calls = exchange?.calls ?? [];
    const named = calls.map((call, i) => ({ call, i })).filter(({ call, i }) => call.name === name && !t.taken.has(i));
    const match = named.find(({ call }) => sameValue(call.args ?? {}, args ?? {})) ?? named[0];
    if (match === undefined) return NO_RESULT();
    t.taken.add(match.i);
    if (match.call.answered_inside) return NO_RESULT();
    const selected = exchange.selected?.results ?? [];
    const r = selected.findIndex((index, at) => index === match.i && !t.given.has(at));
    if (r < 0) return NO_RESULT();
    t.given.add(r);
    report.exchanges[k - 1].answered.push({ result: r, call: toolCallId });
    return valueOf(resultsOf(exchange)[r]);
  };

  const toolsFor = (group) => {
    const tools = {};
    for (const entry of options.tools ?? []) {
      for (const declaration of entry.functionDeclarations ?? []) {
        const schema = declaration.parametersJsonSchema ??
          (declaration.parameters !== undefined ? jsonSchemaOf(declaration.parameters) : { type: 'object', properties: {} });
        const name = declaration.name;
        tools[name] = tool({
          description: declaration.description,
          parameters: jsonSchema(schema),
          ...(group.executeLess ? {} : {
            execute: async (args, { toolCallId }) => answer(current, name, args, toolCallId),
          }),
        });
      }
    }
    return Object.keys(tools).length > 0 ? tools : undefined;
  };

  const settings = {};
  for (const [key, value] of Object.entries(options.generation_config ?? {})) settings[SETTINGS[key]] = value;

  const messages = [];
  for (const group of groups) {
    messages.push({ role: 'user', content: c.exchanges[group.start - 1].user });
    const tools = toolsFor(group);
    const steps = [];
    const call = {
      model,
      ...settings,
      ...(options.system_instruction !== undefined ? { system: options.system_instruction } : {}),
      ...(tools ? { tools } : {}),
      // A mode that changes inside the loop is given per step (no toolChoice of the call's own,
      // so a step without a mode sends none).
      ...(group.varies
        ? { experimental_prepareStep: async ({ stepNumber }) => ({ toolChoice: group.choices[stepNumber] }) }
        : group.choices[0] !== undefined ? { toolChoice: group.choices[0] } : {}),
      messages: [...messages],
      maxSteps: group.size,
      maxRetries: 0,
      onStepFinish: (step) => { steps.push(step); },
    };
    let error;
    let responseMessages;
    try {
      if (group.streamed) {
        const result = streamText({ ...call, onError: () => {} });
        for await (const part of result.fullStream) {
          if (part.type === 'error' && error === undefined) {
            error = part.error;
            // The application gives up on an error part: no further request.
            if (!(error instanceof StopLoop)) failed = true;
          }
        }
        if (error === undefined) responseMessages = (await result.response).messages;
      } else {
        responseMessages = (await generateText(call)).response.messages;
      }
    } catch (thrown) {
      error ??= thrown;
    }
    // The calls the SDK parsed, exchange by exchange: a finished step's public tool calls, else
    // those it handed to the tools.
    for (let k = group.start; k <= Math.min(current, group.start + group.size - 1); ++k) {
      const step = steps[k - group.start];
      const er = report.exchanges[k - 1];
      er.calls = step ? step.toolCalls.map((tc) => ({ id: tc.toolCallId, name: tc.toolName, arguments: tc.args ?? {} }))
        : turn(k).handed;
      er.response_parsed = step !== undefined;
    }
    if (stopAt !== undefined) {
      report.exchanges.length = stopAt;
      report.stopped = { exchange: stopAt, reason: 'a result selector picks no call the SDK handed to the tools' };
      return report;
    }
    if (error !== undefined) {
      report.refusal = refusal(error);
      return report;
    }
    if (!complete(current)) {
      report.stopped = { exchange: current, reason: 'a result selector picks no call the SDK handed to the tools' };
      return report;
    }
    messages.push(...responseMessages);
    // The model ended the loop before the case's last round: the conversation the case scripts
    // is over for this application.
    if (current < group.start + group.size - 1) return report;
  }
  return report;
}

// ---------------------------------------------------------------------------------------------
// The protocol loop: one case at a time

async function handle(message) {
  if (message.type === 'start') {
    if (message.reply_fd === 3) {
      try {
        fs.fstatSync(3);
        out = fs.createWriteStream(null, { fd: 3 });
      } catch {
        out = process.stdout;
      }
    }
    send({
      type: 'hello',
      protocol: 2,
      name: 'vercel-ai-sdk-4',
      version: `${AI_VERSION}+google.${GOOGLE_VERSION}`,
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

const finish = () => out.write('', () => process.exit(0));
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

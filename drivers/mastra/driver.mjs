#!/usr/bin/env node
// Mastra (@mastra/core) behind the driver protocol (fixtures/INTERPRETING.md §15).
//
//   node drivers/mastra/driver.mjs --mode agent
//
// The application: one Mastra `Agent` whose model is the AI SDK Google provider,
// `createGoogleGenerativeAI({ baseURL: <base_url>/v1beta, apiKey })(model)`, and whose tools are
// made with `createTool`, one per function declaration of the case. Each user prompt is one
// `agent.generate(messages, { maxSteps })` (`agent.stream` when the prompt's answers are streamed)
// where `messages` is the conversation so far (the application keeps it as a plain list: the
// prompts and every `response.messages` Mastra returned) and `maxSteps` is the number of
// requests the case scripts for that prompt; Mastra runs the tool rounds itself, calling the
// tools' `execute`. No memory, no storage, no Mastra instance: the conversation lives in memory.
//
// The driver is that application, written from Mastra's documentation; what reaches the wire is
// Mastra's and the AI SDK provider's. Where the application decides, it does what ADR-224 and
// ADR-226 ask: a tool returns the case's result value as it is (JSON value, text) and throws an
// Error with the text of an error result; the input schema is the declaration's JSON schema
// converted to zod (Mastra's `createTool` takes zod), objects kept open (`.passthrough()`, JSON
// Schema's default) so that Mastra's validation hands tools every member the model sent.
// The model's retries are turned off (`modelSettings.maxRetries: 0`): the corpus scripts one
// answer per request.
//
// Capabilities: streaming and stream-capture (the messages Mastra returns from `agent.stream`
// are carried into the next prompt like any other). No carried-state (Mastra cannot load a
// transcript with another adapter's capsules), persistence, approvals, typed-errors (refusal
// codes are the error class names) or snapshots. Refusals carry no exchange or phase: Mastra
// does not say where it failed, so the oracle places them from the journal.
//
// Judged under profile gemini (driver.json): the provider wraps every result as {name, content}.
//
// Only protocol lines go to descriptor 3 (or standard output when 3 is not open); console.log,
// info and debug (Mastra's console logger among them) are sent to standard error, and Mastra's
// telemetry is disabled (`telemetry: { isEnabled: false }` on every call, no Mastra instance, no
// exporter).

import fs from 'node:fs';
import { createInterface } from 'node:readline';

for (const name of ['log', 'info', 'debug', 'dir', 'table', 'warn']) console[name] = console.error.bind(console);
process.env.MASTRA_TELEMETRY_DISABLED ??= 'true';
globalThis.___MASTRA_TELEMETRY___ = false;

const { Agent } = await import('@mastra/core/agent');
const { createTool } = await import('@mastra/core/tools');
const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
const { z } = await import('zod');

const MODE = (() => {
  const at = process.argv.indexOf('--mode');
  const mode = at >= 0 ? process.argv[at + 1] : 'agent';
  if (mode !== 'agent') {
    console.error('usage: node driver.mjs --mode agent');
    process.exit(2);
  }
  return mode;
})();

const versionOf = (name) => JSON.parse(fs.readFileSync(
  new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
const MASTRA_VERSION = versionOf('@mastra/core');
const GOOGLE_VERSION = versionOf('@ai-sdk/google');

let out = (line) => process.stdout.write(line);
function send(message) {
  out(`${JSON.stringify(message)}\n`);
}

// ---------------------------------------------------------------------------------------------
// The case's `then` (§5.4, §15.2)

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

/// What the application's tool gives back for a case result: the JSON value as it is, the text
/// as a string; an error result is thrown as an Error (Mastra's documented way for a tool to fail).
class ToolFailure extends Error {
  constructor(message) {
    super(message);
    this.name = 'ToolFailure';
  }
}
function toolAnswer(result) {
  if (Object.hasOwn(result, 'error')) throw new ToolFailure(String(result.error));
  if (Object.hasOwn(result, 'text')) return result.text;
  return result.json;
}

// ---------------------------------------------------------------------------------------------
// Tools: the declarations' JSON schemas as zod (createTool takes zod)

/// JSON Schema (or the OpenAPI subset of `parameters`, upper-case types) to zod: objects stay
/// open (JSON Schema's default) unless additionalProperties is false, a property not required is
/// optional, an untyped schema takes anything.
function toZod(schema) {
  if (schema === true || schema === undefined || schema === null || typeof schema !== 'object') return z.any();
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => String(t).toLowerCase() !== 'null') ?? type[0];
  type = typeof type === 'string' ? type.toLowerCase() : undefined;
  let result;
  switch (type) {
    case 'object': {
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      const shape = {};
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        const member = toZod(value);
        shape[key] = required.has(key) ? member : member.optional();
      }
      result = z.object(shape);
      result = schema.additionalProperties === false ? result.strict() : result.passthrough();
      break;
    }
    case 'array':
      result = z.array(schema.items !== undefined ? toZod(schema.items) : z.any());
      break;
    case 'string': {
      let s = z.string();
      if (typeof schema.pattern === 'string') s = s.regex(new RegExp(schema.pattern));
      result = Array.isArray(schema.enum) && schema.enum.length > 0 ? z.enum(schema.enum.map(String)) : s;
      break;
    }
    case 'integer':
      result = z.number().int();
      break;
    case 'number':
      result = z.number();
      break;
    case 'boolean':
      result = z.boolean();
      break;
    case 'null':
      result = z.null();
      break;
    default:
      result = z.any();
  }
  if (typeof schema.description === 'string') result = result.describe(schema.description);
  if (schema.nullable === true) result = result.nullable();
  return result;
}

// ---------------------------------------------------------------------------------------------
// One case

function skipped(reason) {
  return { type: 'skipped', reason };
}

function exchangeReport() {
  return { request_built: false, response_parsed: false, calls: [], answered: [] };
}

/// The prompts of the case as groups: one generate/stream call per user prompt, running the tool
/// rounds after it. What one agent call cannot do, the application cannot either.
function groupsOf(c) {
  const groups = [];
  const exchanges = c.exchanges;
  for (let k = 0; k < exchanges.length; ++k) {
    const exchange = exchanges[k];
    const prev = k > 0 ? exchanges[k - 1] : undefined;
    const answered = prev !== undefined && resultsOf(prev).length > 0;
    if (prev !== undefined) {
      const pending = (prev.calls ?? []).filter((call) => !call.answered_inside).length;
      const given = new Set((prev.selected?.results ?? []).filter((i) => i !== null)).size;
      // Mastra runs every call of a turn (also after its last step) and sends every answer
      // with the next request.
      if (given < pending) {
        return 'the agent loop answers every function invocation, yet here some stay without a result';
      }
    }
    if (exchange.user !== undefined) {
      groups.push({ start: k + 1, size: 1, streamed: exchange.streamed });
      continue;
    }
    if (!answered) {
      return 'a step with neither a prompt nor function answers: an agent call cannot send it';
    }
    const group = groups[groups.length - 1];
    if (exchange.streamed !== group.streamed) {
      return 'an agent call runs a whole loop streamed or none of it, yet here a loop mixes both';
    }
    group.size += 1;
  }
  return groups;
}

function toolChoiceOf(options, toolMode) {
  const fcc = options.tool_config?.functionCallingConfig ?? options.tool_config?.function_calling_config;
  const mode = toolMode ?? fcc?.mode;
  const allowed = fcc?.allowedFunctionNames ?? fcc?.allowed_function_names;
  if (mode === undefined) return undefined;
  if (mode === 'NONE') return 'none';
  if (mode === 'AUTO') return 'auto';
  if (mode === 'ANY') {
    if (Array.isArray(allowed) && allowed.length === 1) return { type: 'tool', toolName: allowed[0] };
    if (Array.isArray(allowed) && allowed.length > 1) return null; // not expressible
    return 'required';
  }
  return null;
}

/// generationConfig members the AI SDK takes as call settings; the rest is not expressible.
const SETTINGS = {
  temperature: 'temperature', topP: 'topP', topK: 'topK', maxOutputTokens: 'maxOutputTokens',
  stopSequences: 'stopSequences', presencePenalty: 'presencePenalty',
  frequencyPenalty: 'frequencyPenalty', seed: 'seed',
};

async function runCase(c) {
  if ((c.transcript ?? []).length > 0) return skipped('needs a carried transcript (carried-state)');
  const options = c.options ?? {};
  const groups = groupsOf(c);
  if (typeof groups === 'string') return skipped(groups);
  if (options.system_instruction !== undefined && typeof options.system_instruction !== 'string') {
    return skipped('a structured system instruction: the agent takes instructions as text');
  }
  const modelSettings = { maxRetries: 0 };
  for (const [key, value] of Object.entries(options.generation_config ?? {})) {
    if (!Object.hasOwn(SETTINGS, key)) return skipped(`generation config member ${key}: no agent setting sends it`);
    modelSettings[SETTINGS[key]] = value;
  }
  for (const [k, exchange] of c.exchanges.entries()) {
    if (toolChoiceOf(options, exchange.tool_mode) === null) {
      return skipped(`tool config of step ${k + 1}: no agent tool choice sends it`);
    }
  }

  const google = createGoogleGenerativeAI({ baseURL: `${c.base_url}/v1beta`, apiKey: 'test' });
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };
  const open = (k) => {
    while (report.exchanges.length < k) report.exchanges.push(exchangeReport());
    return report.exchanges[k - 1];
  };

  // The exchange whose calls the tools are answering (set by the agent call's step count), and
  // per exchange which of the case's calls were already handed to a tool.
  let current = 1;
  const claimed = new Map(); // exchange -> Set of indices into calls
  const execute = (name) => async ({ context }, execOptions) => {
    const k = current;
    const exchange = c.exchanges[k - 1];
    const calls = exchange?.calls ?? [];
    if (!claimed.has(k)) claimed.set(k, new Set());
    const taken = claimed.get(k);
    const free = calls.map((call, i) => i).filter((i) => !calls[i].answered_inside &&
      calls[i].name === name && !taken.has(i));
    // By name and arguments, by order among identical calls; else by name in order (the
    // framework hands tools arguments after its own validation).
    const index = free.find((i) => sameValue(calls[i].args ?? {}, context ?? {})) ?? free[0];
    if (index === undefined) return { error: 'no result for this call' };
    taken.add(index);
    const r = (exchange.selected?.results ?? []).indexOf(index);
    if (r < 0) return { error: 'no result for this call' };
    open(k).answered.push({ result: r, call: String(execOptions?.toolCallId ?? '') });
    return toolAnswer(resultsOf(exchange)[r]);
  };

  const tools = {};
  for (const entry of options.tools ?? []) {
    if (Array.isArray(entry?.functionDeclarations)) {
      for (const declaration of entry.functionDeclarations) {
        const schema = declaration.parametersJsonSchema ?? declaration.parameters ?? { type: 'object', properties: {} };
        tools[declaration.name] = createTool({
          id: declaration.name,
          description: declaration.description ?? '',
          inputSchema: toZod(schema),
          execute: execute(declaration.name),
        });
      }
    } else if (entry && typeof entry === 'object' && Object.hasOwn(entry, 'codeExecution')) {
      tools.code_execution = google.tools.codeExecution({});
    } else if (entry && typeof entry === 'object' && Object.hasOwn(entry, 'googleSearch')) {
      tools.google_search = google.tools.googleSearch({});
    } else {
      return skipped('a tool kind the Google provider has no tool for');
    }
  }

  const agent = new Agent({
    name: 'oracle-agent',
    instructions: options.system_instruction ?? '',
    model: google(c.model ?? 'gemini-2.5-flash'),
    tools,
  });

  const messages = [];
  for (const group of groups) {
    const first = c.exchanges[group.start - 1];
    messages.push({ role: 'user', content: first.user });
    current = group.start;
    const stepsDone = [];
    const callOptions = {
      maxSteps: group.size,
      modelSettings,
      telemetry: { isEnabled: false },
      onStepFinish: (step) => {
        stepsDone.push(step);
        current = group.start + stepsDone.length;
      },
      prepareStep: ({ stepNumber }) => {
        const choice = toolChoiceOf(options, c.exchanges[group.start - 1 + stepNumber]?.tool_mode);
        return choice === undefined ? {} : { toolChoice: choice };
      },
    };
    const choice = toolChoiceOf(options, first.tool_mode);
    if (choice !== undefined) callOptions.toolChoice = choice;
    let output;
    let error;
    try {
      if (group.streamed) {
        const stream = await agent.stream([...messages], callOptions);
        output = await stream.getFullOutput();
      } else {
        output = await agent.generate([...messages], callOptions);
      }
      error = output?.error;
    } catch (e) {
      error = e;
    }
    const steps = output?.steps ?? stepsDone;
    for (const [i, step] of steps.entries()) {
      const er = open(group.start + i);
      er.request_built = er.response_parsed = true;
      // The calls the application answers: a provider-executed call (code execution) is none.
      er.calls = (step.toolCalls ?? []).map((chunk) => chunk?.payload ?? chunk)
        .filter((call) => call?.providerExecuted !== true).map((call) => {
        return { id: String(call.toolCallId), name: String(call.toolName ?? ''), arguments: call.args ?? call.input ?? {} };
      });
    }
    if (error !== undefined && error !== null) {
      let code = typeof error?.name === 'string' && error.name !== '' ? error.name : 'Error';
      if (!/^[A-Za-z0-9_.:$-]{1,64}$/.test(code)) code = 'Error';
      report.exchanges.length = Math.min(report.exchanges.length, steps.length + group.start - 1);
      report.refusal = { code, message: `Mastra raised ${code}` };
      return report;
    }
    messages.push(...(output?.response?.messages ?? []));
    const reached = group.start + steps.length - 1;
    if (reached < group.start + group.size - 1) return report; // the model stopped calling tools
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
        const channel = fs.createWriteStream(null, { fd: 3 });
        out = (line) => channel.write(line);
      } catch {
        // descriptor 3 is not open: standard output is the channel
      }
    }
    send({
      type: 'hello',
      protocol: 2,
      name: `mastra-${MODE}`,
      version: `${MASTRA_VERSION}+ai-sdk-google-${GOOGLE_VERSION}`,
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

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve(false);
const finish = () => {
  out('');
  setImmediate(() => process.exit(0));
};
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

#!/usr/bin/env node
// The Vercel AI SDK (`ai` with the `@ai-sdk/google` provider) behind the driver protocol
// (fixtures/INTERPRETING.md §15).
//
//   node drivers/ai-sdk/driver.mjs --mode loop
//
// The application: createGoogleGenerativeAI({ baseURL: <base_url>/v1beta, apiKey }), every
// function declaration of the case's tools an AI SDK `tool({ inputSchema: jsonSchema(...),
// execute })`, and one generateText call per prompt (streamText when the prompt's exchanges are
// streamed) that lets the SDK run the tool loop after it: `stopWhen: stepCountIs(n)`, n the
// requests the case scripts for that prompt, `prepareStep` giving each step its tool mode as
// `toolChoice`. The history is the SDK's own: a messages array, the prompt appended as a user
// message and `response.messages` appended after each call, as the SDK's multi-turn docs show.
// Tool results the SDK's loop does not send in the same call (the last step's) therefore go out
// with the next prompt, the SDK's way.
//
// What reaches the wire is the SDK's: it renders the declarations, the tool config, the replayed
// turns and the functionResponse (it wraps every tool result as {name, content}). Where the
// application decides it does what ADR-224 and ADR-226 ask: each tool function returns the case's
// result for the call it is handed, looked up in the exchange's `calls`/`selected` (by name and
// arguments, identical calls in order) without reading the wire; an error result is thrown, the
// SDK's documented way to report a tool failure; retries are off (one request per scripted
// answer). Capabilities: streaming and stream-capture (streamText's response messages carry the
// streamed turn into later requests). No carried-state (the SDK cannot load native Gemini
// contents), no persistence or approvals, no typed-errors (refusal codes are the SDK's error
// class names), no snapshots.
//
// Protocol lines go to descriptor 3 when `start` names it and it is open, else to standard
// output; console.log/info/debug are routed to standard error either way.

import { readFileSync, fstatSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { generateText, streamText, tool, jsonSchema, stepCountIs } from 'ai';
import { createGoogleGenerativeAI } from '@ai-sdk/google';

for (const name of ['log', 'info', 'debug', 'dir', 'table']) console[name] = console.error.bind(console);
globalThis.AI_SDK_LOG_WARNINGS = false; // the SDK's warnings would only be noise on stderr

const MODE = (() => {
  const at = process.argv.indexOf('--mode');
  const mode = at >= 0 ? process.argv[at + 1] : 'loop';
  if (mode !== 'loop') {
    console.error('usage: node driver.mjs --mode loop');
    process.exit(2);
  }
  return mode;
})();

const versionOf = (pkg) => JSON.parse(readFileSync(
  new URL(`./node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
const AI_VERSION = versionOf('ai');
const GOOGLE_VERSION = versionOf('@ai-sdk/google');

let replyFd = 1;
function send(message) {
  const line = Buffer.from(`${JSON.stringify(message)}\n`, 'utf8');
  let off = 0;
  while (off < line.length) {
    try {
      off += writeSync(replyFd, line, off);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The case's `then` (§5.4), answered from `calls` and `selected` (§15.2)

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

/// The pending calls of an exchange (indices into its `calls`): those the server did not answer.
const pendingOf = (exchange) => (exchange.calls ?? [])
  .map((call, i) => (call.answered_inside ? -1 : i)).filter((i) => i >= 0);

class ToolResultError extends Error {}

/// What the application's tool function gives back for one case result: a JSON value as it is
/// (the SDK wraps it), a text as the string, an error thrown (the SDK sends its message as the
/// tool's error output).
function payloadOf(result) {
  if (Object.hasOwn(result, 'error')) throw new ToolResultError(String(result.error));
  if (Object.hasOwn(result, 'text')) return result.text;
  return result.json;
}
const NEUTRAL = () => ({ error: 'no result for this call' });

// ---------------------------------------------------------------------------------------------
// What one SDK loop per prompt can run

/// Groups of exchanges, one per prompt: the prompt's exchange and the tool rounds after it,
/// which the SDK's loop sends on its own. A string when the case needs what such an application
/// cannot do.
function groupsOf(c) {
  const groups = [];
  const exchanges = c.exchanges;
  for (let k = 0; k < exchanges.length; ++k) {
    const exchange = exchanges[k];
    if (k + 1 < exchanges.length) {
      const selected = new Set((exchange.selected?.results ?? []).filter((i) => i !== null));
      if (pendingOf(exchange).some((i) => !selected.has(i))) {
        return 'the SDK loop answers every function invocation it ran, yet here some stay unanswered before the next request';
      }
    }
    if (exchange.user !== undefined) {
      groups.push({ start: k + 1, size: 1, streamed: exchange.streamed });
      continue;
    }
    if (k === 0 || resultsOf(exchanges[k - 1]).length === 0) {
      return 'a step with neither a prompt nor function answers: the SDK loop cannot send it';
    }
    const group = groups[groups.length - 1];
    if (exchange.streamed !== group.streamed) {
      return 'one SDK loop is generateText or streamText, yet here a loop mixes streamed and whole answers';
    }
    group.size += 1;
  }
  return groups;
}

/// The AI SDK's toolChoice for one exchange: options.tool_config with the exchange's tool mode
/// on top (§5.2), as far as toolChoice can say it (auto, none, required, one named function).
function toolChoiceFor(options, toolMode) {
  const config = options.tool_config?.functionCallingConfig ?? options.tool_config?.function_calling_config;
  const mode = toolMode ?? config?.mode;
  if (mode === undefined) return undefined;
  const allowed = config?.allowedFunctionNames ?? config?.allowed_function_names;
  switch (mode) {
    case 'NONE': return 'none';
    case 'AUTO': return 'auto';
    case 'ANY':
    case 'VALIDATED':
      return Array.isArray(allowed) && allowed.length === 1 ? { type: 'tool', toolName: allowed[0] } : 'required';
    default: return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// One case

function refusal(error) {
  let code = error?.constructor?.name;
  if (typeof code !== 'string' || code === '' || code === 'Object') code = error?.name ?? 'Error';
  if (!/^[A-Za-z0-9_.:$-]{1,64}$/.test(code)) code = 'Error';
  // The SDK's messages quote the answer; the refusal says only what raised (ADR-226.19).
  return { code, message: `the SDK raised ${code}` };
}

function exchangeReport() {
  return { request_built: false, response_parsed: false, calls: [], answered: [] };
}

async function runCase(c) {
  if ((c.transcript ?? []).length > 0 || c.stored) {
    return { type: 'skipped', reason: 'the SDK cannot load a carried transcript' };
  }
  const groups = groupsOf(c);
  if (typeof groups === 'string') return { type: 'skipped', reason: groups };
  const options = c.options ?? {};
  const google = createGoogleGenerativeAI({ baseURL: `${c.base_url}/v1beta`, apiKey: 'test' });
  const model = google(c.model ?? 'gemini-2.5-flash');
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };
  const open = (k) => {
    while (report.exchanges.length < k) report.exchanges.push(exchangeReport());
    return report.exchanges[k - 1];
  };

  // The exchange whose answer the SDK is working on, set before each step (prepareStep).
  let current = 0;
  const handed = new Map(); // exchange -> Set of indices into its calls already handed
  const execute = (name) => async (input, { toolCallId }) => {
    const k = current;
    const exchange = c.exchanges[k - 1];
    const calls = exchange?.calls ?? [];
    if (!handed.has(k)) handed.set(k, new Set());
    const taken = handed.get(k);
    const free = calls.map((call, i) => i).filter((i) => calls[i].name === name && !taken.has(i));
    const i = free.find((j) => sameValue(calls[j].args ?? {}, input ?? {})) ?? free[0];
    if (i === undefined) return NEUTRAL();
    taken.add(i);
    if (calls[i].answered_inside) return NEUTRAL();
    const r = (exchange.selected?.results ?? []).indexOf(i);
    if (r < 0) return NEUTRAL();
    open(k).answered.push({ result: r, call: toolCallId });
    return payloadOf(resultsOf(exchange)[r]);
  };

  // Every function declaration of options.tools is a tool of the SDK; code execution is the
  // provider's tool. Other Gemini tools have no AI SDK form and are left out.
  const tools = {};
  for (const entry of options.tools ?? []) {
    for (const d of entry?.functionDeclarations ?? entry?.function_declarations ?? []) {
      if (typeof d?.name !== 'string') continue;
      const schema = d.parametersJsonSchema ?? d.parameters_json_schema ?? d.parameters ??
        { type: 'object', properties: {} };
      tools[d.name] = tool({
        ...(d.description !== undefined ? { description: d.description } : {}),
        inputSchema: jsonSchema(schema),
        execute: execute(d.name),
      });
    }
    if (entry?.codeExecution !== undefined || entry?.code_execution !== undefined) {
      tools.code_execution = google.tools.codeExecution({});
    }
  }

  const messages = [];
  for (const group of groups) {
    const first = c.exchanges[group.start - 1];
    messages.push({ role: 'user', content: first.user });
    const callOptions = {
      model,
      messages,
      maxRetries: 0,
      stopWhen: stepCountIs(group.size),
      prepareStep: ({ stepNumber }) => {
        current = group.start + stepNumber;
        open(current);
        const toolChoice = toolChoiceFor(options, c.exchanges[current - 1]?.tool_mode);
        return toolChoice === undefined ? {} : { toolChoice };
      },
      onStepFinish: (step) => {
        const k = group.start + step.stepNumber;
        const er = open(k);
        er.request_built = er.response_parsed = true;
        er.calls = step.content
          .filter((part) => part.type === 'tool-call' && !part.providerExecuted)
          .map((part) => ({ id: part.toolCallId, name: part.toolName, arguments: part.input ?? {} }));
      },
    };
    if (Object.keys(tools).length > 0) callOptions.tools = tools;
    if (options.system_instruction !== undefined) callOptions.system = options.system_instruction;
    let error;
    let response;
    if (group.streamed) {
      const result = streamText({ ...callOptions, onError: () => {} });
      try {
        for await (const part of result.fullStream) {
          if (part.type === 'error' && error === undefined) error = part.error;
        }
        if (error === undefined) response = await result.response;
      } catch (thrown) {
        error ??= thrown;
      }
    } else {
      try {
        response = (await generateText(callOptions)).response;
      } catch (thrown) {
        error = thrown;
      }
    }
    if (error !== undefined) {
      console.error(error);
      report.refusal = refusal(error);
      return report;
    }
    messages.push(...response.messages);
    const reached = report.exchanges.length;
    // A result whose call the SDK did not hand to the tools: its calls do not fit the case (it
    // lost or merged one), and the application stops there (§5.4, §15.2).
    for (let k = group.start; k <= reached; ++k) {
      const wanted = resultsOf(c.exchanges[k - 1]).length;
      if (report.exchanges[k - 1].answered.length < wanted) {
        report.stopped = { exchange: k, reason: `${wanted - report.exchanges[k - 1].answered.length} result(s) found no call the SDK handed over` };
        report.exchanges.length = k;
        return report;
      }
    }
    if (reached < group.start + group.size - 1) {
      // The SDK's loop ended before the case's: the conversation the case scripts is over.
      return report;
    }
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
      name: `vercel-ai-sdk-google-${MODE}`,
      version: `ai ${AI_VERSION} + @ai-sdk/google ${GOOGLE_VERSION}`,
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
lines.on('line', (line) => {
  if (line.trim() === '') return;
  queue = queue.then(async (stopped) => stopped || handle(JSON.parse(line))).then((stopped) => {
    if (stopped) {
      lines.close();
      process.exit(0);
    }
    return stopped;
  }, (error) => {
    console.error(error);
    process.exit(1);
  });
});
lines.on('close', () => {
  queue.then(() => process.exit(0));
});

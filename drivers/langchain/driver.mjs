#!/usr/bin/env node
// LangChain JS with Google's Gemini chat model, @langchain/google-genai's ChatGoogleGenerativeAI,
// behind the driver protocol (fixtures/INTERPRETING.md §15).
//
//   node drivers/langchain/driver.mjs --mode loop   the manual tool loop of LangChain's tool
//        calling documentation: new ChatGoogleGenerativeAI({model, apiKey, baseUrl, apiVersion}),
//        .bindTools(options.tools), one invoke(messages, {tool_choice, allowedFunctionNames}) per
//        exchange (stream(...) with the chunks concatenated for an exchange whose answer is
//        streamed), the AIMessage appended to the history, its tool_calls answered with
//        ToolMessage({tool_call_id, name, content}) in the order then.results lists them, and
//        the next prompt as a HumanMessage after them. The history is the message list.
//
// The driver is that application; what reaches the wire is LangChain's (the package renders
// messages into Gemini contents with @google/generative-ai underneath, whose RequestOptions
// baseUrl/apiVersion ChatGoogleGenerativeAI exposes as its own baseUrl and apiVersion fields).
// Where the application decides it does what ADR-224 and ADR-226 ask, so what the oracle finds
// is the library's own doing:
//   - a JSON result is handed to ToolMessage as compact JSON text with its kinds as the case
//     wrote them (1.0 stays 1.0; big integers whole), a text result as the text, an error result
//     as the text with status "error" (ToolMessage content is a string; the package wraps it);
//   - the ToolMessage names its call (what tool.invoke(toolCall) gives), so the package does not
//     infer the name from the first earlier call with that id;
//   - the public id of a call is LangChain's tool_call.id (the native id when Gemini sent a
//     string id, else a UUID the package makes); `langchain-<exchange>-<index>` only if empty;
//   - call_order reorders the AIMessage's tool_calls in the history, as an application may;
//   - maxRetries: 0, so that each scripted answer is read once (LangChain's default caller
//     retries failed requests up to six times; a retry is the application's setting).
// Capabilities: streaming, stream-capture (a streamed AIMessageChunk is carried in the history
// like any message). No carried-state (the application cannot load another implementation's
// transcript and capsules), no persistence, approvals, snapshots or typed-errors: a refusal's
// code is the class of the error LangChain raised, and the oracle places it from the journal.
//
// Protocol lines go to descriptor 3 when the oracle offers it (reply_fd) and it is open, else to
// standard output; console.log/info/debug go to standard error either way.

import fs from 'node:fs';
import { createInterface } from 'node:readline';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';

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
const GENAI_VERSION = versionOf('@langchain/google-genai');
const CORE_VERSION = versionOf('@langchain/core');

// ---------------------------------------------------------------------------------------------
// The protocol channel

let out = null; // a write stream on descriptor 3, once chosen
function send(message) {
  const line = `${JSON.stringify(message)}\n`;
  const stream = out ?? process.stdout;
  return new Promise((resolve) => stream.write(line, () => resolve()));
}

// ---------------------------------------------------------------------------------------------
// Kind-preserving text of the tool results (§5.4: `json: V` is V as compact JSON with its kinds).
// JSON.parse turns 1.0 into 1 and rounds integers beyond 2^53; the application keeps the text
// of each result value as the oracle sent it, re-serialized compactly token by token.

/// The compact text of every value at `exchanges[k].then.results[i].json` in one run_case line.
function resultTexts(line) {
  let at = 0;
  const ws = () => { while (at < line.length && ' \t\r\n'.includes(line[at])) at += 1; };
  const fail = () => { throw new Error(`run_case is not JSON at ${at}`); };
  // Returns the value's compact text; `visit(key)` descends for the wanted paths only.
  const value = (path, found) => {
    ws();
    const ch = line[at];
    if (ch === '{') {
      at += 1;
      const parts = [];
      ws();
      if (line[at] === '}') { at += 1; return '{}'; }
      for (;;) {
        ws();
        const keyStart = at;
        string();
        const keyText = line.slice(keyStart, at);
        const key = JSON.parse(keyText);
        ws();
        if (line[at] !== ':') fail();
        at += 1;
        const text = value([...path, key], found);
        parts.push(`${JSON.stringify(key)}:${text}`);
        ws();
        if (line[at] === ',') { at += 1; continue; }
        if (line[at] === '}') { at += 1; break; }
        fail();
      }
      const text = `{${parts.join(',')}}`;
      record(path, text, found);
      return text;
    }
    if (ch === '[') {
      at += 1;
      const parts = [];
      ws();
      if (line[at] === ']') { at += 1; record(path, '[]', found); return '[]'; }
      for (let i = 0; ; i += 1) {
        parts.push(value([...path, i], found));
        ws();
        if (line[at] === ',') { at += 1; continue; }
        if (line[at] === ']') { at += 1; break; }
        fail();
      }
      const text = `[${parts.join(',')}]`;
      record(path, text, found);
      return text;
    }
    let text;
    if (ch === '"') {
      const start = at;
      string();
      text = JSON.stringify(JSON.parse(line.slice(start, at)));
    } else {
      const m = /^(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(line.slice(at, at + 400));
      if (!m) fail();
      text = m[0];
      at += text.length;
    }
    record(path, text, found);
    return text;
  };
  const string = () => {
    if (line[at] !== '"') fail();
    at += 1;
    while (at < line.length && line[at] !== '"') at += line[at] === '\\' ? 2 : 1;
    if (at >= line.length) fail();
    at += 1;
  };
  const record = (path, text, found) => {
    // exchanges, k, then, results, i, json
    if (path.length === 6 && path[0] === 'exchanges' && path[2] === 'then' &&
        path[3] === 'results' && path[5] === 'json') {
      found.set(`${path[1]}/${path[4]}`, text);
    }
  };
  const found = new Map();
  value([], found);
  return found;
}

// ---------------------------------------------------------------------------------------------
// The case's `then` (§5.4) and the calls LangChain parsed

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

/// Which of LangChain's tool_calls stands for which entry of the exchange's `calls` (the
/// answer's functionCall parts in parse order): by name and arguments, identical calls in
/// order; else by name in order. Returns an array: for each `calls` index, a tool_calls index
/// or undefined (the library lost or merged it).
function matchCalls(toolCalls, calls) {
  const taken = new Set();
  const of = new Array(calls.length).fill(undefined);
  const pass = (fits) => {
    for (const [i, call] of calls.entries()) {
      if (of[i] !== undefined) continue;
      const j = toolCalls.findIndex((tc, jj) => !taken.has(jj) && tc.name === call.name && fits(tc, call));
      if (j >= 0) { of[i] = j; taken.add(j); }
    }
  };
  pass((tc, call) => sameValue(tc.args ?? {}, call.args ?? {}));
  pass(() => true);
  return of;
}

function publicId(toolCall, exchange, index) {
  return typeof toolCall.id === 'string' && toolCall.id !== '' ? toolCall.id : `langchain-${exchange}-${index}`;
}

// ---------------------------------------------------------------------------------------------
// The application

function exchangeReport() {
  return { request_built: false, response_parsed: false, calls: [], answered: [] };
}

/// A refusal: the class of the error LangChain raised as the code, no phase or exchange (the
/// oracle places it from the journal, §15.1), and a message that quotes nothing of the error
/// (its texts quote the answer; refusal messages are judged for leaks, ADR-226.19).
function refusal(error) {
  let code = error?.constructor?.name;
  if (typeof code !== 'string' || code === '' || code === 'Object') code = error?.name;
  if (typeof code !== 'string' || !/^[A-Za-z0-9_.:$-]{1,64}$/.test(code)) code = 'Error';
  return { code, message: `LangChain raised ${code}` };
}

const MODES = { ANY: 'any', AUTO: 'auto', NONE: 'none' };

/// The call options of one exchange (§5.2): options.tool_config with the exchange's tool mode on
/// top, as LangChain's call options express it: tool_choice "any" | "auto" | "none" (the
/// package maps it to functionCallingConfig.mode) and allowedFunctionNames. A string names why
/// it cannot be expressed.
function callOptions(options, toolMode) {
  const call = {};
  const toolConfig = options.tool_config;
  if (toolConfig !== undefined) {
    if (toolConfig === null || typeof toolConfig !== 'object' || Array.isArray(toolConfig)) {
      return 'a tool configuration that is no object: LangChain call options cannot express it';
    }
    const extra = Object.keys(toolConfig).filter((key) => key !== 'functionCallingConfig');
    if (extra.length > 0) return 'tool configuration members other than function calling: LangChain has no call option for them';
    const fcc = toolConfig.functionCallingConfig ?? {};
    const unknown = Object.keys(fcc).filter((key) => key !== 'mode' && key !== 'allowedFunctionNames');
    if (unknown.length > 0) return 'function calling configuration members LangChain has no call option for';
    if (fcc.mode !== undefined) {
      if (!Object.hasOwn(MODES, fcc.mode)) return 'a function calling mode LangChain tool_choice cannot express';
      call.tool_choice = MODES[fcc.mode];
    }
    if (fcc.allowedFunctionNames !== undefined) call.allowedFunctionNames = fcc.allowedFunctionNames;
  }
  if (toolMode !== undefined) {
    if (!Object.hasOwn(MODES, toolMode)) return 'a function calling mode LangChain tool_choice cannot express';
    call.tool_choice = MODES[toolMode];
  }
  return call;
}

function cannotRun(c) {
  const options = c.options ?? {};
  if (options.system_instruction !== undefined && typeof options.system_instruction !== 'string') {
    return 'a system instruction that is no text: a SystemMessage holds text';
  }
  const gc = options.generation_config;
  if (gc !== undefined && (gc === null || typeof gc !== 'object' || Object.keys(gc).length > 0)) {
    return 'generation configuration members: ChatGoogleGenerativeAI takes only its own fields';
  }
  for (const exchange of c.exchanges) {
    const why = callOptions(options, exchange.tool_mode);
    if (typeof why === 'string') return why;
    const then = exchange.then ?? {};
    for (const key of Object.keys(then)) {
      if (!['results', 'call_order', 'normalize_numbers'].includes(key)) {
        return `a step this application has no counterpart for (${key})`;
      }
    }
  }
  return undefined;
}

async function runCase(c, texts) {
  const why = cannotRun(c);
  if (why) return { type: 'skipped', reason: why };
  const options = c.options ?? {};
  const model = new ChatGoogleGenerativeAI({
    model: c.model ?? options.model ?? 'gemini-2.5-flash',
    apiKey: 'test',
    // The capture server serves {base_url}/v1beta/models/{model}:generateContent (§15); v1beta is
    // the default API version of @google/generative-ai, stated so that it cannot drift.
    baseUrl: c.base_url,
    apiVersion: 'v1beta',
    maxRetries: 0,
  });
  const tools = Array.isArray(options.tools) ? options.tools : [];
  const llm = tools.length > 0 ? model.bindTools(tools) : model;

  const messages = [];
  if (options.system_instruction !== undefined) messages.push(new SystemMessage(options.system_instruction));
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };
  let toolMessages = []; // answers to the last turn, sent with the next request

  for (let k = 1; k <= c.exchanges.length; ++k) {
    const exchange = c.exchanges[k - 1];
    const er = exchangeReport();
    report.exchanges.push(er);
    messages.push(...toolMessages);
    toolMessages = [];
    if (exchange.user !== undefined) messages.push(new HumanMessage(exchange.user));
    const call = callOptions(options, exchange.tool_mode);
    let message;
    try {
      if (exchange.streamed) {
        for await (const chunk of await llm.stream(messages, call)) {
          message = message === undefined ? chunk : concat(message, chunk);
        }
        if (message === undefined) message = new AIMessage({ content: '' });
      } else {
        message = await llm.invoke(messages, call);
      }
    } catch (error) {
      console.error(`${c.id}: exchange ${k}:`, error?.constructor?.name, String(error?.message ?? '').slice(0, 300));
      report.refusal = refusal(error);
      return report;
    }
    er.request_built = er.response_parsed = true;
    const toolCalls = message.tool_calls ?? [];
    const ids = toolCalls.map((tc, i) => publicId(tc, k, i));
    er.calls = toolCalls.map((tc, i) => ({ id: ids[i], name: tc.name ?? '', arguments: tc.args ?? {} }));
    messages.push(message);

    const calls = exchange.calls ?? [];
    const of = matchCalls(toolCalls, calls);
    const pending = calls.map((x, i) => i).filter((i) => !calls[i].answered_inside);

    // call_order (§5.4): the application reorders the message's tool_calls in its history.
    const order = exchange.then?.call_order;
    if (order !== undefined) {
      const perm = order === 'reverse' ? pending.map((x, i) => pending.length - 1 - i) : order;
      const slots = pending.map((i) => of[i]);
      if (slots.some((j) => j === undefined) || perm.some((p) => slots[p] === undefined)) {
        report.stopped = { exchange: k, reason: 'the call order names a call LangChain did not parse' };
        return report;
      }
      const reordered = toolCalls.slice();
      const sorted = slots.slice().sort((a, b) => a - b);
      perm.forEach((p, n) => { reordered[sorted[n]] = toolCalls[slots[p]]; });
      message.tool_calls = reordered;
    }

    // The tool results, in the order then.results lists them, each a ToolMessage to the call
    // its selector picks.
    const selected = exchange.selected?.results ?? [];
    for (const [index, result] of resultsOf(exchange).entries()) {
      const s = selected[index];
      const j = s === null || s === undefined ? undefined : of[s];
      if (j === undefined) {
        report.stopped = { exchange: k, reason: `result ${index}'s selector picks no call LangChain parsed` };
        return report;
      }
      const tc = toolCalls[j];
      const fields = { tool_call_id: tc.id ?? ids[j], name: tc.name };
      if (Object.hasOwn(result, 'error')) {
        toolMessages.push(new ToolMessage({ ...fields, content: String(result.error), status: 'error' }));
      } else if (Object.hasOwn(result, 'text')) {
        toolMessages.push(new ToolMessage({ ...fields, content: String(result.text) }));
      } else if (typeof result.json === 'string') {
        // A tool that returns a string: LangChain's ToolMessage content is that string.
        toolMessages.push(new ToolMessage({ ...fields, content: result.json }));
      } else {
        // Any other value: its JSON text (what LangChain does with a tool's non-string output),
        // with the kinds the case wrote.
        const text = texts.get(`${k - 1}/${index}`) ?? JSON.stringify(result.json);
        toolMessages.push(new ToolMessage({ ...fields, content: text }));
      }
      er.answered.push({ result: index, call: ids[j] });
    }
  }
  return report;
}

// ---------------------------------------------------------------------------------------------
// The protocol loop: one case at a time

async function handle(line) {
  const message = JSON.parse(line);
  if (message.type === 'start') {
    if (message.reply_fd === 3) {
      try {
        fs.fstatSync(3);
        out = fs.createWriteStream(null, { fd: 3 });
      } catch {
        out = null;
      }
    }
    await send({
      type: 'hello',
      protocol: 2,
      name: `langchain-google-genai-js-${MODE}`,
      version: `${GENAI_VERSION}+core.${CORE_VERSION}`,
      language: 'JavaScript',
      capabilities: ['streaming', 'stream-capture'],
    });
  } else if (message.type === 'run_case') {
    let reply;
    try {
      reply = await runCase(message, resultTexts(line));
    } catch (error) {
      console.error(error);
      reply = { type: 'errored', context: `driver failure: ${error?.constructor?.name ?? 'unknown'}` };
    }
    await send({ ...reply, seq: message.seq });
  } else if (message.type === 'stop') {
    return true;
  }
  return false;
}

// @google/generative-ai's generateContentStream tees the event stream and also returns a
// `response` promise over the second branch, which LangChain never awaits: when a stream fails
// (a cut, an event that is not JSON) that promise rejects unhandled, and Node.js would end the
// process while the next case runs. The application logs such rejections instead.
process.on('unhandledRejection', (error) => {
  console.error('unhandled rejection (left by the library):', error?.constructor?.name, String(error?.message ?? '').slice(0, 200));
});

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve(false);
const finish = () => {
  const stream = out ?? process.stdout;
  stream.write('', () => process.exit(0));
};
lines.on('line', (line) => {
  if (line.trim() === '') return;
  queue = queue.then(async (stopped) => stopped || handle(line)).then((stopped) => {
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

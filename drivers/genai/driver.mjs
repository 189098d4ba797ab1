#!/usr/bin/env node
// Google's @google/genai SDK behind the driver protocol (fixtures/INTERPRETING.md §15).
//
//   node drivers/genai/driver.mjs --mode chat   a manual tool loop: ai.chats.create, then
//        chat.sendMessage (sendMessageStream for a streamed exchange), response.functionCalls,
//        and the tool results sent as functionResponse parts with the next message;
//   node drivers/genai/driver.mjs --mode afc    the SDK's automatic function calling: every
//        functionDeclarations tool is a CallableTool, and the SDK runs the tool loop of one
//        sendMessage itself;
//   node drivers/genai/driver.mjs --mode mcp    the SDK's MCP tool path: the case's function
//        declarations are the tools of an MCP server in this process (@modelcontextprotocol/sdk,
//        in-memory transport), handed to the SDK as mcpToTool(client); automatic function
//        calling runs the loop, and the SDK builds each functionResponse from the MCP result.
//   --vertex (with any mode)                   the same application on Vertex AI in express mode
//        (vertexai: true and an API key): the SDK's Vertex paths and converters.
//
// The driver is the application around the SDK, written the way the SDK's documentation shows;
// what reaches the wire is the SDK's. Where the application decides (the wrapping of a tool
// result, the public id of an id-less call, what an MCP tool returns), it does what ADR-224 and
// ADR-226 ask, so that what the oracle finds is the SDK's own behaviour. Capabilities: streaming
// and stream-capture (a chat session keeps a streamed turn in its history like a whole one). No
// carried-state, persistence or approvals (a chat session starts empty and keeps its history in
// memory), no typed-errors (refusal codes are the SDK's error class names), no snapshots.
//
// Protocol 2: a refusal names neither exchange nor phase (the application cannot see whether the
// SDK's request had left), and the oracle places it from its journal. The protocol lines go to
// descriptor 3 when `start` names it and it is open, else to standard output; the SDK writes
// warnings with console.warn and console.debug, and console.debug (like console.log) writes to
// standard output in Node, so those go to standard error anyway.

import { createWriteStream, fstatSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ApiError, GoogleGenAI, createPartFromFunctionResponse, mcpToTool } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

for (const name of ['log', 'info', 'debug', 'dir', 'table']) console[name] = console.error.bind(console);

const MODE = (() => {
  const at = process.argv.indexOf('--mode');
  const mode = at >= 0 ? process.argv[at + 1] : undefined;
  if (mode !== 'chat' && mode !== 'afc' && mode !== 'mcp') {
    console.error('usage: node driver.mjs --mode chat|afc|mcp [--vertex]');
    process.exit(2);
  }
  return mode;
})();

const VERTEX = process.argv.includes('--vertex');

const versionOf = (name) => JSON.parse(readFileSync(
  new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
const SDK_VERSION = versionOf('@google/genai');
const MCP_SDK_VERSION = versionOf('@modelcontextprotocol/sdk');

// The protocol channel: descriptor 3 when `start` offers it and it is open (§15.1), else
// standard output. Chosen at `start`, before the hello.
let out = process.stdout;
function send(message) {
  out.write(`${JSON.stringify(message)}\n`);
}
function chooseChannel(start) {
  if (start.reply_fd !== 3) return;
  try {
    fstatSync(3);
  } catch {
    return;
  }
  out = createWriteStream(null, { fd: 3 });
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

/// The tool result as a functionResponse.response. The SDK leaves the wrapping to the
/// application; this one follows ADR-224: an object root as it is (224.3), a list at the keys
/// "0".."n-1" (224.4), anything else under "output" (224.5; the key the SDK's FunctionResponse
/// documentation names), an error under "error".
function responseOf(result) {
  if (Object.hasOwn(result, 'error')) return { error: result.error };
  if (Object.hasOwn(result, 'text')) return { output: result.text };
  const value = result.json;
  if (Array.isArray(value)) return Object.fromEntries(value.map((item, i) => [String(i), item]));
  if (value !== null && typeof value === 'object') return value;
  return { output: value };
}

// ---------------------------------------------------------------------------------------------
// A model turn as the SDK gave it

/// One exchange's model turn: every part of candidates[0] (all events of a stream, in order),
/// the calls the SDK listed in response.functionCalls, their public ids, and the pending calls
/// (§4: a call answered inside its own content by a server-side tool is not one), which the
/// case's selectors index. Which calls are pending is known only once the whole turn is in (a
/// later part may answer an earlier call), so a selector is resolved only then (`complete`).
class Turn {
  constructor(exchange) {
    this.exchange = exchange; // 1-based
    this.parts = [];
    this.calls = [];
    this.ids = new Map();
    this.complete = false; // every event of the answer is in
    this.answered = new Set(); // indices into then.results already handed back
    this.handed = new Set(); // afc: the calls the SDK handed to a tool
    this.waiting = []; // afc: answers handed back before the turn was complete, not settled yet
  }

  add(response) {
    const parts = response?.candidates?.[0]?.content?.parts;
    if (Array.isArray(parts)) this.parts.push(...parts);
    for (const call of response?.functionCalls ?? []) {
      // The public id is the SDK's call id, what an application reads; an id-less call (or one
      // whose id is not a nonempty string) gets one of the application's own (ADR-226.1).
      const id = typeof call.id === 'string' && call.id !== ''
        ? call.id : `genai-${this.exchange}-${this.calls.length}`;
      this.ids.set(call, id);
      this.calls.push(call);
    }
  }

  get pending() {
    const calls = this.parts.filter((part) => part?.functionCall).map((part) => part.functionCall);
    const answered = new Set();
    for (const part of this.parts) {
      const response = part?.functionResponse;
      if (!response) continue;
      const hasId = response.id !== undefined && response.id !== null;
      const call = calls.find((c) => !answered.has(c) && (hasId
        ? c.id === response.id
        : (c.id === undefined || c.id === null) && c.name === response.name));
      if (call) answered.add(call);
    }
    return calls.filter((call) => !answered.has(call));
  }

  /// The pending call a `then.results` selector names (§5.4), or undefined.
  select(selector) {
    const pending = this.pending;
    if (Number.isInteger(selector)) return pending[selector];
    const matches = pending.filter((call) => call.name === selector.name &&
      (!Object.hasOwn(selector, 'args') || sameValue(call.args ?? {}, selector.args)));
    return matches.length === 1 ? matches[0] : undefined;
  }

  reported() {
    return this.calls.map((call) => ({
      id: this.ids.get(call),
      name: typeof call.name === 'string' ? call.name : '',
      arguments: call.args ?? {},
    }));
  }
}

class DriverFailure extends Error {}

function exchangeReport() {
  return { request_built: false, response_parsed: false, calls: [], answered: [] };
}

/// A refusal: the SDK's error class as the code, and a message that says only that (the
/// oracle judges refusal messages for leaks, ADR-226.19; the SDK's own texts quote the body).
/// The SDK's errors do not say whether the request had gone out, so the refusal names no
/// exchange or phase: the oracle places it from its journal (protocol 2, INTERPRETING §15.1).
function refusal(error) {
  let code = typeof error?.name === 'string' && error.name !== '' ? error.name : 'Error';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(code)) code = 'Error';
  return { code, message: `the SDK raised ${code}` };
}

/// An ApiError is the server's answer (an HTTP error status or an error event of the stream):
/// the request it refuses was built and sent.
const answeredWithError = (error) => error instanceof ApiError;

function client(c) {
  if (VERTEX) {
    // Vertex AI in express mode: an API key and no project or location. The SDK names the model
    // publishers/google/models/{model} under its default version for Vertex AI (v1beta1), which
    // the capture server serves like the Gemini API path.
    return new GoogleGenAI({ vertexai: true, apiKey: 'test', httpOptions: { baseUrl: c.base_url } });
  }
  return new GoogleGenAI({
    apiKey: 'test',
    vertexai: false,
    // The capture server serves {base_url}/v1beta/models/{model}:generateContent (§15); v1beta
    // is the SDK's default for the Gemini API, stated here so that it cannot drift.
    httpOptions: { baseUrl: c.base_url, apiVersion: 'v1beta' },
  });
}

/// The request config of one exchange (§5.2): options.tools as written, system instruction,
/// generation config members (the SDK takes them flat in the config), options.tool_config with
/// the exchange's tool mode set on top.
function configFor(options, toolMode, tools) {
  const config = {};
  if (options.generation_config && typeof options.generation_config === 'object') {
    Object.assign(config, structuredClone(options.generation_config));
  }
  if (options.system_instruction !== undefined) config.systemInstruction = options.system_instruction;
  if (tools !== undefined && tools.length > 0) config.tools = tools;
  let toolConfig = options.tool_config !== undefined ? structuredClone(options.tool_config) : undefined;
  if (toolMode !== undefined) {
    toolConfig ??= {};
    toolConfig.functionCallingConfig = { ...(toolConfig.functionCallingConfig ?? {}), mode: toolMode };
  }
  if (toolConfig !== undefined) config.toolConfig = toolConfig;
  return config;
}

// Reasons and contexts reach the reports with every string of the case's own content of four or
// more characters cut out (§15), member names included ("user", "tool", "call", "mode", ...): they
// are worded around them.
function skipped(reason) {
  return { type: 'skipped', reason };
}

// ---------------------------------------------------------------------------------------------
// chat: the application runs the tool loop itself

/// A chat session sends one user content per message: tool results, a user text, or both.
function chatCannotRun(c) {
  const exchanges = c.exchanges;
  for (let k = 0; k < exchanges.length; ++k) {
    if (exchanges[k].user === undefined && (k === 0 || resultsOf(exchanges[k - 1]).length === 0)) {
      return 'a step with neither a prompt nor function answers: a chat session cannot send it';
    }
  }
  return undefined;
}

async function runChat(c) {
  const why = chatCannotRun(c);
  if (why) return skipped(why);
  const options = c.options ?? {};
  const chat = client(c).chats.create({ model: c.model, config: configFor(options, undefined, options.tools) });
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };
  let answers = []; // functionResponse parts for the next message
  for (let k = 1; k <= c.exchanges.length; ++k) {
    const exchange = c.exchanges[k - 1];
    const er = exchangeReport();
    report.exchanges.push(er);
    const message = [...answers];
    if (exchange.user !== undefined) message.push({ text: exchange.user });
    answers = [];
    const config = configFor(options, exchange.tool_mode, options.tools);
    const turn = new Turn(k);
    try {
      if (exchange.streamed) {
        for await (const chunk of await chat.sendMessageStream({ message, config })) {
          er.request_built = true; // an answer is arriving
          turn.add(chunk);
        }
      } else {
        turn.add(await chat.sendMessage({ message, config }));
      }
    } catch (error) {
      er.request_built ||= answeredWithError(error);
      report.refusal = refusal(error);
      return report;
    }
    er.request_built = er.response_parsed = true;
    er.calls = turn.reported();
    // The tool results, handed back in the order then.results lists them (§5.4), each echoing
    // its call's id as the SDK gave it (createPartFromFunctionResponse(id, name, response)).
    for (const [index, result] of resultsOf(exchange).entries()) {
      const call = turn.select(result.call);
      if (call === undefined) {
        // The SDK's calls do not fit the case (it lost or merged one): the application stops
        // here and the report so far is judged (INTERPRETING §15.2), not a driver error.
        report.stopped = { exchange: k, reason: `result ${index}'s selector picks no single call the SDK read` };
        return report;
      }
      answers.push(createPartFromFunctionResponse(call.id, call.name, responseOf(result)));
      er.answered.push({ result: index, call: turn.ids.get(call) });
    }
  }
  return report;
}

// ---------------------------------------------------------------------------------------------
// afc: the SDK runs the tool loop of each message

/// One sendMessage runs a user message and the tool rounds after it: an exchange whose results
/// the SDK sends at once in the next request, which has no user message of its own. What one
/// loop cannot do, an application using it cannot either.
function afcGroups(c) {
  const groups = [];
  const exchanges = c.exchanges;
  for (let k = 0; k < exchanges.length; ++k) {
    const exchange = exchanges[k];
    const answered = k > 0 && resultsOf(exchanges[k - 1]).length > 0;
    if (exchange.user !== undefined) {
      if (answered) {
        return 'AFC sends function answers at once, yet here a new prompt joins them';
      }
      groups.push({ start: k + 1, size: 1, streamed: exchange.streamed, toolMode: exchange.tool_mode });
      continue;
    }
    if (!answered) {
      return 'a step with neither a prompt nor function answers: a chat session cannot send it';
    }
    const group = groups[groups.length - 1];
    if (exchange.tool_mode !== group.toolMode) {
      return 'AFC keeps one config per loop, yet here the config varies inside a loop';
    }
    if (exchange.streamed !== group.streamed) {
      return 'AFC runs a whole loop over SSE or none of it, yet here a loop mixes both';
    }
    group.size += 1;
  }
  return groups;
}

async function runAfc(c) {
  const groups = afcGroups(c);
  if (typeof groups === 'string') return skipped(groups);
  const options = c.options ?? {};
  const ai = client(c);
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };
  const turns = new Map(); // exchange number -> Turn
  const turnOfCall = new WeakMap(); // the SDK's FunctionCall object -> Turn

  const open = (k) => {
    while (report.exchanges.length < k) report.exchanges.push(exchangeReport());
    if (!turns.has(k)) turns.set(k, new Turn(k));
    return { er: report.exchanges[k - 1], turn: turns.get(k) };
  };
  const parsed = (k, response) => {
    const { er, turn } = open(k);
    turn.add(response);
    turn.complete = true;
    for (const call of turn.calls) turnOfCall.set(call, turn);
    er.request_built = er.response_parsed = true;
    er.calls = turn.reported();
  };

  // The turn a call handed to a tool belongs to: the SDK hands the parsed objects themselves;
  // were they copies, by id, else by name and arguments, else by name in order.
  const latest = () => turns.get(Math.max(...turns.keys()));
  const turnOf = (call) => turnOfCall.get(call) ?? latest();
  const sameCall = (turn, call) => {
    if (turn.calls.includes(call)) return call;
    if (typeof call.id === 'string' && call.id !== '') {
      const byId = turn.calls.find((c) => c.id === call.id);
      if (byId) return byId;
    }
    const named = turn.calls.filter((c) => c.name === call.name && !turn.handed.has(c));
    return named.find((c) => sameValue(c.args ?? {}, call.args ?? {})) ?? named[0];
  };

  // What the application's tools answer, decided only once the whole turn is known (§15.2): a
  // case result goes only to the call its selector picks among the pending calls of the
  // complete turn (§5.4). The SDK hands the tools every functionCall it read, calls the server
  // answered in its own content included (ADR-226.B2), and, when the answer is streamed, each
  // call as its event arrives, before the parts that follow it (one of which may answer it, or
  // be the call a selector picks) are read. So every call handed is an answer slot, settled
  // when its turn is complete: the result whose selector picks the call; nothing for a pending
  // call the case leaves without a result (the application has none to give: the SDK's own
  // checks are then judged); for any other call (one the server answered, one of no turn) a
  // neutral payload, no case result, so it is not in `answered` and the wire judges judge the
  // extra functionResponse. Results are handed back in the order then.results lists them (tools
  // finishing in that order), the neutral payloads after them; when streamed, in the order the
  // SDK handed the calls (its own order, kept).
  const noResult = () => ({ error: 'no result for this call' });
  const answerParts = new WeakSet(); // every part callTool returned
  const settle = (answers) => {
    const kept = [];
    const byTurn = new Map();
    for (const answer of answers) {
      if (!byTurn.has(answer.turn)) byTurn.set(answer.turn, []);
      byTurn.get(answer.turn).push(answer);
    }
    for (const [turn, group] of byTurn) {
      const given = new Set();
      if (turn !== undefined) {
        for (const [index, result] of resultsOf(c.exchanges[turn.exchange - 1]).entries()) {
          if (turn.answered.has(index)) continue;
          const call = turn.select(result.call);
          const answer = call === undefined ? undefined
            : group.find((a) => a.call === call && !given.has(a));
          if (answer === undefined) continue;
          turn.answered.add(index);
          given.add(answer);
          answer.part.functionResponse.response = responseOf(result);
          report.exchanges[turn.exchange - 1].answered.push({ result: index, call: turn.ids.get(call) });
          kept.push(answer);
        }
      }
      const pending = turn?.pending ?? [];
      for (const answer of group) {
        if (given.has(answer) || pending.includes(answer.call)) continue;
        answer.part.functionResponse.response = noResult();
        kept.push(answer);
      }
    }
    return kept;
  };
  // A streamed turn is complete when the SDK yields its answers to the tools (a user content of
  // the parts callTool returned), before it builds the next request from that same content: the
  // answers are settled there, and the parts of pending calls without a result taken out of it.
  // Were none left, the SDK would send an empty content: they keep the neutral payload then.
  const ownAnswers = (chunk) => {
    const content = chunk?.candidates?.[0]?.content;
    return content?.role === 'user' && Array.isArray(content.parts) &&
      content.parts.some((part) => answerParts.has(part));
  };
  const settleStreamed = (turn, parts) => {
    turn.complete = true;
    const waiting = turn.waiting.splice(0);
    const kept = new Set(settle(waiting));
    const dropped = waiting.filter((answer) => !kept.has(answer));
    if (dropped.length === waiting.length) {
      for (const answer of dropped) answer.part.functionResponse.response = noResult();
      return;
    }
    for (const answer of dropped) {
      const at = parts.indexOf(answer.part);
      if (at >= 0) parts.splice(at, 1);
    }
  };

  // Every functionDeclarations entry of options.tools becomes a CallableTool whose tool() gives
  // the entry as written; other tools (code execution, search) stay plain. callTool answers the
  // calls it is given that its functions declare (a call no tool declares goes to the first
  // one): at once when their turn is complete, else with parts settled later (above).
  const entries = options.tools ?? [];
  const declared = (entry) => (entry?.functionDeclarations ?? []).map((d) => d?.name);
  const callableAt = entries.map((entry) => Array.isArray(entry?.functionDeclarations) &&
    entry.functionDeclarations.length > 0);
  const first = callableAt.indexOf(true);
  const owns = (at, name) => declared(entries[at]).includes(name) ||
    (at === first && !entries.some((entry, j) => callableAt[j] && declared(entry).includes(name)));
  const callTool = async (at, functionCalls) => {
    const handed = functionCalls.filter((given) => owns(at, given.name)).map((given) => {
      const turn = turnOf(given);
      const call = (turn !== undefined ? sameCall(turn, given) : undefined) ?? given;
      turn?.handed.add(call);
      const part = createPartFromFunctionResponse(call.id, call.name, {});
      answerParts.add(part);
      return { turn, call, part };
    });
    const later = handed.filter((answer) => answer.turn !== undefined && !answer.turn.complete);
    for (const answer of later) answer.turn.waiting.push(answer);
    const now = settle(handed.filter((answer) => !later.includes(answer)));
    return [...now, ...later].map((answer) => answer.part);
  };
  const tools = entries.map((entry, at) => (callableAt[at]
    ? { tool: async () => entry, callTool: (functionCalls) => callTool(at, functionCalls) }
    : entry));

  // Each request of a whole-answer loop, seen as the SDK parses it, before the SDK hands its
  // calls to the tools. An observation only: the SDK's own method does the work.
  const models = ai.models;
  const generateContentInternal = models.generateContentInternal.bind(models);
  let next = 0; // the exchange the next request belongs to
  models.generateContentInternal = async (params) => {
    const k = next++;
    let response;
    try {
      response = await generateContentInternal(params);
    } catch (error) {
      open(k).er.request_built = answeredWithError(error);
      throw error;
    }
    parsed(k, response);
    return response;
  };

  const chat = ai.chats.create({ model: c.model, config: configFor(options, undefined, tools) });
  for (const [g, group] of groups.entries()) {
    const last = group.start + group.size - 1;
    const config = configFor(options, group.toolMode, tools);
    // The application allows the SDK as many model calls as the case scripts for this message:
    // a whole-answer loop makes at most maximumRemoteCalls requests, a streamed one one more
    // (the SDK counts them differently).
    if (!group.streamed) config.automaticFunctionCalling = { maximumRemoteCalls: group.size };
    else if (group.size > 1) config.automaticFunctionCalling = { maximumRemoteCalls: group.size - 1 };
    else config.automaticFunctionCalling = { disable: true };
    const message = c.exchanges[group.start - 1].user;
    next = group.start;
    // Streamed: the exchange whose answer is arriving. After yielding its answers to the tools
    // the SDK always sends the next request, so the exchanges reached are group.start..k.
    let k = group.start;
    const streamedRoundsParsed = (through) => {
      for (let j = group.start; j <= through; ++j) {
        const { er, turn } = open(j);
        er.request_built = er.response_parsed = true;
        er.calls = turn.reported();
      }
    };
    try {
      if (group.streamed) {
        for await (const chunk of await chat.sendMessageStream({ message, config })) {
          // The SDK yields its own answers to the tools as a user content between rounds: the
          // turn is complete, its answers are settled before the SDK sends them.
          if (ownAnswers(chunk)) {
            settleStreamed(open(k).turn, chunk.candidates[0].content.parts);
            k += 1;
            continue;
          }
          const { turn } = open(k);
          turn.add(chunk);
          for (const call of turn.calls) turnOfCall.set(call, turn);
          report.exchanges[k - 1].request_built = true;
        }
        streamedRoundsParsed(k);
      } else {
        await chat.sendMessage({ message, config });
      }
    } catch (error) {
      // The exchange the application was on: streamed, the one whose answer was arriving or whose
      // request was being built (those before it were read whole); else the last one the SDK
      // asked for. Whether the SDK failed building it or reading its answer the oracle tells
      // from its journal.
      if (group.streamed) {
        streamedRoundsParsed(k - 1);
        const { er } = open(k);
        er.request_built ||= answeredWithError(error);
      }
      const reached = group.streamed ? k : Math.max(group.start, next - 1);
      open(reached);
      report.exchanges.length = reached;
      report.refusal = refusal(error);
      return report;
    }
    const reached = group.streamed ? k : next - 1;
    if (reached < last) {
      // The model stopped calling tools before the case's loop ended: the conversation the case
      // scripts is over for this application.
      return report;
    }
    if (g + 1 < groups.length && turns.get(last)?.pending.length > 0) {
      return skipped('AFC answers every function invocation, yet here some stay unanswered before a new prompt');
    }
  }
  return report;
}

// ---------------------------------------------------------------------------------------------
// mcp: the case's functions are the tools of an MCP server; the SDK runs the loop through them

/// The case's JSON tool results as exact JSON text, read from the run_case line itself: JSON.parse
/// makes every number a double (an integer beyond 2^53 rounded, 1.0 and -0.0 written back as 1
/// and 0), while an MCP tool returns its result as text that it writes itself. Returns, per
/// exchange, per `then.results` entry, the text of its `json` value (undefined for the others).
function exactResultTexts(line) {
  let at = 0;
  const space = () => { while (at < line.length && ' \t\r\n'.includes(line[at])) at += 1; };
  // Each value as [its source text, its members (object: Map name -> value; list: array)].
  const value = () => {
    space();
    const start = at;
    const ch = line[at];
    if (ch === '{') {
      at += 1;
      const members = new Map();
      space();
      if (line[at] === '}') { at += 1; return { text: line.slice(start, at), members }; }
      for (;;) {
        space();
        const key = JSON.parse(stringText());
        space();
        at += 1; // ':'
        members.set(key, value());
        space();
        if (line[at++] === '}') return { text: line.slice(start, at), members };
      }
    }
    if (ch === '[') {
      at += 1;
      const items = [];
      space();
      if (line[at] === ']') { at += 1; return { text: line.slice(start, at), items }; }
      for (;;) {
        items.push(value());
        space();
        if (line[at++] === ']') return { text: line.slice(start, at), items };
      }
    }
    if (ch === '"') return { text: stringText() };
    while (at < line.length && !',]} \t\r\n'.includes(line[at])) at += 1;
    return { text: line.slice(start, at) };
  };
  const stringText = () => {
    const start = at;
    at += 1;
    while (line[at] !== '"') at += line[at] === '\\' ? 2 : 1;
    at += 1;
    return line.slice(start, at);
  };
  const root = value();
  return (root.members?.get('exchanges')?.items ?? []).map((exchange) =>
    (exchange.members?.get('then')?.members?.get('results')?.items ?? []).map((result) =>
      result.members?.get('json')?.text));
}

/// A Gemini Schema (`parameters`, its types in capitals) as the JSON Schema an MCP tool declares.
function jsonSchemaOf(schema) {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => {
    if (key === 'type' && typeof value === 'string') return [key, value.toLowerCase()];
    if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return [key, Object.fromEntries(Object.entries(value).map(([name, s]) => [name, jsonSchemaOf(s)]))];
    }
    return [key, jsonSchemaOf(value)];
  }));
}

/// An MCP tool as its author declares it from a function declaration: the name, the
/// description, the parameters' JSON Schema as the input schema (an object schema, as MCP
/// requires), and the response schema, when the declaration has one, as the output schema.
function mcpToolOf(declaration) {
  const tool = { name: declaration.name };
  if (typeof declaration.description === 'string') tool.description = declaration.description;
  if (declaration.parametersJsonSchema !== undefined) tool.inputSchema = declaration.parametersJsonSchema;
  else if (declaration.parameters !== undefined) tool.inputSchema = jsonSchemaOf(declaration.parameters);
  else tool.inputSchema = { type: 'object' };
  if (declaration.responseJsonSchema !== undefined) tool.outputSchema = declaration.responseJsonSchema;
  else if (declaration.response !== undefined) tool.outputSchema = jsonSchemaOf(declaration.response);
  return tool;
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/// What the MCP tool returns for a case result: what MCP tool authors write, the result as one
/// text content block (a JSON result as its JSON text, a text result as the text), an error as
/// a tool error (`isError`, the message as text) the model is meant to see. MCP's
/// structuredContent holds only an object and is the form for tools that declare an output
/// schema: such a tool (and only such a tool, as the MCP specification asks) returns its object
/// result there too, beside the text block the specification asks for backwards compatibility.
function mcpResultOf(result, exactText, declaresOutput) {
  if (Object.hasOwn(result, 'error')) {
    return { isError: true, content: [{ type: 'text', text: String(result.error) }] };
  }
  if (Object.hasOwn(result, 'text')) return { content: [{ type: 'text', text: result.text }] };
  const answer = { content: [{ type: 'text', text: exactText ?? JSON.stringify(result.json) }] };
  if (declaresOutput && isObject(result.json)) answer.structuredContent = result.json;
  return answer;
}

/// The answer to a call the case has no result for (one the server answered in its own
/// content): a tool error, no case result, so it is not in `answered` and the wire judges
/// judge the extra functionResponse.
const mcpNoResult = () => ({ isError: true, content: [{ type: 'text', text: 'no result for this call' }] });

/// What one MCP tool loop cannot do, beyond what AFC cannot (afcGroups): the SDK hands every
/// call of an answer to the MCP tools and sends every answer they give, so a pending call the
/// case leaves without a result inside a loop, or before a new prompt, has no place here.
function mcpCannotRun(c, groups) {
  const names = new Set();
  for (const entry of c.options?.tools ?? []) {
    for (const declaration of entry?.functionDeclarations ?? []) {
      if (typeof declaration?.name !== 'string' || declaration.name === '') {
        return 'a function declaration without a name: an MCP server cannot list it';
      }
      if (names.has(declaration.name)) return 'two function declarations share a name: one MCP server cannot serve both';
      names.add(declaration.name);
    }
  }
  for (const [g, group] of groups.entries()) {
    const last = group.start + group.size - 1;
    const answeredThrough = g + 1 < groups.length ? last : last - 1;
    for (let k = group.start; k <= answeredThrough; ++k) {
      const exchange = c.exchanges[k - 1];
      const selected = new Set(exchange.selected?.results ?? []);
      const calls = exchange.calls ?? [];
      if (calls.some((call, j) => !call.answered_inside && !selected.has(j))) {
        return 'the MCP tool loop answers every function invocation, yet here one is left without a result';
      }
    }
  }
  return undefined;
}

async function runMcp(c, line) {
  const groups = afcGroups(c);
  if (typeof groups === 'string') return skipped(groups);
  const why = mcpCannotRun(c, groups);
  if (why) return skipped(why);
  const options = c.options ?? {};
  const ai = client(c);
  const report = { type: 'report', exchanges: [], refusal: null, persisted: false };
  const turns = new Map(); // exchange number -> Turn
  const open = (k) => {
    while (report.exchanges.length < k) report.exchanges.push(exchangeReport());
    if (!turns.has(k)) turns.set(k, new Turn(k));
    return { er: report.exchanges[k - 1], turn: turns.get(k) };
  };
  const current = () => Math.max(0, ...turns.keys()); // the exchange whose calls are being run

  // The MCP tools: every function declaration of options.tools. A handler answers the call it
  // is given from the case (§15.2): the call of the current exchange's `calls` with its name and
  // arguments (by order among identical ones; else by name in order), then the result whose
  // selector picks that call (`selected`); a call the server answered, or one that fits no
  // call of the case, gets the neutral tool error.
  const declarations = (options.tools ?? []).flatMap((entry) => entry?.functionDeclarations ?? []);
  const mcpTools = declarations.map(mcpToolOf);
  const declaresOutput = new Set(mcpTools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name));
  const exactTexts = exactResultTexts(line);
  const taken = new Map(); // exchange -> indices into its calls already run
  let roundCalls = 0; // streamed: handler calls since the last answer content the SDK yielded
  const answer = (name, args) => {
    roundCalls += 1;
    const k = current();
    const exchange = c.exchanges[k - 1];
    const turn = turns.get(k);
    if (exchange === undefined || turn === undefined) return mcpNoResult();
    if (!taken.has(k)) taken.set(k, new Set());
    const used = taken.get(k);
    const calls = exchange.calls ?? [];
    const named = calls.map((_, j) => j).filter((j) => !used.has(j) && calls[j].name === name);
    const j = named.find((i) => sameValue(calls[i].args ?? {}, args ?? {})) ?? named[0];
    // The SDK's own call object it stands for: its public id goes into `answered`.
    const sdkNamed = turn.calls.filter((call) => !turn.handed.has(call) && call.name === name);
    const sdkCall = sdkNamed.find((call) => sameValue(call.args ?? {}, args ?? {})) ?? sdkNamed[0];
    if (sdkCall !== undefined) turn.handed.add(sdkCall);
    if (j === undefined) return mcpNoResult();
    used.add(j);
    const index = calls[j].answered_inside ? -1 : (exchange.selected?.results ?? []).indexOf(j);
    if (index < 0 || sdkCall === undefined) return mcpNoResult();
    report.exchanges[k - 1].answered.push({ result: index, call: turn.ids.get(sdkCall) });
    return mcpResultOf(resultsOf(exchange)[index], exactTexts[k - 1]?.[index], declaresOutput.has(name));
  };

  const server = new Server({ name: 'gemini-oracle-case-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpTools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    answer(request.params.name, request.params.arguments));
  const mcpClient = new Client({ name: 'gemini-oracle-genai-driver', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await mcpClient.connect(clientTransport);

  // The MCP tool stands where the first functionDeclarations entry stood; other tools (code
  // execution, search) stay plain.
  const entries = options.tools ?? [];
  const tools = [];
  for (const entry of entries) {
    if (Array.isArray(entry?.functionDeclarations)) {
      if (!tools.some((tool) => tool?.callTool)) tools.push(mcpToTool(mcpClient));
    } else {
      tools.push(entry);
    }
  }

  // Each request of a whole-answer loop, seen as the SDK parses it, before the SDK hands its
  // calls to the tools. An observation only: the SDK's own method does the work.
  const models = ai.models;
  const generateContentInternal = models.generateContentInternal.bind(models);
  let next = 0;
  models.generateContentInternal = async (params) => {
    const k = next++;
    let response;
    try {
      response = await generateContentInternal(params);
    } catch (error) {
      open(k).er.request_built = answeredWithError(error);
      throw error;
    }
    const { er, turn } = open(k);
    turn.add(response);
    turn.complete = true;
    er.request_built = er.response_parsed = true;
    er.calls = turn.reported();
    return response;
  };

  try {
    const chat = ai.chats.create({ model: c.model, config: configFor(options, undefined, tools) });
    for (const group of groups) {
      const last = group.start + group.size - 1;
      const config = configFor(options, group.toolMode, tools);
      // As many model calls as the case scripts for this message (see runAfc).
      if (!group.streamed) config.automaticFunctionCalling = { maximumRemoteCalls: group.size };
      else if (group.size > 1) config.automaticFunctionCalling = { maximumRemoteCalls: group.size - 1 };
      else config.automaticFunctionCalling = { disable: true };
      const message = c.exchanges[group.start - 1].user;
      next = group.start;
      // Streamed: the exchange whose answer is arriving, as in runAfc.
      let k = group.start;
      const streamedRoundsParsed = (through) => {
        for (let j = group.start; j <= through; ++j) {
          const { er, turn } = open(j);
          er.request_built = er.response_parsed = true;
          er.calls = turn.reported();
        }
      };
      try {
        if (group.streamed) {
          roundCalls = 0;
          for await (const chunk of await chat.sendMessageStream({ message, config })) {
            // The SDK yields the answers of the MCP tools as a user content between rounds.
            const content = chunk?.candidates?.[0]?.content;
            if (roundCalls > 0 && content?.role === 'user' && Array.isArray(content.parts) &&
                content.parts.length > 0 && content.parts.every((part) => part?.functionResponse)) {
              roundCalls = 0;
              k += 1;
              continue;
            }
            const { turn } = open(k);
            turn.add(chunk);
            report.exchanges[k - 1].request_built = true;
          }
          streamedRoundsParsed(k);
        } else {
          await chat.sendMessage({ message, config });
        }
      } catch (error) {
        // The exchange the application was on (as in runAfc); the oracle places the refusal.
        if (group.streamed) {
          streamedRoundsParsed(k - 1);
          const { er } = open(k);
          er.request_built ||= answeredWithError(error);
        }
        const reached = group.streamed ? k : Math.max(group.start, next - 1);
        open(reached);
        report.exchanges.length = reached;
        report.refusal = refusal(error);
        return report;
      }
      const reached = group.streamed ? k : next - 1;
      if (reached < last) return report; // the model stopped calling tools before the case's loop ended
    }
    return report;
  } finally {
    await mcpClient.close();
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The protocol loop: one case at a time

async function handle(message, line) {
  if (message.type === 'start') {
    chooseChannel(message);
    send({
      type: 'hello',
      protocol: 2,
      name: `google-genai-js-${MODE}${VERTEX ? '-vertex' : ''}`,
      version: MODE === 'mcp' ? `${SDK_VERSION} (mcp sdk ${MCP_SDK_VERSION})` : SDK_VERSION,
      language: 'JavaScript',
      capabilities: ['streaming', 'stream-capture'],
    });
  } else if (message.type === 'run_case') {
    let reply;
    try {
      const run = { chat: runChat, afc: runAfc, mcp: runMcp }[MODE];
      reply = await run(message, line);
    } catch (error) {
      console.error(error);
      reply = { type: 'errored', context: error instanceof DriverFailure ? error.message : `driver failure: ${error?.name ?? 'unknown'}` };
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
  queue = queue.then(async (stopped) => stopped || handle(JSON.parse(line), line)).then((stopped) => {
    if (stopped) {
      lines.close();
      out.write('', () => process.exit(0));
    }
    return stopped;
  }, (error) => {
    console.error(error);
    process.exit(1);
  });
});
lines.on('close', () => {
  queue.then(() => out.write('', () => process.exit(0)));
});

#!/usr/bin/env python3
"""The smallest complete driver (drivers/README.md, fixtures/INTERPRETING.md section 15).

Its "implementation" is a naive Gemini adapter written here in a few lines: it keeps the
native contents as received and replays them, gives each call a public id of its own, and
answers the calls in their order, each functionResponse echoing the call's native id. It has
no capability: cases that carry state, suspend, approve or stream are skipped by the oracle.
It refuses nothing, so the oracle fails it on cases that demand a refusal: an honest report.

    gemini-oracle run --impl "python3 drivers/examples/minimal_driver.py"
"""
import json
import sys
import urllib.error
import urllib.request


def send(line):
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def post(base_url, model, body):
    request = urllib.request.Request(
        f"{base_url}/v1beta/models/{model}:generateContent",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "x-goog-api-key": "example"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def as_object(result):
    """A tool result as a functionResponse.response: always a JSON object (ADR-224)."""
    if "error" in result:
        return {"error": result["error"]}
    if "json" in result:
        value = result["json"]
    else:
        try:
            value = json.loads(result["text"])
        except ValueError:
            return {"output": result["text"]}
    if isinstance(value, dict):
        return value
    if isinstance(value, list):
        return {str(i): item for i, item in enumerate(value)}
    return {"output": value}


def run(case):
    contents, exchanges, issued = [], [], 0
    model = case.get("model", "gemini-2.5-flash")
    for number, exchange in enumerate(case["exchanges"], 1):
        if "user" in exchange:
            contents.append({"role": "user", "parts": [{"text": exchange["user"]}]})
        body = {"contents": contents}
        if "tools" in case["options"]:
            body["tools"] = case["options"]["tools"]
        if "tool_mode" in exchange:
            body["toolConfig"] = {"functionCallingConfig": {"mode": exchange["tool_mode"]}}
        try:
            answer = post(case["base_url"], model, body)
        except (urllib.error.URLError, ValueError) as error:
            refusal = {"code": "http.error", "phase": "http", "exchange": number,
                       "message": type(error).__name__}
            return {"type": "report", "exchanges": exchanges, "refusal": refusal}
        try:
            parts = answer["candidates"][0]["content"]["parts"]
        except (KeyError, IndexError, TypeError):
            refusal = {"code": "response.malformed", "phase": "parse", "exchange": number,
                       "message": "the answer holds no candidate with parts"}
            return {"type": "report", "exchanges": exchanges, "refusal": refusal}
        contents.append({"role": "model", "parts": parts})  # replayed as received
        calls = []
        for part in parts:
            if "functionCall" in part:
                issued += 1
                call = part["functionCall"]
                calls.append({"id": f"tc_{issued}", "name": call["name"],
                              "arguments": call.get("args", {}), "native_id": call.get("id")})
        exchanges.append({"request_built": True, "response_parsed": True,
                          "calls": [{key: c[key] for key in ("id", "name", "arguments")}
                                    for c in calls]})
        results = (exchange.get("then") or {}).get("results", [])
        if not results:
            continue
        answers, answered = [], []
        for index, call in enumerate(calls):  # in call order
            chosen = next((n for n, r in enumerate(results) if r["call"] == index), None)
            if chosen is None:
                return {"type": "skipped", "reason": "results chosen by name and arguments"}
            response = {"name": call["name"], "response": as_object(results[chosen])}
            if call["native_id"] is not None:
                response["id"] = call["native_id"]
            answers.append({"functionResponse": response})
            answered.append({"result": chosen, "call": call["id"]})  # which call it answered
        exchanges[-1]["answered"] = answered
        contents.append({"role": "user", "parts": answers})
    return {"type": "report", "exchanges": exchanges, "refusal": None}


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        send({"type": "hello", "protocol": 1, "name": "minimal-example", "version": "1",
              "language": "Python", "capabilities": []})
    elif message["type"] == "run_case":
        try:
            reply = run(message)
        except Exception as error:  # the driver's own failure, not the adapter's refusal
            reply = {"type": "errored", "context": type(error).__name__}
        reply["seq"] = message["seq"]
        send(reply)
    elif message["type"] == "stop":
        break

"""A stdio MCP server written by hand (no SDK), so that its tools/list can say what no SDK server would.

``HOSTILE_TOOLS`` is a file holding a JSON list of tool definitions, sent as they are. Every
``tools/call`` answers with its arguments echoed as text (with ``HOSTILE_ECHO_TOOL`` set, the
tool's name and its arguments), except the tool
named ``die`` (the process exits mid-call), ``slow`` (answers after
``seconds``) and ``chatty`` (sends progress as fast as it can for ``seconds``, each
report with a message of ``size`` characters, then answers) and ``verbatim`` (answers with
its argument ``result`` as the whole result); ``ask`` puts a question to its caller, the
value of the variable its argument ``message_env`` names.
"""

import json
import os
import sys
import time

with open(os.environ["HOSTILE_TOOLS"], encoding="utf-8") as file:
    TOOLS = json.load(file)


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        continue
    method, ident = request.get("method"), request.get("id")
    if ident is None:
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": ident, "result": {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "hostile", "version": "0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        params = request.get("params") or {}
        if params.get("name") == "die":
            os._exit(9)
        if params.get("name") == "chatty":
            # Progress as fast as it can, each with a message of ``size`` characters, for ``seconds``; then the answer.
            arguments = params.get("arguments") or {}
            token = (params.get("_meta") or {}).get("progressToken")
            for value in arguments.get("values", []) if token is not None else []:
                # Each of ``values`` (text, so that "NaN" can be asked for) as a report, then the answer.
                send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": float(value), "total": float(arguments.get("total", "10"))}})
                time.sleep(0.05)  # one at a time: reports that come together are coalesced to the newest
            until, step = time.monotonic() + float(arguments.get("seconds", 1)), 0
            while token is not None and time.monotonic() < until:
                step += 1
                # With ``message_env``, the message is that variable's value (a server that tells more than it should).
                message = os.environ.get(arguments["message_env"], "") if "message_env" in arguments else "m" * int(arguments.get("size", 10))
                send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": step, "message": message}})
                time.sleep(0.002)
        if params.get("name") == "ask":
            # Asks its caller (elicitation/create) with the value of the variable ``message_env`` as the question.
            arguments = params.get("arguments") or {}
            question = {"message": os.environ.get(arguments.get("message_env", ""), "?"), "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}
            send({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create", "params": question})
            while (reply := json.loads(sys.stdin.readline() or "{}")).get("id") != "ask-1" and reply:
                pass
            send({"jsonrpc": "2.0", "id": ident, "result": {"content": [{"type": "text", "text": json.dumps(reply.get("result"))}]}})
            continue
        if params.get("name") == "verbatim":
            # Answers with the result it is given, as it is: whatever a server could send.
            send({"jsonrpc": "2.0", "id": ident, "result": (params.get("arguments") or {}).get("result")})
            continue
        if params.get("name") == "slow":
            time.sleep(float((params.get("arguments") or {}).get("seconds", 1)))
        echoed = {"tool": params.get("name"), "arguments": params.get("arguments")} if os.environ.get("HOSTILE_ECHO_TOOL") else params.get("arguments")
        send({"jsonrpc": "2.0", "id": ident, "result": {"content": [{"type": "text", "text": json.dumps(echoed, ensure_ascii=False)}]}})
    else:
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}})

#!/usr/bin/env python3
"""The pages of a ludusd with the toy kind, for tests/web/test_toykind.sh.

A ludusd cannot have it (its store keeps the built-in kinds alone), so
this serves what one would: the real templates of web/ filled as
src/http/http_pages.c fills them, the real script and style sheet, and
the answers tests/web/toyjson made with the server's own code (kinds.json,
game.json, board.svg in DATA).  The writes are answered as the server
answers a create and a move, and each body is appended to DATA/posts, one
line of JSON a write, for the test to read.

    toysite.py WEB DATA    (prints "port N" once it listens on loopback)
"""
import http.server
import json
import os
import re
import sys

WEB, DATA = sys.argv[1], sys.argv[2]
TYPES = {".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def fill(template, slots):
    """{{name}} replaced by its slot, an unknown one by nothing."""
    return re.sub(r"\{\{([a-z_]+)\}\}", lambda m: slots.get(m.group(1), ""),
                  read(os.path.join(WEB, template)))


def pages():
    return {
        "/": ("index.html", {"title": "Games", "version": "toy"}),
        "/games/t1": ("game.html", {
            "id": "t1", "kind": "toy", "kind_title": "Toy", "moves": "4",
            "seq": "4", "status": "P2 to move.",
            "svg": read(os.path.join(DATA, "board.svg")),
            "caption": "The board now, after 4 moves.", "version": "toy"}),
    }


class Handler(http.server.BaseHTTPRequestHandler):
    def send(self, status, ctype, body):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?")[0]
        page = pages().get(path)
        json_files = {"/api/kinds": "kinds.json", "/api/games/t1": "game.json",
                      "/games/t1.svg": "board.svg"}
        if page:
            self.send(200, "text/html; charset=utf-8", fill(*page))
        elif path in json_files:
            self.send(200, TYPES.get(os.path.splitext(path)[1],
                                     "application/json"),
                      read(os.path.join(DATA, json_files[path])))
        elif path.startswith("/static/") and "/" not in path[8:] and \
                os.path.splitext(path)[1] in TYPES:
            self.send(200, TYPES[os.path.splitext(path)[1]],
                      read(os.path.join(WEB, path[8:])))
        else:
            self.send(404, "application/json",
                      '{"error":"NOTFOUND","message":"no such page"}\n')

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(os.path.join(DATA, "posts"), "a", encoding="utf-8") as f:
            f.write(self.path + " " + json.dumps(json.loads(body),
                                                 sort_keys=True) + "\n")
        if self.path == "/api/games":
            self.send(201, "application/json", json.dumps(
                {"id": "t1", "kind": "toy", "result": "OK", "seats": []}))
        elif self.path == "/api/games/t1/moves":
            self.send(200, "application/json",
                      json.dumps({"id": "t1", "result": "MOVED"}))
        else:
            self.send(404, "application/json",
                      '{"error":"NOTFOUND","message":"no such endpoint"}\n')

    def log_message(self, fmt, *args):
        sys.stderr.write((fmt % args) + "\n")


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print("port %d" % server.server_address[1], flush=True)
server.serve_forever()

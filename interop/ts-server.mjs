// ts-server.mjs serves the interop fixture (the same tools, prompts,
// resources and answers as bench/interop_*_test.go) with the TypeScript SDK
// (@modelcontextprotocol/sdk), for gomcp's client to talk to.
//
//   node ts-server.mjs                 stdio
//   node ts-server.mjs --http 0        streamable HTTP (stateful sessions) at /mcp
//   node ts-server.mjs --sse 0         HTTP+SSE (2024-11-05): GET /sse, POST /messages
//
// With --http or --sse it prints "ts-server: listening on http://127.0.0.1:PORT"
// to stderr once it accepts connections, and serves until killed.

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { fixture as F } from './fixture.mjs';

// Process-wide flags, so that wait_status and roots_changed see what
// happened in an earlier request of any session.
const flags = { cancelled: newFlag(), rootsChanged: newFlag() };

function newFlag() {
  let set;
  const p = new Promise((resolve) => { set = resolve; });
  // The timers are unref'd so that they never keep a stdio server alive
  // after its input closed.
  return { set: () => set(true), wait: (ms) => Promise.race([p, new Promise((r) => setTimeout(() => r(false), ms).unref())]) };
}

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const firstText = (content) => {
  const list = Array.isArray(content) ? content : [content];
  const t = list.find((c) => c && c.type === 'text');
  return t ? t.text : '';
};

// newServer builds one McpServer with the whole fixture.
function newServer() {
  const server = new McpServer(
    { name: F.serverName, version: F.serverVersion },
    { instructions: F.instructions, capabilities: { logging: {}, completions: {} } },
  );
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => flags.rootsChanged.set());

  server.registerTool('echo', { description: 'echo the text back', inputSchema: { text: z.string() } },
    async ({ text: t }) => text(t));
  server.registerTool('add', {
    description: 'add two integers',
    inputSchema: { a: z.number().int(), b: z.number().int() },
    outputSchema: { sum: z.number().int() },
  }, async ({ a, b }) => ({ content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }], structuredContent: { sum: a + b } }));
  server.registerTool('fail', {}, async () => ({ content: [{ type: 'text', text: F.failText }], isError: true }));
  server.registerTool('progress', {}, async (extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= 3; i++) {
      if (token !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3, message: `step ${i}` } });
      }
    }
    return text(F.progressDone);
  });
  server.registerTool('log', {}, async (extra) => {
    for (const level of ['debug', 'info', 'error']) {
      await server.sendLoggingMessage({ level, logger: F.logger, data: `log-${level}` }, extra.sessionId);
    }
    return text(F.logged);
  });
  server.registerTool('wait', {}, async (extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 0 } });
    }
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 20000).unref();
      extra.signal.addEventListener('abort', () => { clearTimeout(timer); flags.cancelled.set(); resolve(); });
    });
    return text('not cancelled');
  });
  server.registerTool('wait_status', {}, async () => text((await flags.cancelled.wait(5000)) ? F.cancelled : 'not cancelled'));
  server.registerTool('sample', {}, async (extra) => {
    const res = await extra.sendRequest({ method: 'sampling/createMessage', params: {
      messages: [{ role: 'user', content: { type: 'text', text: F.sampleIn } }], maxTokens: 10,
    } }, CreateMessageResultSchema);
    return text(`sampled: ${firstText(res.content)} by ${res.model}`);
  });
  server.registerTool('elicit', {}, async (extra) => {
    const res = await extra.sendRequest({ method: 'elicitation/create', params: {
      message: F.elicitPrompt,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    } }, ElicitResultSchema);
    return text(`elicited: ${res.action} ${res.content?.name ?? ''}`.trim());
  });
  server.registerTool('roots', {}, async (extra) => {
    const res = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
    return text('roots: ' + res.roots.map((r) => r.uri).join(','));
  });
  server.registerTool('roots_changed', {}, async () =>
    text((await flags.rootsChanged.wait(5000)) ? F.rootsChanged : 'roots did not change'));
  server.registerTool('media', {}, async () => ({ content: [
    { type: 'image', data: F.blobBase64, mimeType: 'image/png' },
    { type: 'resource', resource: { uri: F.embeddedURI, mimeType: 'text/plain', text: F.embeddedText } },
  ] }));
  server.registerTool('change', {}, async () => {
    server.registerTool(F.addedTool, {}, async () => text(F.addedTool));
    return text(F.changed);
  });

  server.registerPrompt(F.promptName, {
    description: 'greets someone',
    argsSchema: { name: completable(z.string(), (v) => F.nameCandidates.filter((c) => c.startsWith(v))) },
  }, ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] }));

  server.registerResource('static', F.staticURI, { mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: F.staticText }] }));
  server.registerResource('blob', F.blobURI, { mimeType: 'application/octet-stream' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/octet-stream', blob: F.blobBase64 }] }));
  server.registerResource('items', new ResourceTemplate(F.template, {
    list: undefined,
    complete: { id: (v) => F.idCandidates.filter((c) => c.startsWith(v)) },
  }), { mimeType: 'text/plain' }, async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: `item ${id}` }] }));
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw ? JSON.parse(raw) : undefined;
}

// serveStreamable serves one stateful McpServer per session at /mcp.
function serveStreamable(req, res, sessions) {
  return (async () => {
    const id = req.headers['mcp-session-id'];
    let body;
    if (req.method === 'POST') {
      try {
        body = await readBody(req);
      } catch {
        res.writeHead(400).end('invalid JSON');
        return;
      }
    }
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id || req.method !== 'POST' || !body || body.method !== 'initialize') {
        // Unknown session, or a first request that is not initialize (a
        // 2026-07-28 request): the SDK's transport answers it.
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
        await transport.handleRequest(req, res, body);
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  })();
}

// serveSSE serves the 2024-11-05 HTTP+SSE transport.
function serveSSE(req, res, sessions) {
  return (async () => {
    const url = new URL(req.url, 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => sessions.delete(transport.sessionId);
      await newServer().connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = sessions.get(url.searchParams.get('sessionId'));
      if (!transport) {
        res.writeHead(404).end('unknown session');
        return;
      }
      await transport.handlePostMessage(req, res, await readBody(req));
      return;
    }
    res.writeHead(404).end();
  })();
}

function listen(handler) {
  const sessions = new Map();
  const srv = http.createServer((req, res) => {
    handler(req, res, sessions).catch((err) => {
      process.stderr.write(`ts-server: ${err?.stack ?? err}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const port = Number(process.argv[3] ?? 0);
  srv.listen(port, '127.0.0.1', () => {
    process.stderr.write(`ts-server: listening on http://127.0.0.1:${srv.address().port}\n`);
  });
}

const mode = process.argv[2];
if (mode === '--http') {
  listen(serveStreamable);
} else if (mode === '--sse') {
  listen(serveSSE);
} else if (mode === undefined) {
  await newServer().connect(new StdioServerTransport());
} else {
  process.stderr.write('usage: node ts-server.mjs [--http PORT | --sse PORT]\n');
  process.exit(2);
}

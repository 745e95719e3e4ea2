// ts-checks-interop.mjs: the checks the TypeScript client runs against
// gomcp's interop fixture server (bench/interop_ours_test.go), the same as
// the Go scenario in bench/interop_scenario_test.go.

import { fixture as F } from './fixture.mjs';

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// waitFor polls cond every 5 ms for up to ms.
export async function waitFor(ms, cond) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await sleep(5);
  }
  return true;
}

// listAll follows nextCursor through every page of a list method.
export async function listAll(fn, key) {
  const out = [];
  let cursor;
  for (let pages = 0; pages < 100; pages++) {
    const res = await fn(cursor ? { cursor } : undefined);
    out.push(...res[key]);
    cursor = res.nextCursor;
    if (!cursor) return out;
  }
  throw new Error(`${key}: more than 100 pages`);
}

// oneText checks a tool result of one text block equal to want.
export function oneText(res, want) {
  const c = res.content ?? [];
  assert(!res.isError && c.length === 1 && c[0].type === 'text' && c[0].text === want,
    `got ${JSON.stringify(res)}, want one text ${JSON.stringify(want)}`);
}

// mustFail checks that a call failed, as a JSON-RPC error or a tool error.
export async function mustFail(p) {
  let res;
  try {
    res = await p;
  } catch {
    return;
  }
  assert(res.isError, `call succeeded: ${JSON.stringify(res)}`);
}

const call = (s, name, args = {}, opts) => s.client.callTool({ name, arguments: args }, undefined, opts);

export const interopChecks = [
  ['initialize', async (s) => {
    const v = s.client.getServerVersion();
    assert(v?.name === F.serverName && v?.version === F.serverVersion, `server info ${JSON.stringify(v)}`);
    assert(s.client.getInstructions() === F.instructions, `instructions ${s.client.getInstructions()}`);
    const caps = s.client.getServerCapabilities() ?? {};
    for (const c of ['tools', 'prompts', 'resources', 'logging', 'completions']) assert(caps[c], `capabilities ${JSON.stringify(caps)} lack ${c}`);
    assert(s.version === '2025-11-25', `protocol version ${s.version}, want 2025-11-25`);
  }],
  ['ping', (s) => s.client.ping()],
  ['tools-list', async (s) => {
    const tools = await listAll((p) => s.client.listTools(p), 'tools');
    const names = tools.map((t) => t.name);
    for (const n of ['echo', 'add', 'fail', 'progress', 'log', 'wait', 'wait_status', 'sample', 'elicit', 'roots', 'roots_changed', 'media', 'change']) {
      assert(names.includes(n), `tool ${n} missing from ${names}`);
    }
    const add = tools.find((t) => t.name === 'add');
    assert(add.outputSchema, 'add has no outputSchema');
  }],
  ['tools-call-text', async (s) => oneText(await call(s, 'echo', { text: 'héllo "wörld"\n\t<&> 😀' }), 'héllo "wörld"\n\t<&> 😀')],
  ['tools-call-structured', async (s) => {
    // The TS client checks structuredContent against the tool's
    // outputSchema (it lists the tools first to learn it).
    const res = await call(s, 'add', { a: 2, b: 3 });
    assert(!res.isError && res.structuredContent?.sum === 5, `got ${JSON.stringify(res)}`);
    assert(JSON.parse(res.content[0].text).sum === 5, `text fallback ${res.content[0].text}`);
  }],
  ['tools-call-is-error', async (s) => {
    const res = await call(s, 'fail');
    assert(res.isError && res.content?.[0]?.text === F.failText, `got ${JSON.stringify(res)}`);
  }],
  ['tools-call-media', async (s) => {
    const res = await call(s, 'media');
    const got = res.content.map((c) => c.type === 'image' ? `image:${c.mimeType}:${c.data}`
      : c.type === 'resource' ? `resource:${c.resource.uri}:${c.resource.mimeType}:${c.resource.text}` : c.type);
    const want = [`image:image/png:${F.blobBase64}`, `resource:${F.embeddedURI}:text/plain:${F.embeddedText}`];
    assert(JSON.stringify(got) === JSON.stringify(want), `content ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }],
  ['tools-call-unknown-tool', (s) => mustFail(call(s, 'no_such_tool'))],
  ['tools-call-invalid-arguments', (s) => mustFail(call(s, 'echo', { text: 5 }))],
  ['progress', async (s) => {
    const got = [];
    oneText(await call(s, 'progress', {}, { onprogress: (p) => got.push(p.progress) }), F.progressDone);
    assert(JSON.stringify(got) === '[1,2,3]', `progress ${JSON.stringify(got)}, want [1,2,3]`);
  }],
  ['logging', async (s) => {
    await s.client.setLoggingLevel('info');
    oneText(await call(s, 'log'), F.logged);
    await waitFor(2000, () => s.ev.logs.length >= 2);
    await sleep(20);
    const want = ['info:log-info', 'error:log-error'];
    assert(JSON.stringify(s.ev.logs) === JSON.stringify(want), `logs ${JSON.stringify(s.ev.logs)}, want ${JSON.stringify(want)}`);
  }],
  ['cancellation', async (s) => {
    const ac = new AbortController();
    let started = false;
    const p = call(s, 'wait', {}, { signal: ac.signal, onprogress: () => { started = true; } });
    const caught = p.then(() => new Error('wait returned instead of being cancelled'), (e) => e);
    assert(await waitFor(5000, () => started), 'wait never reported progress 0');
    ac.abort('test cancels');
    const err = await caught;
    assert(err?.name === 'AbortError' || /abort|cancel/i.test(String(err)), `cancelled call ended with ${err}`);
    oneText(await call(s, 'wait_status'), F.cancelled);
  }],
  ['sampling', async (s) => oneText(await call(s, 'sample'), `sampled: ${F.sampleOut} by ${F.model}`)],
  ['elicitation', async (s) => oneText(await call(s, 'elicit'), `elicited: accept ${F.elicitName}`)],
  ['roots', async (s) => oneText(await call(s, 'roots'), `roots: ${F.rootURI}`)],
  ['roots-list-changed', async (s) => {
    await s.client.sendRootsListChanged();
    oneText(await call(s, 'roots_changed'), F.rootsChanged);
  }],
  ['prompts-list', async (s) => {
    const prompts = await listAll((p) => s.client.listPrompts(p), 'prompts');
    const greet = prompts.find((p) => p.name === F.promptName);
    assert(greet && greet.arguments?.length === 1 && greet.arguments[0].name === 'name' && greet.arguments[0].required,
      `greet is ${JSON.stringify(greet)}`);
  }],
  ['prompts-get', async (s) => {
    const res = await s.client.getPrompt({ name: F.promptName, arguments: { name: F.elicitName } });
    const m = res.messages;
    assert(m.length === 1 && m[0].role === 'user' && m[0].content.text === `Hello, ${F.elicitName}!`, `messages ${JSON.stringify(m)}`);
  }],
  ['resources-list', async (s) => {
    const rs = await listAll((p) => s.client.listResources(p), 'resources');
    const has = (uri, name, mime) => rs.some((r) => r.uri === uri && r.name === name && r.mimeType === mime);
    assert(has(F.staticURI, 'static', 'text/plain') && has(F.blobURI, 'blob', 'application/octet-stream'), `resources ${JSON.stringify(rs)}`);
  }],
  ['resources-read', async (s) => {
    const t = (await s.client.readResource({ uri: F.staticURI })).contents;
    assert(t.length === 1 && t[0].text === F.staticText && t[0].mimeType === 'text/plain', `read static: ${JSON.stringify(t)}`);
    const b = (await s.client.readResource({ uri: F.blobURI })).contents;
    assert(b.length === 1 && b[0].blob === F.blobBase64 && b[0].mimeType === 'application/octet-stream', `read blob: ${JSON.stringify(b)}`);
  }],
  ['resources-read-missing', async (s) => {
    let err;
    try {
      await s.client.readResource({ uri: 'test://missing' });
    } catch (e) {
      err = e;
    }
    assert(err, 'read test://missing succeeded');
    assert(err.code === -32002, `read test://missing: code ${err.code} (${err.message}), want -32002`);
  }],
  ['resources-templates-list', async (s) => {
    const ts = await listAll((p) => s.client.listResourceTemplates(p), 'resourceTemplates');
    assert(ts.some((t) => t.uriTemplate === F.template), `templates ${JSON.stringify(ts)}`);
  }],
  ['resources-read-template', async (s) => {
    const c = (await s.client.readResource({ uri: 'test://items/42' })).contents;
    assert(c.length === 1 && c[0].text === 'item 42', `read test://items/42: ${JSON.stringify(c)}`);
  }],
  ['completion-prompt', async (s) => {
    const res = await s.client.complete({ ref: { type: 'ref/prompt', name: F.promptName }, argument: { name: 'name', value: 'A' } });
    assert(JSON.stringify([...res.completion.values].sort()) === '["Ada","Alan"]', `values ${JSON.stringify(res.completion.values)}`);
  }],
  ['completion-resource', async (s) => {
    const res = await s.client.complete({ ref: { type: 'ref/resource', uri: F.template }, argument: { name: 'id', value: '1' } });
    assert(JSON.stringify([...res.completion.values].sort()) === '["1","10"]', `values ${JSON.stringify(res.completion.values)}`);
  }],
  ['tools-list-changed', async (s) => {
    const before = s.ev.toolsChanged;
    oneText(await call(s, 'change'), F.changed);
    assert(await waitFor(3000, () => s.ev.toolsChanged > before), 'no notifications/tools/list_changed within 3s');
    const tools = await listAll((p) => s.client.listTools(p), 'tools');
    assert(tools.some((t) => t.name === F.addedTool), `tool ${F.addedTool} not listed after change`);
  }],
];

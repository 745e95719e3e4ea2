// ts-checks-gomcp.mjs: the checks the TypeScript client runs against
// gomcp's example server (examples/hello) and conformance server
// (conformance/everything-server).

import { fixture as F } from './fixture.mjs';
import { assert, listAll, mustFail, oneText, sleep, waitFor } from './ts-checks-interop.mjs';

const call = (s, name, args = {}, opts) => s.client.callTool({ name, arguments: args }, undefined, opts);

const versionCheck = ['protocol-version', async (s) => assert(s.version === '2025-11-25', `negotiated ${s.version}, want 2025-11-25`)];

export const helloChecks = [
  ['initialize', async (s) => {
    const v = s.client.getServerVersion();
    assert(v?.name === 'greeter' && v?.version === 'v1.0.0', `server info ${JSON.stringify(v)}`);
    assert(s.client.getServerCapabilities()?.tools, 'no tools capability');
  }],
  versionCheck,
  ['ping', (s) => s.client.ping()],
  ['tools-list', async (s) => {
    const tools = await listAll((p) => s.client.listTools(p), 'tools');
    const greet = tools.find((t) => t.name === 'greet');
    assert(greet && greet.inputSchema?.type === 'object' && greet.inputSchema.properties?.name?.type === 'string',
      `greet is ${JSON.stringify(greet)}`);
  }],
  ['tools-call', async (s) => oneText(await call(s, 'greet', { name: 'TypeScript' }), 'Hi TypeScript')],
  ['tools-call-unicode', async (s) => oneText(await call(s, 'greet', { name: 'wörld "😀"' }), 'Hi wörld "😀"')],
  ['tools-call-invalid-arguments', (s) => mustFail(call(s, 'greet', { name: 42 }))],
  ['tools-call-unknown-tool', (s) => mustFail(call(s, 'no_such_tool'))],
];

const simple = (name, want) => [name, async (s) => oneText(await call(s, name), want)];

export const everythingChecks = [
  ['initialize', async (s) => {
    const v = s.client.getServerVersion();
    assert(v?.name === 'everything-server', `server info ${JSON.stringify(v)}`);
    const caps = s.client.getServerCapabilities() ?? {};
    for (const c of ['tools', 'prompts', 'resources', 'logging', 'completions']) assert(caps[c], `capabilities lack ${c}`);
    assert(caps.resources.subscribe, 'resources.subscribe not declared');
  }],
  versionCheck,
  ['ping', (s) => s.client.ping()],
  ['tools-list', async (s) => {
    // The TS client parses every tool with its zod schemas, including the
    // 2020-12 keywords of json_schema_2020_12_tool.
    const tools = await listAll((p) => s.client.listTools(p), 'tools');
    const names = tools.map((t) => t.name);
    for (const n of ['test_simple_text', 'test_image_content', 'test_sampling', 'json_schema_2020_12_tool']) assert(names.includes(n), `no tool ${n}`);
    const js = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    assert(js.inputSchema.$defs?.address && js.inputSchema.additionalProperties === false, `json_schema_2020_12_tool: ${JSON.stringify(js.inputSchema)}`);
  }],
  simple('test_simple_text', 'This is a simple text response for testing.'),
  ['test_image_content', async (s) => {
    const c = (await call(s, 'test_image_content')).content;
    assert(c.length === 1 && c[0].type === 'image' && c[0].mimeType === 'image/png' && Buffer.from(c[0].data, 'base64').subarray(1, 4).toString() === 'PNG', `content ${JSON.stringify(c)}`);
  }],
  ['test_audio_content', async (s) => {
    const c = (await call(s, 'test_audio_content')).content;
    assert(c.length === 1 && c[0].type === 'audio' && c[0].mimeType === 'audio/wav' && Buffer.from(c[0].data, 'base64').subarray(0, 4).toString() === 'RIFF', `content ${JSON.stringify(c)}`);
  }],
  ['test_embedded_resource', async (s) => {
    const c = (await call(s, 'test_embedded_resource')).content;
    assert(c.length === 1 && c[0].type === 'resource' && c[0].resource.text === 'This is an embedded resource content.', `content ${JSON.stringify(c)}`);
  }],
  ['test_multiple_content_types', async (s) => {
    const types = (await call(s, 'test_multiple_content_types')).content.map((c) => c.type);
    assert(JSON.stringify(types) === '["text","image","resource"]', `types ${types}`);
  }],
  ['test_error_handling', async (s) => {
    const res = await call(s, 'test_error_handling');
    assert(res.isError && res.content[0].text === 'This tool intentionally returns an error for testing', `got ${JSON.stringify(res)}`);
  }],
  ['test_tool_with_logging', async (s) => {
    await s.client.setLoggingLevel('info');
    oneText(await call(s, 'test_tool_with_logging'), 'Logging test completed');
    await waitFor(2000, () => s.ev.logs.length >= 3);
    const want = ['info:Tool execution started', 'info:Tool processing data', 'info:Tool execution completed'];
    assert(JSON.stringify(s.ev.logs) === JSON.stringify(want), `logs ${JSON.stringify(s.ev.logs)}`);
  }],
  ['test_tool_with_progress', async (s) => {
    const got = [];
    oneText(await call(s, 'test_tool_with_progress', {}, { onprogress: (p) => got.push(p.progress) }), 'Progress test completed');
    assert(JSON.stringify(got) === '[0,50,100]', `progress ${JSON.stringify(got)}`);
  }],
  ['test_sampling', async (s) => oneText(await call(s, 'test_sampling', { prompt: 'Say hi' }), 'LLM response: answer to Say hi')],
  ['test_elicitation', async (s) => oneText(await call(s, 'test_elicitation', { message: 'Who are you?' }),
    'User response: action=accept, content={"email":"email-value","username":"username-value"}')],
  ['test_elicitation_sep1034_defaults', async (s) => oneText(await call(s, 'test_elicitation_sep1034_defaults'),
    'Elicitation completed: action=accept, content={"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}')],
  ['test_input_required_result_multiple_inputs (legacy: real requests)', async (s) => oneText(
    await call(s, 'test_input_required_result_multiple_inputs'),
    `name=${F.elicitName}; greeting=answer to Generate a greeting; roots=[${F.rootURI}]`)],
  ['test_input_required_result_multi_round (legacy: real requests)', async (s) => oneText(
    await call(s, 'test_input_required_result_multi_round'), 'Hello, name-value! Your favorite color is color-value.')],
  ['test_reconnection', async (s) => {
    const res = await call(s, 'test_reconnection');
    assert(!res.isError && res.content[0].text.startsWith('Reconnection test completed'), `got ${JSON.stringify(res)}`);
  }],
  ['prompts', async (s) => {
    const simpleP = await s.client.getPrompt({ name: 'test_simple_prompt' });
    assert(simpleP.messages[0].content.text === 'This is a simple prompt for testing.', JSON.stringify(simpleP));
    const args = await s.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    assert(args.messages[0].content.text === "Prompt with arguments: arg1='a', arg2='b'", JSON.stringify(args));
    const img = await s.client.getPrompt({ name: 'test_prompt_with_image' });
    assert(img.messages[0].content.type === 'image' && img.messages[0].content.mimeType === 'image/png', JSON.stringify(img));
    const emb = await s.client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://x' } });
    assert(emb.messages[0].content.type === 'resource' && emb.messages[0].content.resource.uri === 'test://x', JSON.stringify(emb));
  }],
  ['prompts-get-missing-argument', (s) => mustFail(s.client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } }))],
  ['resources', async (s) => {
    const rs = await listAll((p) => s.client.listResources(p), 'resources');
    assert(rs.some((r) => r.uri === 'test://static-text') && rs.some((r) => r.uri === 'test://static-binary'), JSON.stringify(rs));
    const t = (await s.client.readResource({ uri: 'test://static-text' })).contents[0];
    assert(t.text === 'This is the content of the static text resource.' && t.mimeType === 'text/plain', JSON.stringify(t));
    const b = (await s.client.readResource({ uri: 'test://static-binary' })).contents[0];
    assert(b.mimeType === 'image/png' && Buffer.from(b.blob, 'base64').subarray(1, 4).toString() === 'PNG', JSON.stringify(b));
  }],
  ['resources-template', async (s) => {
    const ts = await listAll((p) => s.client.listResourceTemplates(p), 'resourceTemplates');
    assert(ts.some((t) => t.uriTemplate === 'test://template/{id}/data'), JSON.stringify(ts));
    const c = (await s.client.readResource({ uri: 'test://template/7/data' })).contents[0];
    assert(JSON.parse(c.text).id === '7' && c.mimeType === 'application/json', JSON.stringify(c));
  }],
  ['resources-read-missing', async (s) => {
    let err;
    try {
      await s.client.readResource({ uri: 'test://missing' });
    } catch (e) {
      err = e;
    }
    assert(err?.code === -32002, `read test://missing: ${err?.code} ${err?.message}, want error -32002`);
  }],
  ['resources-subscribe', async (s) => {
    await s.client.subscribeResource({ uri: 'test://watched-resource' });
    assert(await waitFor(5000, () => s.ev.updated.includes('test://watched-resource')), 'no notifications/resources/updated within 5s');
    await s.client.unsubscribeResource({ uri: 'test://watched-resource' });
  }],
  ['completion', async (s) => {
    const res = await s.client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'pa' } });
    assert(JSON.stringify(res.completion.values) === '["paris","park","party"]', JSON.stringify(res.completion));
  }],
  ['tools-list-changed', async (s) => {
    const before = s.ev.toolsChanged;
    await call(s, 'test_trigger_tool_change');
    assert(await waitFor(3000, () => s.ev.toolsChanged > before), 'no notifications/tools/list_changed within 3s');
    await sleep(10);
  }],
];

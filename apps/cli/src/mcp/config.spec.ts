import { readFileSync } from 'node:fs';
import path from 'node:path';
import { McpConfigError, parseMcpConfig } from './config';
import { operationOf } from './mapping';
import { renderTemplate, templateProblem } from './templates';

const problemsOf = (text: string, file = '/cfg/proxy.yaml') => {
  try {
    parseMcpConfig(file, text);
  } catch (err) {
    if (err instanceof McpConfigError) return err.message.split('\n');
    throw err;
  }
  throw new Error('the configuration was accepted');
};

describe('MCP proxy configuration', () => {
  it("reads the example file with its defaults: key variable, return, 300 s, the command run in the file's folder", () => {
    const file = path.resolve(__dirname, '../../../../examples/mcp/arbiter-mcp.yaml');
    const config = parseMcpConfig(file, readFileSync(file, 'utf8'));
    expect(config).toEqual({
      verdictUrl: undefined,
      tenant: undefined,
      apiKeyEnv: 'ARBITER_API_KEY',
      upstreams: [{ name: 'bank', kind: 'stdio', command: 'node', args: ['bank-server.mjs'], env: {}, cwd: path.dirname(file) }],
      scope: { region: 'eu' },
      tools: {
        'bank.transfer': { action: 'bank.transfer', resource: 'acct:${args.from}' },
        'bank.balance': { action: 'bank.balance', resource: 'acct:${args.account}' },
        'bank.close_account': { action: 'bank.close_account', resource: 'acct:${args.account}' },
      },
      onApproval: 'return',
      waitSeconds: 300,
    });
  });

  it('reads every key', () => {
    const config = parseMcpConfig(
      '/cfg/proxy.yaml',
      `verdict_url: https://arbiter.example/
tenant: acme
api_key_env: BANK_AGENT_KEY
upstreams:
  - {name: files, command: npx, args: [-y, server-files, 7], env: {ROOT: /srv, DEPTH: 3}, cwd: ../work}
  - {name: crm, url: "http://127.0.0.1:9000/mcp"}
scope: {region: eu, env: prod}
tools:
  crm.update: {scope: {team: "\${args.team}"}}
  files.write: {action: files.write}
on_approval: wait
wait_seconds: 30
`,
    );
    expect(config).toMatchObject({
      verdictUrl: 'https://arbiter.example/',
      tenant: 'acme',
      apiKeyEnv: 'BANK_AGENT_KEY',
      upstreams: [
        {
          name: 'files',
          kind: 'stdio',
          command: 'npx',
          args: ['-y', 'server-files', '7'],
          env: { ROOT: '/srv', DEPTH: '3' },
          cwd: '/work',
        },
        { name: 'crm', kind: 'http', url: 'http://127.0.0.1:9000/mcp' },
      ],
      tools: { 'crm.update': { scope: { team: '${args.team}' } }, 'files.write': { action: 'files.write' } },
      onApproval: 'wait',
      waitSeconds: 30,
    });
  });

  it('names every problem at its key and line', () => {
    expect(
      problemsOf(`verdict_url: ftp://x
api_key_env: 9KEY
upstreams:
  - {name: "a.b", command: node}
  - {name: bank, command: node, url: "http://x"}
  - {name: crm, url: "not a url", headers: {}}
  - {name: crm3, command: node, args: {x: 1}}
  - {name: crm2, command: node}
  - {name: crm2, command: node}
scope: {region: [eu]}
tools:
  nowhere.tool: {}
  crm2: {}
  crm2.t: {action: "", resource: "acct:\${account}", colour: red}
on_approval: later
wait_seconds: 0
extra: 1
`),
    ).toEqual([
      "/cfg/proxy.yaml:1:14: verdict_url: verdict_url is the verdict gateway's base URL: https://…, or http:// on a loopback address only, since the API key goes with every check (for plain http elsewhere set ARBITER_VERDICT_URL instead)",
      '/cfg/proxy.yaml:2:14: api_key_env: api_key_env is the name of an environment variable (letters, digits, _)',
      '/cfg/proxy.yaml:4:12: upstreams[0].name: name is required: letters, digits, _ and - (it prefixes the tool names as <name>.<tool>)',
      '/cfg/proxy.yaml:5:5: upstreams[1]: an upstream has either command (a server started over stdio) or url (Streamable HTTP), not both',
      "/cfg/proxy.yaml:6:22: upstreams[2].url: url is the server's Streamable HTTP endpoint, an http(s) URL",
      '/cfg/proxy.yaml:6:35: upstreams[2].headers: unknown key "headers" (an http upstream has name, url)',
      '/cfg/proxy.yaml:7:39: upstreams[3].args: args is a list of strings',
      '/cfg/proxy.yaml:9:12: upstreams[5].name: the same name as upstreams[4]: each upstream has its own name',
      '/cfg/proxy.yaml:10:17: scope.region: a scope value is a string, a number or a boolean',
      '/cfg/proxy.yaml:12:3: tools.nowhere.tool: "nowhere.tool" names no upstream: the upstreams are crm2',
      '/cfg/proxy.yaml:13:3: tools.crm2: "crm2" is not <upstream>.<tool>',
      "/cfg/proxy.yaml:14:20: tools.crm2.t.action: action is the operation's name, e.g. payments.transfer",
      '/cfg/proxy.yaml:14:34: tools.crm2.t.resource: "${account}" is not a placeholder: write ${args.<argument>} or ${args.<argument>.<member>}',
      '/cfg/proxy.yaml:14:53: tools.crm2.t.colour: unknown key "colour" (a tool mapping has action, resource, scope)',
      '/cfg/proxy.yaml:15:14: on_approval: on_approval is return (answer with the pending approval) or wait (wait for its decision)',
      '/cfg/proxy.yaml:16:15: wait_seconds: wait_seconds is a number of seconds above 0, at most 86400',
      '/cfg/proxy.yaml:17:1: extra: unknown key "extra" (the configuration has verdict_url, tenant, api_key_env, upstreams, scope, tools, on_approval, wait_seconds)',
    ]);
  });

  it('sends the key over https, or plain http to this machine only: a cloned file cannot send it in clear elsewhere', () => {
    const upstreams = 'upstreams: [{name: bank, command: node}]\n';
    for (const url of ['https://arbiter.example', 'http://127.0.0.1:3002', 'http://localhost:3002/', 'http://[::1]:3002']) {
      expect(parseMcpConfig('/cfg/proxy.yaml', `verdict_url: "${url}"\n${upstreams}`).verdictUrl).toBe(url);
    }
    for (const url of ['http://arbiter.example', 'http://10.0.0.5:3002', 'http://127.0.0.1.nip.io', 'https://user:pw@arbiter.example']) {
      expect(problemsOf(`verdict_url: "${url}"\n${upstreams}`)).toEqual([
        expect.stringMatching(
          /^\/cfg\/proxy\.yaml:1:14: verdict_url: verdict_url is the verdict gateway's base URL: https:\/\/…, or http:\/\/ on a loopback address only/,
        ),
      ]);
    }
  });

  it('stops at YAML made to exhaust it (an alias bomb), at custom tags and at merge keys, naming the file', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdef'[i]}`).join(', ')}]`),
      'upstreams: [{name: x, command: y}]',
      '',
    ].join('\n');
    expect(problemsOf(bomb)).toEqual([
      '/cfg/proxy.yaml:1:1: the file uses aliases beyond reason (an alias bomb?): Excessive alias count indicates a resource exhaustion attack',
    ]);
    expect(problemsOf('upstreams: [{name: x, command: !!js/function "f"}]\n')).toEqual([
      '/cfg/proxy.yaml:1:32: Unresolved tag: tag:yaml.org,2002:js/function',
    ]);
    expect(problemsOf('base: &b {name: x, command: y}\nupstreams: [{<<: *b}]\n')[0]).toMatch(/unknown key "base"/);
  });

  it('keeps __proto__ a key like any other: it is refused, and pollutes nothing', () => {
    expect(problemsOf('__proto__: {verdict_url: "http://evil"}\nupstreams: [{name: x, command: y, env: {__proto__: {A: b}}}]\n')).toEqual([
      '/cfg/proxy.yaml:1:1: __proto__: unknown key "__proto__" (the configuration has verdict_url, tenant, api_key_env, upstreams, scope, tools, on_approval, wait_seconds)',
      '/cfg/proxy.yaml:2:52: upstreams[0].env.__proto__: an environment value is a string',
    ]);
    expect(({} as Record<string, unknown>).verdict_url).toBeUndefined();
  });

  it('needs upstreams, and reports YAML syntax errors at their line', () => {
    expect(problemsOf('scope: {}\n')).toEqual([
      '/cfg/proxy.yaml:1:1: upstreams: upstreams is required: a list of MCP servers, each {name, command, args?, env?, cwd?} or {name, url}',
    ]);
    expect(problemsOf('upstreams: [\n')[0]).toMatch(/^\/cfg\/proxy\.yaml:2:1: /);
    expect(problemsOf('- a\n')).toEqual(['/cfg/proxy.yaml:1:1: the configuration is a mapping with at least `upstreams`']);
  });
});

describe('templates over the arguments', () => {
  it('renders strings, numbers and booleans; absent and null arguments are missing', () => {
    expect(renderTemplate('acct:${args.from}/${args.t.n}/${args.ok}', { from: 'a-1', t: { n: 7 }, ok: false })).toEqual({
      ok: true,
      text: 'acct:a-1/7/false',
    });
    expect(renderTemplate('${args.a}:${args.b.c}:${args.a}', { a: null, b: 'text' })).toEqual({
      ok: false,
      missing: ['a', 'b.c'],
      notScalar: [],
    });
    expect(renderTemplate('${args.toString}', {})).toEqual({ ok: false, missing: ['toString'], notScalar: [] });
  });

  it('accepts ${args.<path>} only', () => {
    expect(templateProblem('acct:${ args.account }')).toBeNull();
    expect(templateProblem('plain')).toBeNull();
    expect(templateProblem('${env.HOME}')).toMatch(/is not a placeholder/);
    expect(templateProblem('${args}')).toMatch(/is not a placeholder/);
    expect(templateProblem('acct:${args.x')).toMatch(/not closed/);
  });
});

describe('the operation of a tool call', () => {
  const config = {
    scope: { region: 'eu', team: 'ops' },
    tools: { 'bank.transfer': { action: 'payments.transfer', resource: 'acct:${args.from}', scope: { team: '${args.team}', tier: 2 } } },
  };

  it('maps action, resource and scope, the arguments as parameters', () => {
    expect(operationOf(config, { upstream: 'bank', tool: 'transfer' }, { from: 'a-1', team: 'pay', amount: 5 })).toEqual({
      ok: true,
      call: {
        action: 'payments.transfer',
        resource: 'acct:a-1',
        scope: { region: 'eu', team: 'pay', tier: 2 },
        parameters: { from: 'a-1', team: 'pay', amount: 5 },
      },
    });
  });

  it("defaults to mcp.<upstream>.<tool> on mcp:<upstream>/<tool> in the file's scope", () => {
    expect(operationOf(config, { upstream: 'bank', tool: 'balance' }, {})).toEqual({
      ok: true,
      call: { action: 'mcp.bank.balance', resource: 'mcp:bank/balance', scope: { region: 'eu', team: 'ops' }, parameters: {} },
    });
  });

  it('names the arguments a template lacks instead of guessing', () => {
    expect(operationOf(config, { upstream: 'bank', tool: 'transfer' }, { amount: 5 })).toEqual({
      ok: false,
      missing: [
        {
          field: 'from',
          type: 'any',
          reason: 'absent; the proxy\'s resource "acct:${args.from}" of bank.transfer reads it',
          problems: ['absent'],
        },
        {
          field: 'team',
          type: 'any',
          reason: 'absent; the proxy\'s scope.team "${args.team}" of bank.transfer reads it',
          problems: ['absent'],
        },
      ],
      invalid: [],
    });
  });

  it('refuses an object or an array where a template takes a value: the upstream may read ["vip-1"] as vip-1', () => {
    expect(operationOf(config, { upstream: 'bank', tool: 'transfer' }, { from: ['vip-1'], team: { name: 'pay' } })).toEqual({
      ok: false,
      missing: [],
      invalid: [
        'the argument from is an object or an array, and the proxy\'s resource "acct:${args.from}" of bank.transfer takes a string, a number or a boolean',
        'the argument team is an object or an array, and the proxy\'s scope.team "${args.team}" of bank.transfer takes a string, a number or a boolean',
      ],
    });
  });
});

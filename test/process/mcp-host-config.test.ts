// The host configurations of docs/mcp.md, started as a host starts them: the official SDK client's
// stdio transport, which passes the server only a few variables of its own environment (HOME, PATH,
// …) and the config's `env` block. So a key exported in the shell never arrives, and the `env`
// block's does. The docs' absolute `command` and their placeholders stand for the built leadctl and
// the sandbox.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

interface ServerConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const DOC = readFileSync(join(import.meta.dirname, '../../docs/mcp.md'), 'utf8');
const CONFIGS = [...DOC.matchAll(/^```json\n([\s\S]*?)^```/gm)].map((block) => {
  const value = JSON.parse(block[1] ?? '') as {
    mcpServers?: Record<string, ServerConfig>;
    servers?: Record<string, ServerConfig>;
  };
  return {
    host: value.servers ? 'VS Code' : 'Claude Desktop',
    servers: value.servers ?? value.mcpServers ?? {},
  };
});

describe('the host configurations of docs/mcp.md', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ leads: 5, seed: 2 });
  });
  afterAll(() => sandbox.close());

  /** What the host does with the config; VS Code has asked for ${input:…} and put the answer in. */
  async function start(config: ServerConfig): Promise<Client> {
    const env = Object.fromEntries(
      Object.entries(config.env ?? {}).map(([name, value]) => [
        name,
        value
          .replace('https://api.example.com', sandbox.url)
          .replace(/^lk_live_…$|^\$\{input:lead-api-key\}$/, sandbox.apiKey),
      ]),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...config.args],
      // A test's own folders, so that no profile or ledger of the developer's is read.
      env: { ...env, XDG_CONFIG_HOME: tempDir('mcp-config'), XDG_STATE_HOME: tempDir('mcp-state') },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'host', version: '1' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    return client;
  }

  it('has a Claude Desktop and a VS Code config, each with an absolute command and an env block', () => {
    expect(CONFIGS.map((c) => c.host)).toEqual(expect.arrayContaining(['Claude Desktop', 'VS Code']));
    for (const { servers } of CONFIGS) {
      for (const config of Object.values(servers)) expect(config.command).toBe('/usr/local/bin/leadctl');
    }
    for (const host of ['Claude Desktop', 'VS Code']) {
      const first = Object.values(CONFIGS.find((c) => c.host === host)?.servers ?? {})[0];
      expect(first?.env, host).toHaveProperty('LEADCTL_API_KEY');
    }
  });

  it("serves with the env block's key, and never with one exported in the host's shell", async () => {
    process.env.LEADCTL_API_KEY = sandbox.apiKey;
    process.env.LEADCTL_BASE_URL = sandbox.url;
    onTestFinished(() => {
      delete process.env.LEADCTL_API_KEY;
      delete process.env.LEADCTL_BASE_URL;
    });
    for (const { host, servers } of CONFIGS) {
      for (const [name, config] of Object.entries(servers)) {
        const client = await start(config);
        expect((await client.listTools()).tools.length, `${host} ${name}`).toBeGreaterThan(0);
        const usage = (await client.callTool({ name: 'usage', arguments: {} })) as CallToolResult;
        const text = usage.content[0]?.type === 'text' ? usage.content[0].text : '';
        if (config.env) expect(usage.isError, `${host} ${name}: ${text}`).toBeFalsy();
        else
          expect(text, `${host} ${name}`).toMatch(/^leadctl: no API base URL and no API key are configured/);
      }
    }
  });
});

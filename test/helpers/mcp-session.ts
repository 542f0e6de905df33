// `leadctl mcp` (the BUILT binary) driven by the official SDK Client over the process's stdio, with a
// transport of our own so that a test sees what a host would not hide: the exit code, stderr, and
// the moment stdin is closed. Also: how a host that reads only text blocks sees an answer.
import type { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { onTestFinished } from 'vitest';
import { spawnCli } from './cli.js';
import { tempDir } from './temp.js';

export const DATA_BEGIN = '<untrusted-data source="Lead Data API">';
export const DATA_END = '</untrusted-data>';

export interface McpProcess {
  client: SdkClient;
  stderr(): string;
  /**
   * Every message the server wrote, as it arrived. (The SDK client drops a progress notification that
   * arrives in the same read as its call's answer: the wire is what the server sent.)
   */
  received: JSONRPCMessage[];
  /** A signal (SIGKILL: a host that gives up on the server); resolves with how the process ended. */
  kill(signal?: NodeJS.Signals): Promise<{ exitCode: number | undefined; stderr: string }>;
  /** Closes stdin, as a host does when it is done, and resolves with how the process ended. */
  closeInput(): Promise<{ exitCode: number | undefined; stderr: string }>;
}

class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();
  readonly received: JSONRPCMessage[] = [];
  constructor(readonly process: ReturnType<typeof spawnCli>) {}

  async start(): Promise<void> {
    this.process.stdout?.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) {
        this.received.push(message);
        this.onmessage?.(message);
      }
    });
    this.process.once('exit', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.process.stdin?.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.process.stdin?.end();
  }
}

/**
 * Starts `leadctl mcp <args>` with a private config folder; stopped when the test ends. With `ask`, the
 * client is a host that supports elicitation and answers each question with what `ask` returns.
 */
export async function startMcp(
  args: string[],
  env: Record<string, string> = {},
  ask?: (message: string) => ElicitResult['action'],
): Promise<McpProcess> {
  const child = spawnCli(['mcp', ...args], {
    stdin: 'pipe',
    env: { XDG_CONFIG_HOME: tempDir('mcp-config'), ...env },
    buffer: { stdout: false, stderr: true },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const transport = new ProcessTransport(child);
  const client = new Client(
    { name: 'leadctl-test', version: '1.0.0' },
    ask ? { capabilities: { elicitation: {} } } : undefined,
  );
  if (ask)
    client.setRequestHandler(ElicitRequestSchema, (request) => ({ action: ask(request.params.message) }));
  await client.connect(transport);
  onTestFinished(async () => {
    child.stdin?.end();
    await Promise.race([child, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) child.kill();
  });
  return {
    client,
    stderr: () => stderr,
    received: transport.received,
    kill: async (signal = 'SIGKILL') => {
      child.kill(signal);
      return { exitCode: (await child).exitCode, stderr };
    },
    closeInput: async () => {
      child.stdin?.end();
      const result = await child;
      return { exitCode: result.exitCode, stderr };
    },
  };
}

export async function callTool(
  mcp: McpProcess,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text blocks, as a host that reads only `content` gives them to the model. */
export function textBlocks(result: CallToolResult): string[] {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`));
}

/**
 * Splits a content-only view into what leadctl says and the data blocks, checking each block is whole:
 * it opens and closes once, and its JSON line parses.
 */
export function readContent(result: CallToolResult): { ours: string; data: unknown[] } {
  const ours: string[] = [];
  const data: unknown[] = [];
  for (const text of textBlocks(result)) {
    if (!text.startsWith(DATA_BEGIN)) {
      ours.push(text);
      continue;
    }
    const lines = text.split('\n');
    if (lines.length !== 4 || lines[3] !== DATA_END || text.split(DATA_END).length !== 2) {
      throw new Error(`malformed data block: ${text.slice(0, 300)}`);
    }
    data.push(JSON.parse(lines[2] as string));
  }
  return { ours: ours.join('\n'), data };
}

// The SDK's Server with leadctl's tools, loaded by the first message stdio.ts does not answer alone (a
// tool call, a ping); a tool call loads the rest (deps.ts).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { instructions, SERVER_INFO, type ServerSetup, toolList, toolSchemas } from './server.js';

export { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';

export function createLeadServer(setup: ServerSetup): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: instructions(setup),
    // The SDK checks an elicitation answer against its form with ajv, which the build leaves out
    // (scripts/build-plugins.mjs): leadctl's form asks nothing but yes or no.
    jsonSchemaValidator: {
      getValidator: () => (data) => ({ valid: true, data: data as never, errorMessage: undefined }),
    },
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => toolList(setup, await toolSchemas()));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    (await import('./deps.js')).callTool(request.params.name, request.params.arguments, extra, setup, server),
  );
  return server;
}

// Imports only commander and the server's defaults; the server is a bundle of its own (src/mcp/serve.ts),
// loaded when the action runs, so no other command pays for the SDK.
import { Help, type Option } from '@commander-js/extra-typings';
import {
  CALL_DEADLINE_SEC,
  DEFAULT_MAX_REQUESTS,
  DEFAULT_MAX_SEARCHES,
  DEFAULT_MAX_SEARCHES_PER_DAY,
  MCP_MAX_WAIT_SEC,
} from '../../mcp/defaults.js';
import type { runMcp } from '../../mcp/serve.js';
import type { ContextFor, Program } from '../../session.js';
import { withExamples } from '../help/command.js';
import { integerIn } from '../options.js';

/** The options of `leadctl mcp`, in the order --help shows them. */
function mcpOptions(program: Program) {
  return (
    program
      .command('mcp')
      .description('serve the API to AI assistants: a Model Context Protocol server on stdin/stdout')
      // The global --max-wait says its CLI default; here the server waits less (an assistant is waiting).
      .configureHelp({
        ...program.configureHelp(),
        optionDescription(option: Option) {
          const text = Help.prototype.optionDescription.call(this, option);
          return option.long === '--max-wait'
            ? text.replace(/\(default: \d+\)/, `(default here: ${MCP_MAX_WAIT_SEC})`)
            : text;
        },
      })
      .option(
        '--max-requests <n>',
        `most API requests this session may send, retries included (default: ${DEFAULT_MAX_REQUESTS})`,
        integerIn(1, 1_000_000),
      )
      .option(
        '--max-searches <n>',
        `most searches this session may send (default: ${DEFAULT_MAX_SEARCHES})`,
        integerIn(1, 1_000_000),
      )
      .option(
        '--max-searches-per-day <n>',
        `most searches per UTC day for the profile and server, across sessions, counted in the usage ledger (default: ${DEFAULT_MAX_SEARCHES_PER_DAY})`,
        integerIn(1, 1_000_000),
      )
      .option('--read-only', 'serve no search_businesses: the session cannot spend live searches')
      .option(
        '--no-confirm',
        "run live searches without the user's yes (by default each one is asked for; --max-searches still caps them)",
      )
      .option(
        '--tools <a,b>',
        'serve only these tools: search_businesses, find_saved_leads, list_leads, list_search_history, usage',
      )
  );
}

export function registerMcp(program: Program, contextFor: ContextFor) {
  return withExamples(
    mcpOptions(program),
    [
      'leadctl mcp --sandbox',
      'leadctl mcp --profile work --max-requests 200 --max-searches 20',
      'leadctl mcp --read-only',
      'leadctl mcp --no-confirm --max-searches 5',
      'leadctl mcp --tools search_businesses,find_saved_leads,usage',
      'leadctl mcp --max-wait 30 --verbose 2>> ~/leadctl-mcp.log',
    ],
    '\nTools: search_businesses, find_saved_leads, list_leads, list_search_history, usage; none writes\n' +
      'files or config. Answers carry the data as JSON in a delimited untrusted-data text block and as\n' +
      "structured content. A live search needs the user's yes: asked through the host where it can\n" +
      '(elicitation), else the first call returns a quote with a one-time token. Every call answers\n' +
      `within ${CALL_DEADLINE_SEC} s. Rate limits are waited on for at most --max-wait seconds (default here: 10);\n` +
      'a longer one pauses every tool that sends requests until the reset time.\n',
  ).action(async (flags, self) => {
    // Beside dist/cli.js, which this is bundled into (the build checks it); computed, so not bundled.
    const server: { runMcp: typeof runMcp } = await import(
      String(new URL('./mcp-server.js', import.meta.url))
    );
    await server.runMcp(flags, contextFor(self));
  });
}

// The MCP server's defaults, in a module without imports: the `mcp` command's help (in the CLI's
// bundle) and the server (in its own) say the same numbers.
/** An assistant is waiting: rate limits are waited on briefly unless --max-wait says otherwise. */
export const MCP_MAX_WAIT_SEC = 10;
export const DEFAULT_MAX_REQUESTS = 50;
export const DEFAULT_MAX_SEARCHES = 10;
export const DEFAULT_MAX_SEARCHES_PER_DAY = 50;
/** Hosts give up at 60 s (the SDK client's default); 15 s are left for a loaded machine and queueing. */
export const CALL_DEADLINE_SEC = 45;
/** Saved leads read for exclude_saved and find_saved_leads: 20 requests at most, a bound on one call. */
export const MAX_SAVED_LEADS = 2_000;
/** The most items one list call returns: enough to work with, small enough for a model's context. */
export const MAX_ITEMS_CAP = 500;
/** The delimiters of the data block in every answer (tool-result.ts); the instructions name the first. */
export const DATA_BEGIN = '<untrusted-data source="Lead Data API">';
export const DATA_END = '</untrusted-data>';

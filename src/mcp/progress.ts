// Progress notifications for a call that pages: sent only when the client asked for them by giving
// the request a progress token (MCP's `_meta.progressToken`), so a client may reset its request
// timeout while a long list is fetched. Never fails the call: a notification that cannot be sent is
// dropped.
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

export type ReportProgress = (progress: number, total: number | undefined, message: string) => void;

interface ProgressExtra {
  _meta?: { progressToken?: string | number } | undefined;
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

export function progressReporter(extra: ProgressExtra): ReportProgress {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let last = -1;
  return (progress, total, message) => {
    // The spec wants progress to increase with every notification.
    if (progress <= last) return;
    last = progress;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), message },
      })
      .catch(() => {});
  };
}

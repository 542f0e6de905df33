// Which partial file an error left behind. The writer's caller attaches it to the error that ended
// the run; the CLI's error renderer prints it, so every failed or interrupted run that wrote rows
// says where they are, whatever the error was.
const partialFiles = new WeakMap<object, string>();

export function notePartialFile(error: unknown, path: string): void {
  if (typeof error === 'object' && error !== null) partialFiles.set(error, path);
}

export function partialFileOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? partialFiles.get(error) : undefined;
}

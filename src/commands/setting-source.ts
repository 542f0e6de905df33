// Where a run's base URL or key came from, in the words `auth status` prints, and what to do about a
// key the server rejected: the fix depends on the source, since a flag or variable wins over the
// stored key (following "config set api-key" would change nothing).

/** Where a run's base URL or key came from: cli.md's layers, or the in-process sandbox. */
export type Source = 'flag' | 'env' | 'config' | 'sandbox';

const FLAGS = { 'api-key': '--api-key', 'base-url': '--base-url' } as const;
const VARIABLES = { 'api-key': 'LEADCTL_API_KEY', 'base-url': 'LEADCTL_BASE_URL' } as const;

export function sourceText(key: 'api-key' | 'base-url', source: Source | undefined, profile: string): string {
  switch (source) {
    case 'flag':
      return `from ${FLAGS[key]}`;
    case 'env':
      return `from ${VARIABLES[key]}`;
    case 'sandbox':
      return 'from --sandbox: the built-in sandbox';
    default:
      return `from profile "${profile}"`;
  }
}

/** The second line of a 401: where the rejected key came from and how to change that source. */
export function rejectedKeyHint(source: Source | undefined, profile: string): string {
  const where = `the key came ${sourceText('api-key', source, profile)}`;
  switch (source) {
    case 'flag':
      return `${where}: check it, or leave --api-key out to use the stored key`;
    case 'env':
      return `${where}, which wins over the stored key: correct it, or unset LEADCTL_API_KEY`;
    case 'sandbox':
      return `${where}; it should always be accepted: please report this`;
    default: {
      const option = profile === 'default' ? '' : ` --profile ${profile}`;
      // Global options go before the command, as `auth status` and the README write them.
      return `${where}: run: leadctl${option} config set api-key`;
    }
  }
}

// Where leadctl keeps its config. The documented XDG paths hold on every OS (macOS included), so we do
// not use conf's env-paths default (~/Library/Preferences/...). leadctl keeps nothing in a cache folder.
import os from 'node:os';
import path from 'node:path';

/**
 * `$<variable>/leadctl`, else `~/<fallback>/leadctl`. The XDG spec says a relative value is invalid and
 * must be ignored. HOME from `env` wins over os.homedir().
 */
export function xdgLeadctlDir(
  env: NodeJS.ProcessEnv,
  variable: 'XDG_CONFIG_HOME' | 'XDG_CACHE_HOME',
  fallback: '.config' | '.cache',
): string {
  const xdg = env[variable];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'leadctl');
  const home = env.HOME || os.homedir();
  return path.join(home, fallback, 'leadctl');
}

/** `$XDG_CONFIG_HOME/leadctl`, else `~/.config/leadctl`. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return xdgLeadctlDir(env, 'XDG_CONFIG_HOME', '.config');
}

export function configFile(env: NodeJS.ProcessEnv): string {
  return path.join(configDir(env), 'config.json');
}

// Where the config lives. The documented path holds on every OS (macOS included), so we do not use
// conf's env-paths default (~/Library/Preferences/...).
import os from 'node:os';
import path from 'node:path';

/** `$XDG_CONFIG_HOME/leadctl`, else `~/.config/leadctl`. HOME from `env` wins over os.homedir(). */
export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'leadctl');
  const home = env.HOME || os.homedir();
  return path.join(home, '.config', 'leadctl');
}

export function configFile(env: NodeJS.ProcessEnv): string {
  return path.join(configDir(env), 'config.json');
}

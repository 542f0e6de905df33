// The package version, put in by the build (esbuild `define`) so that `--version` reads no file.
declare const __LEADCTL_VERSION__: string | undefined;

export const VERSION: string = typeof __LEADCTL_VERSION__ === 'string' ? __LEADCTL_VERSION__ : '0.0.0-dev';

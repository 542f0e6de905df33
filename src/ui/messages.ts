// Colour decisions and styles shared by the ui's lines (ui.ts) and the output layer, which decides
// whether stdout gets colour (output/item-sink.ts). Both take plain values, not a command's context.

/** What the colour decisions read: --no-color and the environment. */
export interface ColorInputs {
  globals: { color?: boolean };
  io: { env: NodeJS.ProcessEnv };
}

export const dimStyle = (on: boolean) => (text: string) => (on ? `\u001b[2m${text}\u001b[22m` : text);
export const yellowStyle = (on: boolean) => (text: string) => (on ? `\u001b[33m${text}\u001b[39m` : text);

/** Colour only when neither --no-color nor NO_COLOR says otherwise (and, where used, on a terminal). */
export function colorAllowed({ globals, io }: ColorInputs): boolean {
  return globals.color !== false && !io.env.NO_COLOR;
}

/**
 * FORCE_COLOR or CLICOLOR_FORCE (set, not empty, not "0" or "false"): colour on stdout and stderr even
 * when they are not a terminal, for `leadctl ... | less -R`. NO_COLOR and --no-color still win.
 * Files written with -o never get colour.
 */
export function colorForced(inputs: ColorInputs): boolean {
  const forces = (value: string | undefined) =>
    value !== undefined && value !== '' && value !== '0' && value !== 'false';
  return colorAllowed(inputs) && (forces(inputs.io.env.FORCE_COLOR) || forces(inputs.io.env.CLICOLOR_FORCE));
}

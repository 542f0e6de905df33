// Names that end up in generated scripts. Choices and command names are spliced into word lists
// that shells expand (`compgen -W` runs expansions on its list), so anything beyond a plain word is
// refused at generation time, where a test catches it, rather than escaped into a fragile script.

const PLAIN_WORD = /^[A-Za-z0-9_@%+,./:=-]+$/;

export function plainWord(word: string): string {
  if (!PLAIN_WORD.test(word)) {
    throw new Error(`completion: ${JSON.stringify(word)} is not a plain word; shells would need it escaped`);
  }
  return word;
}

/** A shell function name derived from the program's name (`leadctl` -> `_leadctl`). */
export function functionPrefix(programName: string): string {
  return `_${programName.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Descriptions are free text: only their first line is shown. */
export function oneLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

/**
 * What the scripts run to list stored profiles: `<program> config profiles`, whose lines are a
 * 2-character mark (`* ` or two spaces) and a name. Names are letters, digits, `.`, `_`, `-`.
 */
export const PROFILE_LIST_ARGS = 'config profiles';

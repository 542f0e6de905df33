// Tables and TSV use the one sanitizer shared with the API layer's messages (src/text/terminal-text.ts).
export { sanitizeForTerminal, UNSAFE_FOR_TERMINAL, visibleEscape } from '../text/terminal-text.js';

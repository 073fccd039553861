/**
 * How deep JSON text nests, read in one pass without recursion, stopping as soon as `max` is
 * passed: so a hostile body nested thousands deep is refused before anything recursive
 * (validators, serialisers, loggers) walks it. Brackets inside strings do not count.
 */
export function exceedsJsonDepth(text: string, max: number): boolean {
  if (atMostOpenings(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** Deepest nesting a delivery or an API body may have; real ones stay far below it. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when the text has at most `max` opening brackets, strings included: then it cannot nest
 * deeper than `max`. Counted with indexOf (native), it settles a usual delivery without the
 * character-by-character pass.
 */
function atMostOpenings(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      count += 1;
      if (count > max) return false;
    }
  }
  return true;
}

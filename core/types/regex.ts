// The regex dialect of `{ string: { pattern } }` (reference §4.8): at most 512 characters,
// RE2-class. Constructs that need backtracking or a Unicode database are refused (NIKA-TYPE-006)
// so every engine can match in linear time with the same answers.

export const MAX_PATTERN_LENGTH = 512;

export interface RegexProblem { message: string; offset: number; length: number }

export function regexProblems(pattern: string): RegexProblem[] {
  const out: RegexProblem[] = [];
  if (pattern.length > MAX_PATTERN_LENGTH) {
    out.push({ message: `The pattern is ${pattern.length} characters; the limit is ${MAX_PATTERN_LENGTH}.`, offset: MAX_PATTERN_LENGTH, length: pattern.length - MAX_PATTERN_LENGTH });
  }
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === undefined) break;
      if (n === 'p' || n === 'P') {
        const len = pattern[i + 2] === '{' ? Math.max(3, pattern.indexOf('}', i) - i + 1) : 3;
        out.push({ message: `Unicode property classes (\\${n}{…}) are outside the pattern dialect; spell the characters out.`, offset: i, length: len });
      } else if (!inClass && (n === 'b' || n === 'B')) {
        out.push({ message: `Word boundaries (\\${n}) are outside the pattern dialect.`, offset: i, length: 2 });
      } else if (!inClass && /[1-9]/.test(n)) {
        out.push({ message: 'Backreferences are outside the pattern dialect.', offset: i, length: 2 });
      } else if (!inClass && n === 'k' && pattern[i + 2] === '<') {
        out.push({ message: 'Named backreferences are outside the pattern dialect.', offset: i, length: Math.max(3, pattern.indexOf('>', i) - i + 1) });
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++; // a leading ] is a literal
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2);
      if (/^[=!]/.test(rest) || /^<[=!]/.test(rest)) {
        out.push({ message: 'Lookahead and lookbehind are outside the pattern dialect.', offset: i, length: rest.startsWith('<') ? 4 : 3 });
      } else if (/^P?<[A-Za-z_]/.test(rest) || rest.startsWith("'")) {
        out.push({ message: 'Named groups are outside the pattern dialect; use a plain group ( … ) or (?: … ).', offset: i, length: Math.max(3, pattern.indexOf('>', i) - i + 1) });
      } else if (/^[a-zA-Z-]+[):]/.test(rest)) {
        const m = /^[a-zA-Z-]+[):]/.exec(rest)!;
        out.push({ message: 'Inline flags ((?i) …) are outside the pattern dialect.', offset: i, length: 2 + m[0].length });
      } else if (/^[>|]/.test(rest)) {
        out.push({ message: 'Atomic and branch-reset groups are outside the pattern dialect.', offset: i, length: 3 });
      }
      continue;
    }
    if ((c === '*' || c === '+' || c === '?' || c === '}') && i > 0 && isQuantified(pattern, i)) {
      const n = pattern[i + 1];
      if (n === '?') out.push({ message: 'Lazy quantifiers (*?, +?, ??) are outside the pattern dialect.', offset: i, length: 2 });
      else if (n === '+') out.push({ message: 'Possessive quantifiers (*+, ++, ?+) are outside the pattern dialect.', offset: i, length: 2 });
      if (n === '?' || n === '+') i++;
    }
  }
  if (out.length === 0) {
    try {
      new RegExp(pattern);
    } catch (e) {
      out.push({ message: `Not a valid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '')}.`, offset: 0, length: pattern.length });
    }
  }
  return out;
}

/** Is the quantifier-looking character at `i` really a quantifier (not `(?` or a literal `}`)? */
function isQuantified(p: string, i: number): boolean {
  const c = p[i];
  if (c === '?' && p[i - 1] === '(') return false;
  if (c === '}') return /\{\d+(,\d*)?\}$/.test(p.slice(Math.max(0, i - 12), i + 1));
  return true;
}

// Which jq functions a workflow may call (reference §4.7). Three tiers: the closed set of
// `jq-subset/0.1`; functions the subset refuses by design (only `env`/`$ENV` are enforced by the
// engine today, the rest are warned about); and the rest of real jq's builtins, which still
// compile (the engine runs real jq) but sit outside the subset. A name in none of them does not
// compile at all.

/** name → accepted arities. */
export const SUBSET: Record<string, number[]> = {
  length: [0], keys: [0], values: [0], has: [1], type: [0], not: [0], empty: [0], error: [0, 1],
  map: [1], map_values: [1], select: [1], add: [0, 1], join: [1], split: [1, 2], flatten: [0, 1],
  range: [1, 2, 3], sort: [0], sort_by: [1], group_by: [1], unique: [0], unique_by: [1], reverse: [0],
  first: [0, 1], last: [0, 1], min: [0], max: [0], min_by: [1], max_by: [1], any: [0, 1, 2], all: [0, 1, 2],
  to_entries: [0], from_entries: [0], with_entries: [1], del: [1], paths: [0, 1], tostring: [0],
  tonumber: [0], tojson: [0], fromjson: [0], getpath: [1], setpath: [2], leaf_paths: [0],
  ascii_downcase: [0], ascii_upcase: [0], ltrimstr: [1], rtrimstr: [1], startswith: [1], endswith: [1],
  floor: [0], ceil: [0], fabs: [0],
};

/** Refused by design; `env` is the one the engine enforces (an error), the rest warn. */
export const REFUSED = new Set(['recurse', 'while', 'until', 'repeat', 'env', 'input', 'inputs', 'input_filename', 'debug', 'stderr', 'now', 'localtime', 'gmtime', 'mktime', 'strftime', 'halt', 'halt_error', 'test', 'match', 'sub', 'gsub', 'splits', 'scan']);
export const ENFORCED = new Set(['env']);

/** Real jq builtins outside the subset (they compile; the subset does not promise them). */
export const OTHER_JQ = new Set([
  'keys_unsorted', 'in', 'inside', 'contains', 'indices', 'index', 'rindex', 'path', 'delpaths', 'to_number',
  'utf8bytelength', 'explode', 'implode', 'ltrimstr', 'trim', 'ltrim', 'rtrim', 'tostream', 'fromstream',
  'truncate_stream', 'limit', 'skip', 'nth', 'combinations', 'walk', 'transpose', 'isempty', 'IN', 'INDEX',
  'isnan', 'isinfinite', 'isnormal', 'infinite', 'nan', 'isvalid', 'objects', 'arrays', 'strings', 'numbers',
  'booleans', 'nulls', 'iterables', 'scalars', 'finites', 'normals', 'capture', 'ascii', 'todate', 'fromdate',
  'date', 'dateadd', 'datesub', 'strptime', 'strflocaltime', 'todateiso8601', 'fromdateiso8601', 'dateiso8601',
  'input_line_number', 'builtins', 'splits', 'sqrt', 'pow', 'log', 'log2', 'log10', 'exp', 'exp2', 'exp10',
  'round', 'trunc', 'abs', 'toarray', 'pick', 'significand', 'gamma', 'lgamma', 'tgamma', 'getpath',
  'error', 'tojson', 'have_decnum', 'have_literal_numbers', 'get_search_list', 'getpath', 'min_by', 'halt',
  'recurse_down', 'splits', 'ascii', 'implode', 'ltrimstr', 'group_by', 'modulemeta', 'input', 'debug',
  'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'cbrt', 'fmin', 'fmax',
  'frexp', 'ldexp', 'modf', 'nearbyint', 'rint', 'logb', 'drem', 'scalb', 'scalbln', 'getpath', 'tojson',
]);

export const SUBSET_FORMATS = new Set(['base64', 'base64d', 'text', 'json', 'csv', 'tsv', 'uri']);
export const OTHER_FORMATS = new Set(['html', 'sh', 'base32', 'base32d']);

export type FunctionTier = 'subset' | 'refused' | 'enforced' | 'other' | 'unknown';

export function functionTier(name: string, arity: number): { tier: FunctionTier; arities?: number[] } {
  if (ENFORCED.has(name)) return { tier: 'enforced' };
  const subset = SUBSET[name];
  if (subset) return subset.includes(arity) ? { tier: 'subset' } : { tier: OTHER_JQ.has(name) ? 'other' : 'unknown', arities: subset };
  if (REFUSED.has(name)) return { tier: 'refused' };
  if (OTHER_JQ.has(name)) return { tier: 'other' };
  return { tier: 'unknown' };
}

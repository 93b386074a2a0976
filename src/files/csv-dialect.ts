/** The field delimiters a CSV file is read with when none is given, in order of preference. */
export const detectedDelimiters = [',', ';', '\t', '|'] as const;

/** How many lines of a file's start decide its delimiter. */
const sampleLines = 50;

/**
 * Decides a file's field delimiter from its first lines: the candidate that splits every line
 * into as many fields as the header, and into more than one. Quotes are respected, so a quoted
 * `"Lisbon, Portugal"` does not count for the comma, and a candidate under which a line's
 * quotes would be malformed does not split that line. When no candidate does that on every line,
 * the one that does it on the most lines wins; ties go to more fields, then to `preferred` (the
 * delimiter the file's extension suggests), then to the order of `detectedDelimiters`. A file
 * that no candidate splits (a single column) takes `preferred`.
 *
 * `sample` is the start of the file; `complete` says whether it is the whole file, so that a
 * last line cut off mid-way is not judged.
 */
export function detectDelimiter(sample: string, complete: boolean, preferred = ','): string {
  const order = [preferred, ...detectedDelimiters.filter((d) => d !== preferred)];
  let best: { delimiter: string; matching: number; fields: number } | null = null;
  for (const delimiter of order) {
    const counts = fieldCounts(sample, delimiter, complete);
    const fields = counts[0] ?? 0;
    if (fields < 2) continue;
    const matching = counts.filter((count) => count === fields).length / counts.length;
    if (
      best === null ||
      matching > best.matching ||
      (matching === best.matching && fields > best.fields)
    ) {
      best = { delimiter, matching, fields };
    }
  }
  return best?.delimiter ?? preferred;
}

/**
 * Fields per record of the sample, as a CSV reader with this delimiter would split it: a field
 * that starts with `"` runs to the next lone `"`, across delimiters and line breaks. A record
 * such a reader would refuse (a quote inside an unquoted field, or text after a closing quote)
 * counts as -1, so it matches no header. Blank lines are left out, as is a last record the
 * sample cuts off.
 */
export function fieldCounts(sample: string, delimiter: string, complete: boolean): number[] {
  const counts: number[] = [];
  let fields = 1;
  let fieldStart = true;
  let quoted = false;
  let closed = false;
  let refused = false;
  let blank = true;
  let i = 0;
  const endRecord = () => {
    if (!blank) counts.push(refused ? -1 : fields);
    fields = 1;
    fieldStart = true;
    closed = false;
    refused = false;
    blank = true;
  };
  while (i < sample.length && counts.length < sampleLines) {
    const char = sample[i] as string;
    if (quoted) {
      if (char === '"' && sample[i + 1] === '"') i++;
      else if (char === '"') {
        quoted = false;
        closed = true;
      }
    } else if (sample.startsWith(delimiter, i)) {
      fields++;
      fieldStart = true;
      closed = false;
      blank = false;
      i += delimiter.length - 1;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && sample[i + 1] === '\n') i++;
      endRecord();
    } else {
      if (closed || (char === '"' && !fieldStart)) refused = true;
      quoted = char === '"' && fieldStart;
      fieldStart = false;
      blank = false;
    }
    i++;
  }
  if (complete && !quoted && i >= sample.length) endRecord();
  return counts;
}

import { detectDelimiter } from './csv-dialect.ts';
import { FieldReader } from './csv-fields.ts';
import { FileEvidence, type FileReading } from './file-evidence.ts';

/**
 * How a delimited text in hand reads, by the rules an upload applies to the whole file (see
 * `FileEvidence`): the console runs this on the file chosen, before it is sent, to preselect
 * the decimal mark the server would decide. The header row is left out.
 */
export function readingOfText(
  text: string,
  complete: boolean,
): FileReading & { delimiter: string } {
  const delimiter = detectDelimiter(text, complete);
  const evidence = new FileEvidence();
  // A text cut off part way leaves its last line out: it may end mid-field.
  const end = complete ? text.length : Math.max(text.lastIndexOf('\n'), 0);
  const reader = new FieldReader(delimiter, (row, column, field) => {
    if (row > 0) evidence.see(column, field);
  });
  reader.push(text.slice(0, end));
  if (complete) reader.end();
  return { ...evidence.decide(undefined), delimiter };
}

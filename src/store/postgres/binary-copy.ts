import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/** What every binary COPY output starts with (PostgreSQL's `COPY` documentation, "Binary Format"). */
const signature = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The first column of every row a query answers, as the bytes PostgreSQL holds (for text, UTF-8),
 * read with `COPY (query) TO STDOUT (FORMAT binary)`. A query through the driver decodes each
 * text value into a JavaScript string, which the server then encodes again to send it: for the
 * megabytes of a large sheet's full read, that is most of the read's time. COPY takes no
 * parameters, so `query` must hold its values as literals made only from numbers.
 */
export async function copyFirstColumn(db: PoolClient, query: string): Promise<(Buffer | null)[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of db.query(copyTo(`COPY (${query}) TO STDOUT (FORMAT binary)`))) {
    chunks.push(chunk as Buffer);
  }
  return firstColumn(Buffer.concat(chunks));
}

/** Parses binary COPY output into the first field of each tuple (null for SQL NULL). */
export function firstColumn(data: Buffer): (Buffer | null)[] {
  if (!data.subarray(0, signature.length).equals(signature)) {
    throw new Error('Not binary COPY output: the signature is missing.');
  }
  // After the signature: a flags field, then a header extension of the length given.
  let at = signature.length + 4;
  at += 4 + data.readUInt32BE(at);
  const values: (Buffer | null)[] = [];
  for (;;) {
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) return values;
    for (let field = 0; field < fields; field++) {
      const length = data.readInt32BE(at);
      at += 4;
      if (field === 0) values.push(length === -1 ? null : data.subarray(at, at + length));
      if (length > 0) at += length;
    }
  }
}

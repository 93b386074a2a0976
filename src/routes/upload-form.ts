import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { isStorableText } from '../cells/cell.ts';
import { defaultLimits } from '../access/limits.ts';
import { Problem } from '../errors/problem.ts';
import { bodyTooLarge } from './body-too-large.ts';
import { csvOptions, givesCsvOptions, type CsvOptions } from '../files/csv-options.ts';

/** The text parts an upload may carry once beside its `file`. */
export const uploadFields = ['name', 'tab', 'delimiter', 'encoding', 'decimal'] as const;
type UploadField = (typeof uploadFields)[number];

/**
 * The part that declares a text column, once per column: a column name may hold a comma, so
 * the names are not joined in one part.
 */
export const textColumnField = 'textColumn';

/** As many text columns as a sheet may have columns (see `limits.ts`). */
const maxTextColumns = defaultLimits.columnsPerSheet;

/** Multipart limits: one file, each text part once, and `textColumn` once per column. */
export const uploadLimits = {
  files: 1,
  fields: uploadFields.length + maxTextColumns,
  parts: uploadFields.length + maxTextColumns + 1,
};

/** How the form's parts are named in messages that list them. */
export const uploadPartsText = `one "file" part, with optional ${uploadFields.map((f) => `"${f}"`).join(', ')} parts and a "${textColumnField}" part per text column`;

/**
 * The upload form, for the OpenAPI document only: the multipart plugin streams the parts instead
 * of building a body, so there is nothing for the validator to check; the route adds this to
 * its description (see `admin-routes.ts`).
 */
export const UploadForm = Type.Object({
  file: Type.String({
    format: 'binary',
    description: 'A .csv, .tsv, .txt or .xlsx file.',
  }),
  name: Type.Optional(Type.String({ description: 'The sheet name; the file name by default.' })),
  tab: Type.Optional(
    Type.String({
      description:
        'XLSX worksheet; the first by default. "*" makes a sheet of every worksheet, named "<name> / <tab>".',
    }),
  ),
  delimiter: Type.Optional(
    Type.String({
      description:
        'CSV field delimiter, one character; detected from the first lines among , ; tab and | by default.',
    }),
  ),
  encoding: Type.Optional(
    Type.String({
      description:
        'CSV text encoding, any label TextDecoder knows (utf-8, utf-16le, windows-1252, iso-8859-15...); by default from the byte-order mark, else UTF-8 if the whole file is valid UTF-8, else Windows-1252.',
    }),
  ),
  decimal: Type.Optional(
    Type.Union([Type.Literal('.'), Type.Literal(',')], {
      description:
        'CSV decimal mark: "." or ",", which reads 1.234,5 and 12,5 as numbers. By default decided from the whole file: "," if some cell only a decimal comma explains (12,50) and none only a point explains (1.5), "." in the reverse case, else "." with cells such as 1.250 kept as text.',
    }),
  ),
  textColumn: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'A column whose cells are all kept as text (codes such as 007 and 1001); one part per column. A CSV column holding a code with a leading zero and no decimal number is declared by default.',
    }),
  ),
});

/** An upload as received: the file saved to disk, and the options of its form. */
export interface UploadRequest {
  path: string;
  fileName: string;
  name?: string | undefined;
  tab?: string | undefined;
  /** Set only when the form gave a delimiter, an encoding or a decimal mark. */
  csv?: CsvOptions | undefined;
  /** The columns declared text, in the order given. */
  textColumns: string[];
}

/** Streams the `file` part into `dir` and checks the other parts before anything is imported. */
export async function readUploadForm(
  request: FastifyRequest,
  dir: string,
  maxFileBytes: number,
): Promise<UploadRequest> {
  const fields: Partial<Record<UploadField, string>> = {};
  const textColumns: string[] = [];
  let upload: { path: string; fileName: string } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new Problem(
            'invalid-body',
            `Unexpected file part "${part.fieldname}"; send the file as "file".`,
          );
        }
        const path = join(dir, 'upload');
        await pipeline(part.file, createWriteStream(path));
        upload = { path, fileName: part.filename };
      } else if (part.fieldname === textColumnField) {
        textColumns.push(String(part.value));
      } else if ((uploadFields as readonly string[]).includes(part.fieldname)) {
        if (fields[part.fieldname as UploadField] !== undefined) {
          throw new Problem(
            'invalid-body',
            `The part "${part.fieldname}" is sent twice; an upload takes ${uploadPartsText}.`,
          );
        }
        fields[part.fieldname as UploadField] = String(part.value);
      } else {
        throw new Problem(
          'invalid-body',
          `Unexpected form field "${part.fieldname}"; an upload takes ${uploadPartsText}.`,
        );
      }
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw bodyTooLarge(maxFileBytes, 'SHEETPORT_UPLOAD_LIMIT', 'split the file');
    }
    throw malformedForm(error);
  }
  if (fields.name !== undefined && !isStorableText(fields.name)) {
    throw new Problem('invalid-body', 'The sheet name holds a NUL character or a lone surrogate.');
  }
  const csv = csvOptions(fields);
  if (upload === null) {
    throw new Problem(
      'invalid-body',
      'The multipart body has no "file" part; attach the CSV or XLSX file as "file".',
    );
  }
  return {
    ...upload,
    name: fields.name,
    tab: fields.tab,
    csv: givesCsvOptions(fields) ? csv : undefined,
    textColumns,
  };
}

/** A body that is not well-formed multipart (cut short, no boundary) is a bad upload. */
function malformedForm(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (error instanceof Problem || (typeof code === 'string' && code.startsWith('FST_')))
    return error;
  return new Problem(
    'invalid-upload',
    `The multipart body could not be read (${error instanceof Error ? error.message : String(error)}); send a well-formed multipart/form-data body with a "file" part.`,
  );
}

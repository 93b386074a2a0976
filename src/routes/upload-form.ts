import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { isStorableText } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { csvOptions, givesCsvOptions, type CsvOptions } from '../files/csv-options.ts';

/** The text parts an upload may carry beside its `file`. */
export const uploadFields = ['name', 'tab', 'delimiter', 'encoding', 'decimal'] as const;
type UploadField = (typeof uploadFields)[number];

/** Multipart limits: one file, and each text part once (a repeated part counts as another). */
export const uploadLimits = {
  files: 1,
  fields: uploadFields.length,
  parts: uploadFields.length + 1,
};

/** How the form's parts are named in messages that list them. */
export const uploadPartsText = `one "file" part, with optional ${uploadFields.map((f) => `"${f}"`).join(', ')} parts`;

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
        'CSV decimal mark: "." (the default) or ",", which reads 1.234,5 and 12,5 as numbers.',
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
}

/** Streams the `file` part into `dir` and checks the other parts before anything is imported. */
export async function readUploadForm(request: FastifyRequest, dir: string): Promise<UploadRequest> {
  const fields: Partial<Record<UploadField, string>> = {};
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
      } else if ((uploadFields as readonly string[]).includes(part.fieldname)) {
        fields[part.fieldname as UploadField] = String(part.value);
      } else {
        throw new Problem(
          'invalid-body',
          `Unexpected form field "${part.fieldname}"; an upload takes ${uploadPartsText}.`,
        );
      }
    }
  } catch (error) {
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

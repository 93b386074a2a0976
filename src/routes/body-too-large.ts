import { Problem } from '../errors/problem.ts';

/** A body over a limit, told the limit: `bytes`, and the setting that raises it. */
export function bodyTooLarge(bytes: number, setting: string, advice: string): Problem {
  return new Problem(
    'body-too-large',
    `The request body is larger than the ${byteSize(bytes)} this server accepts; ${advice}, or raise ${setting}.`,
    { limit: bytes },
  );
}

/** `1 MiB`, `64 KiB`, `1,500 bytes`. */
function byteSize(bytes: number): string {
  if (bytes >= 1_048_576 && bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en')} bytes`;
}

import { createServer } from 'node:http';

/**
 * The ceiling: a bare node:http server answering every request with one fixed JSON body. No Node
 * server that does any work per request can be faster on this machine.
 * Settings: BENCH_PORT, BENCH_BODY (the body's text).
 */
const body = Buffer.from(process.env.BENCH_BODY ?? '[]');
const port = Number(process.env.BENCH_PORT ?? 0);

const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  });
  response.end(body);
});
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));

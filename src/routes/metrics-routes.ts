import type { FastifyInstance } from 'fastify';
import type { AccessControl } from '../access/access-control.ts';
import { Metrics } from '../metrics/metrics.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { SheetStore } from '../store/store.ts';

/**
 * `GET /metrics` in the Prometheus text format, behind the administrator token when one is set,
 * and the hooks that count: every answered request by route pattern (never the raw URL, which
 * holds sheet ids), and every upstream request of the providers.
 */
export function registerMetrics(
  app: FastifyInstance,
  deps: {
    store: SheetStore;
    providers: ProviderRegistry;
  },
  access: AccessControl,
): Metrics {
  const metrics = new Metrics({
    connections: () => deps.store.database.connections(),
    webhookBacklog: () => deps.store.webhookBacklog(),
  });
  for (const [name, provider] of deps.providers.configured()) {
    provider.onUpstream = (event) => metrics.upstream(name, event);
  }
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.request(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    access.admin(request);
    void reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  return metrics;
}

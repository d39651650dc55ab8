import { API } from '@upshot/contract';
import { route } from '../../plugins/route-table.ts';
import { toAuditEntry } from './presenter.ts';
import type { AuditService } from './service.ts';

export function auditRoutes(deps: { audit: AuditService }) {
  const { audit } = deps;
  return [
    route(API.auditLog, async ({ query }) => {
      const { rows, ...page } = await audit.list(query);
      return { entries: rows.map(toAuditEntry), ...page };
    }),
  ];
}

/** The audit module's only door: recording administrators' actions and listing them. */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Module } from '../module.ts';
import { createAuditRepository } from './repository.ts';
import { auditRoutes } from './routes.ts';
import { createAuditService, type AuditService } from './service.ts';

export type { AuditActor, AuditService, AuditTarget } from './service.ts';

export function createAuditModule(deps: { db: Db; clock: Clock }): Module & {
  service: AuditService;
} {
  const service = createAuditService({ audit: createAuditRepository(deps.db), clock: deps.clock });
  return { name: 'audit', routes: auditRoutes({ audit: service }), jobs: [], tasks: {}, service };
}

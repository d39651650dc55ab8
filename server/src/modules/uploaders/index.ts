/** The desktop uploaders module's only door: ShareX config, bash and PowerShell scripts. */
import type { AuditService } from '../audit/index.ts';
import type { Module } from '../module.ts';
import type { UsersService } from '../users/index.ts';
import { uploadersRoutes } from './routes.ts';
import { createUploadersService, type UploadersService } from './service.ts';

export type { UploadersService } from './service.ts';

export function createUploadersModule(deps: {
  users: UsersService;
  publicUrl: string;
  /** Where an admin's download of another user's uploader (it holds their token) is recorded. */
  audit: AuditService;
}): Module & { service: UploadersService } {
  const service = createUploadersService({ publicUrl: deps.publicUrl });
  return {
    name: 'uploaders',
    routes: uploadersRoutes({
      uploaders: service,
      users: deps.users,
      audit: deps.audit,
    }),
    jobs: [],
    tasks: {},
    service,
  };
}

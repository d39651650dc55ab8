/** The desktop uploaders module's only door: ShareX config, bash and PowerShell scripts. */
import type { Module } from '../module.ts';
import type { UsersService } from '../users/index.ts';
import { uploadersRoutes, type RecordDownload } from './routes.ts';
import { createUploadersService, type UploadersService } from './service.ts';

export type { UploadersService } from './service.ts';

export function createUploadersModule(deps: {
  users: UsersService;
  publicUrl: string;
  /** Records an admin downloading another user's uploader (it holds their API token). */
  recordDownload: RecordDownload;
}): Module & { service: UploadersService } {
  const service = createUploadersService({ publicUrl: deps.publicUrl });
  return {
    name: 'uploaders',
    routes: uploadersRoutes({
      uploaders: service,
      users: deps.users,
      recordDownload: deps.recordDownload,
    }),
    jobs: [],
    tasks: {},
    service,
  };
}

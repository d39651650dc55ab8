/** The desktop uploaders module's only door: ShareX config, bash and PowerShell scripts. */
import type { LinkStyle } from '@upshot/contract';
import type { Module } from '../module.ts';
import type { UsersService } from '../users/index.ts';
import { uploadersRoutes } from './routes.ts';
import { createUploadersService, type UploadersService } from './service.ts';

export type { UploadersService } from './service.ts';

export function createUploadersModule(deps: {
  users: UsersService;
  publicUrl: string;
  linkStyleOf: (userId: string) => Promise<LinkStyle>;
}): Module & { service: UploadersService } {
  const service = createUploadersService(deps);
  return {
    name: 'uploaders',
    routes: uploadersRoutes({ uploaders: service }),
    jobs: [],
    tasks: {},
    service,
  };
}

/** What a domain module contributes to the app: its routes, its periodic jobs, its tasks. */
import type { Job } from '../jobs/scheduler.ts';
import type { TaskHandler } from '../jobs/tasks.ts';
import type { RouteDef } from '../plugins/route-table.ts';

export type Module = {
  name: string;
  routes: RouteDef[];
  jobs: Job[];
  /** Handlers of the background task kinds this module enqueues, by kind. */
  tasks: Record<string, TaskHandler>;
};

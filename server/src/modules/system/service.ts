/** What the web app and clients need to know about this server. */
import type { ServerConfig } from '@upshot/contract';

export function createSystemService(deps: {
  publicUrl: string;
  chunkSize: number;
  maxSimpleUploadBytes: number;
  maxUploadBytes: number;
  version: string;
}) {
  const config: ServerConfig = { ...deps };
  return { config: () => config };
}

export type SystemService = ReturnType<typeof createSystemService>;

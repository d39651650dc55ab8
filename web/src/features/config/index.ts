// The server-config feature's public surface.
export { serverConfigQuery, useServerConfig } from './api.ts';

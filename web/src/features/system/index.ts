// The system feature's public surface: what the server says about itself.
export { serverConfigQuery, useServerConfig } from './api.ts';

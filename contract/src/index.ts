// The whole contract, schemas included (the server; the web imports types only from here and
// values from '@upshot/contract/constants').
export * from './access.ts';
export * from './api.ts';
export * from './auth.ts';
export * from './constants.ts';
export * from './desktop.ts';
export * from './errors.ts';
export * from './oembed.ts';
export * from './preferences.ts';
export * from './stats.ts';
export * from './system.ts';
export * from './tags.ts';
export * from './text.ts';
export * from './uploads.ts';
export * from './users.ts';

export * from './auth.ts';
export * from './errors.ts';
export * from './routes.ts';
export * from './uploads.ts';
export * from './users.ts';

// Every table of the one schema. drizzle-kit reads this folder; features add their tables in their own file.
export * from './accounts.ts';
export * from './credentials.ts';
export * from './uploads.ts';
export * from './audit.ts';
export * from './engine.ts';
export * from './requests.ts';
export * from './bugs.ts';
export * from './integrations.ts';
export * from './ops.ts';
export * from './team.ts';
export * from './badges.ts';
export * from './alerts.ts';
export * from './schedules.ts';
export * from './system.ts';
export * from './load-generators.ts';
export * from './visual.ts';
export * from './mobile-devices.ts';

export * from './common.ts';
export * from './auth.ts';
export * from './client-profile.ts';
export * from './tests.ts';
export * from './reports.ts';
export * from './insights.ts';
export * from './requests.ts';
export * from './routes.ts';

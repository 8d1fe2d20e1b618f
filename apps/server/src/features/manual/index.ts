// The manual feature's face: what other features may use of it. Everything else in this folder is its own.
export { manualRoutes } from './routes.ts';
export { expireOverdueManualWork } from './service.ts';

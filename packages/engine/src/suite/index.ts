export * from './manifest.ts';
export * from './suite-errors.ts';
export * from './suite-files.ts';
export * from './validate-suite.ts';
export * from './login-declaration.ts';

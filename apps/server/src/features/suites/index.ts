// The suites feature's face: what other features may use of it. Everything else in this folder is its own.
export { currentSuite, currentSuites, setCurrentSuite, suiteOfRun } from './suite-repository.ts';
export type { SuiteRow } from './suite-repository.ts';
export { importSuite, testGroupsOf } from './suite-service.ts';
export { localSuite } from './suite-store.ts';
